/**
 * A lexical scan of JavaScript and TypeScript that finds where top-level statements
 * begin, for the syntax gate's windows (see syntaxWindows.ts). It reads comments,
 * strings, template literals, regular expressions and brackets from the start of the
 * text; wherever it cannot be sure what a character is (a `/` after `}` or `++`, a
 * contextual keyword, a `<` that may open JSX, a line break it does not model), it
 * stops, and everything after that point is unknown: the gate then parses the whole file.
 *
 * It is the gate's cost on every edit it settles by windows (it reads the file up to the
 * last edit), so it looks at as few characters as it can. Names, numbers, blanks and the
 * punctuators that open or close nothing it passes over by a table; it stops at quotes,
 * slashes and brackets, at each line's first token at top level, and at the characters it
 * must check. What a `/` or a `(` means, and whether a line's keyword starts a statement,
 * depend on the token before: that token is read back from the text when it matters,
 * never tracked token by token.
 */
import { Char } from './scriptChars';

/** How `<` reads where an expression may start: a type assertion or generic arrow (TypeScript), or maybe a JSX element. */
export type ScriptDialect = 'typescript' | 'jsx';

/** What a scan found, up to `readTo`. */
export interface StatementScan {
  /**
   * In text order, the starts of the lines whose first token is a declaration keyword that
   * begins a statement at top level: no bracket is open, no comment or literal runs across
   * the line break, and the token before is `;` or a `}` (or there is none).
   */
  readonly starts: readonly number[];
  /** Where the scan stopped: the text's length when it read everything. */
  readonly readTo: number;
  /** The first token of the text is such a statement start (false when the text has no token). */
  readonly opensWithStatement: boolean;
  /** The text has no token at all (only blanks and comments). */
  readonly empty: boolean;
  /** At the end of a text read to its end: no bracket is open and the last token is `;` or `}`. */
  readonly closesStatement: boolean;
}

/**
 * Keywords that begin a declaration or a statement and, after `;` or a `}`, can only start a
 * new statement: none of them continues an expression (as `in` or `as` would) or a statement
 * (as `else`, `catch`, `finally` or `while` after `do {}` would).
 */
const STATEMENT_KEYWORDS = new Set([
  'export', 'import', 'function', 'class', 'interface', 'enum', 'const', 'let', 'var',
  'type', 'declare', 'abstract', 'async', 'namespace', 'module',
]);

/** Reserved words after which a `/` starts a regular expression (unless a `.` makes them a property name). */
const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'instanceof', 'in', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'default', 'extends', 'break', 'continue']);
/**
 * Other keywords, reserved or contextual: after them a `/` is either invalid or depends on
 * where they stand (a name, or an operator such as `yield` and `await`), so the scan stops
 * there rather than guess. After any other name, and after `this`, `super` and literals, it divides.
 */
const UNSURE_AFTER_WORD = new Set([
  'of', 'yield', 'await', 'let', 'async', 'get', 'set', 'static', 'catch', 'class', 'const', 'debugger', 'enum', 'export',
  'finally', 'for', 'function', 'if', 'import', 'switch', 'try', 'var', 'while', 'with', 'as', 'satisfies', 'keyof', 'infer',
  'is', 'asserts', 'readonly', 'declare', 'abstract', 'type', 'namespace', 'module', 'implements', 'interface', 'package',
  'private', 'protected', 'public', 'unique', 'accessor', 'override',
]);
/** Keywords whose parenthesised condition is followed by a statement, so `/` after its `)` starts a regular expression. */
const CONTROL_WORDS = new Set(['if', 'while', 'for', 'with']);

/** What a keyword does to the scan, as bits. */
const enum Role {
  StartsStatement = 1,
  RegexAfter = 2,
  UnsureAfter = 4,
  Control = 8,
  /** `for await (`: the control keyword still waits for its `(`. */
  Await = 16,
}

interface Keyword {
  readonly word: string;
  readonly roles: number;
}

/** Every keyword has 2 to 10 lower-case letters: bucketed by length and first letter, a word is compared only with the few that could be it. */
const LONGEST_KEYWORD = 10;
const LETTERS = 26;
const KEYWORD_BUCKETS: readonly (readonly Keyword[] | undefined)[] = (() => {
  const buckets: Keyword[][] = [];
  const words = new Set([...STATEMENT_KEYWORDS, ...REGEX_AFTER_WORD, ...UNSURE_AFTER_WORD, ...CONTROL_WORDS]);
  for (const word of words) {
    if (word.length > LONGEST_KEYWORD || !/^[a-z]+$/.test(word)) {
      throw new Error(`statement scan: the keyword ${word} does not fit its table`);
    }
    const roles = (STATEMENT_KEYWORDS.has(word) ? Role.StartsStatement : 0) | (REGEX_AFTER_WORD.has(word) ? Role.RegexAfter : 0)
      | (UNSURE_AFTER_WORD.has(word) ? Role.UnsureAfter : 0) | (CONTROL_WORDS.has(word) ? Role.Control : 0) | (word === 'await' ? Role.Await : 0);
    (buckets[bucketOf(word.length, word.charCodeAt(0))] ??= []).push({ word, roles });
  }
  return buckets;
})();

function bucketOf(length: number, first: number): number {
  return length * LETTERS + first - Char.LowerA;
}

/** The words a control keyword's `(` may follow (`for await (` too), by their last letter. */
const CONTROL_WORDS_BY_LAST_LETTER: readonly (readonly string[] | undefined)[] = (() => {
  const byLast: string[][] = [];
  for (const word of [...CONTROL_WORDS, 'await']) {
    (byLast[word.charCodeAt(word.length - 1) - Char.LowerA] ??= []).push(word);
  }
  return byLast;
})();

/** Whether `word` ends at `last` in `text`. */
function endsWith(text: string, last: number, word: string): boolean {
  const start = last + 1 - word.length;
  for (let index = word.length - 1; index >= 0; index--) {
    if (text.charCodeAt(start + index) !== word.charCodeAt(index)) {
      return false;
    }
  }
  return start >= 0;
}

const enum Frame {
  Paren,
  /** The `(` after a control keyword: a `/` after its `)` starts a regular expression. */
  ControlParen,
  /** A `(` where the scan could not tell whether a control keyword opened it. */
  UnsureParen,
  Bracket,
  Brace,
  TemplateHole,
}

/**
 * How the code read so far leaves what comes next: the low bits say how a `/` reads; Dot
 * means the last token is `.` or `?.` (a word after it is a property name); Control that a
 * control keyword waits for its `(`; Ends that the last token ends a statement at top level
 * (`;` or a `}`), or that there is none; Unsure that neither Dot nor Control is known.
 */
const enum After {
  Regex = 0,
  Division = 1,
  Unknown = 2,
  SlashBits = 3,
  Dot = 4,
  Control = 8,
  Unsure = 16 | 2,
  Ends = 32,
}

/** The class of an ASCII character, for the tables below. */
const enum Kind {
  Punctuation,
  Blank,
  LineFeed,
  CarriageReturn,
  Word,
  Digit,
}

const LINE_SEPARATOR = 0x2028;
const PARAGRAPH_SEPARATOR = 0x2029;

const ASCII_KINDS: Uint8Array = (() => {
  const kinds = new Uint8Array(Char.FirstNonAscii);
  for (let code = 0; code < Char.FirstNonAscii; code++) {
    const isLetter = (code >= Char.LowerA && code <= Char.LowerZ) || (code >= Char.UpperA && code <= Char.UpperZ);
    kinds[code] = isLetter || code === Char.Underscore || code === Char.Dollar || code === Char.Hash ? Kind.Word
      : code >= Char.Digit0 && code <= Char.Digit9 ? Kind.Digit
        : code === Char.Space || code === Char.Tab || code === Char.VerticalTab || code === Char.FormFeed ? Kind.Blank
          : code === Char.LineFeed ? Kind.LineFeed
            : code === Char.CarriageReturn ? Kind.CarriageReturn
              : Kind.Punctuation;
  }
  return kinds;
})();

/**
 * The ASCII characters the scan passes over inside brackets (1): all but quotes, slashes,
 * brackets, `<` and `-` (comments of HTML's form, JSX), `\\` and CR. At top level it also
 * stops at LF, to look at each line's first token.
 */
function passedTable(atTopLevel: boolean): Uint8Array {
  const passed = new Uint8Array(Char.FirstNonAscii).fill(1);
  for (const code of [Char.Quote, Char.DoubleQuote, Char.Backtick, Char.Slash, Char.OpenParen, Char.CloseParen, Char.OpenBracket,
    Char.CloseBracket, Char.OpenBrace, Char.CloseBrace, Char.Less, Char.Minus, Char.Backslash, Char.CarriageReturn]) {
    passed[code] = 0;
  }
  passed[Char.LineFeed] = atTopLevel ? 0 : 1;
  return passed;
}
const PASSED_INSIDE_BRACKETS = passedTable(false);
const PASSED_AT_TOP_LEVEL = passedTable(true);

/** Characters beyond ASCII that tree-sitter's JavaScript grammars read as blanks; the scan stops at them. */
const UNICODE_BLANK = /[\p{Zs}\u200B\u2060\u2028\u2029\uFEFF]/u;

function isWordPart(code: number): boolean {
  return code < Char.FirstNonAscii ? ASCII_KINDS[code] >= Kind.Word : !UNICODE_BLANK.test(String.fromCharCode(code));
}

/** A blank or a line break the scan passes over (a CR it passes is always part of a CR LF). */
function isPassedBlank(code: number): boolean {
  return code < Char.FirstNonAscii && ASCII_KINDS[code] >= Kind.Blank && ASCII_KINDS[code] <= Kind.CarriageReturn;
}

function isLineBlank(code: number): boolean {
  return code < Char.FirstNonAscii && ASCII_KINDS[code] === Kind.Blank;
}

function isLineBreak(code: number): boolean {
  return code === Char.LineFeed || code === Char.CarriageReturn || code === LINE_SEPARATOR || code === PARAGRAPH_SEPARATOR;
}

/** Characters that end a line in JavaScript besides LF; the scan does not model them, so it stops at one. */
function isOtherLineBreak(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code === LINE_SEPARATOR || code === PARAGRAPH_SEPARATOR || (code === Char.CarriageReturn && text.charCodeAt(at + 1) !== Char.LineFeed);
}

/** A line comment's text: up to the first line break of any kind, which a line comment must not hide unless it is LF or CR LF. */
const COMMENT_TEXT = /[^\n\r\u2028\u2029]*/y;

export interface ScanOptions {
  /**
   * Whether `text` begins a file, where a `#!` line is allowed. A window further in is
   * scanned with false: there `#!` is an error that the window's own parse would not see.
   */
  readonly fileStart: boolean;
  /** Stop at the first statement start at or after this offset. */
  readonly stopAfter?: number;
}

/**
 * Scans `text` from its start (a line start, outside any comment or literal) until its end,
 * or until the first statement start at or after `stopAfter`, or until it cannot tell what comes.
 */
export function scanStatementStarts(text: string, dialect: ScriptDialect, { fileStart, stopAfter = Infinity }: ScanOptions = { fileStart: true }): StatementScan {
  return new StatementScanner(text, dialect, stopAfter).scan(fileStart);
}

class StatementScanner {
  private readonly starts: number[] = [];
  private readonly frames: Frame[] = [];
  /** Where the scan is, or where it stopped. */
  private at = 0;
  /** The keyword of the first statement start (-1: none yet). */
  private firstStartToken = -1;
  /** At the end of the text: no bracket open and the last token, if any, ends a statement. */
  private closes = false;

  constructor(
    private readonly text: string,
    private readonly dialect: ScriptDialect,
    private readonly stopAfter: number,
  ) {}

  scan(fileStart: boolean): StatementScan {
    const { text } = this;
    // A `#!` line is passed over; its LF then starts the first line the scan looks at.
    const hashBangEnd = fileStart && text.startsWith('#!') ? text.indexOf('\n') : 0;
    const from = hashBangEnd === -1 ? text.length : hashBangEnd;
    const firstToken = this.firstTokenAt(from);
    const readAll = this.read(from);
    return {
      starts: this.starts,
      readTo: readAll ? text.length : this.at,
      opensWithStatement: firstToken >= 0 && firstToken === this.firstStartToken,
      empty: firstToken < 0,
      closesStatement: readAll && firstToken >= 0 && this.closes,
    };
  }

  /** Where the text's first token stands past blanks and comments from `from` (-1: it has none, or a comment does not end). */
  private firstTokenAt(from: number): number {
    const { text } = this;
    let at = from;
    while (at < text.length) {
      const code = text.charCodeAt(at);
      const next = text.charCodeAt(at + 1);
      if (isPassedBlank(code)) {
        at++;
      } else if (code === Char.Slash && (next === Char.Slash || next === Char.Star)) {
        this.at = at;
        if (!(next === Char.Slash ? this.lineComment() : this.blockComment())) {
          return -1;
        }
        at = this.at;
      } else {
        return at;
      }
    }
    return -1;
  }

  /**
   * Reads from `from` to the text's end (true), or to where the scan stops (false, with `at`
   * there). Between `tokenEnd`, the end of the last token read, and `at` lie only characters
   * passed over; `state` is what that token left.
   */
  private read(from: number): boolean {
    const { text, frames } = this;
    const length = text.length;
    let tokenEnd = from;
    let state: number = After.Regex | After.Ends;
    let at = from === 0 ? this.lineStart(0, 0, state) : from;
    if (at < 0) {
      return false;
    }
    for (;;) {
      const passed = frames.length === 0 ? PASSED_AT_TOP_LEVEL : PASSED_INSIDE_BRACKETS;
      let code = 0;
      while (at < length && (code = text.charCodeAt(at)) < Char.FirstNonAscii && passed[code] === 1) {
        at++;
      }
      if (at >= length) {
        this.closes = frames.length === 0 && (this.stateBefore(length, tokenEnd, state) & After.Ends) !== 0;
        return true;
      }
      let end = at + 1;
      let after: number = After.Regex;
      switch (code) {
        case Char.LineFeed:
          // At top level only: a line begins. A line break is no token.
          at = this.lineStart(at + 1, tokenEnd, state);
          if (at < 0) {
            return false;
          }
          continue;
        case Char.Quote:
        case Char.DoubleQuote:
          end = stringEnd(text, at);
          after = After.Division;
          break;
        case Char.Backtick:
          end = this.templateText(at + 1);
          after = end > 0 && text.charCodeAt(end - 1) === Char.OpenBrace ? After.Regex : After.Division;
          break;
        case Char.Slash: {
          const next = text.charCodeAt(at + 1);
          if (next === Char.Slash || next === Char.Star) {
            // A comment leaves the state as it was before it.
            after = this.stateBefore(at, tokenEnd, state);
            this.at = at;
            end = (next === Char.Slash ? this.lineComment() : this.blockComment()) ? this.at : -1;
            break;
          }
          const slash = this.stateBefore(at, tokenEnd, state) & After.SlashBits;
          end = slash === After.Regex ? regexEnd(text, at) : slash === After.Division ? at + 1 : -1;
          after = slash === After.Regex ? After.Division : After.Regex;
          break;
        }
        case Char.OpenParen:
          frames.push(this.mayFollowControl(at, tokenEnd) ? this.parenAfter(this.stateBefore(at, tokenEnd, state)) : Frame.Paren);
          break;
        case Char.CloseParen: {
          const frame = frames.pop();
          after = frame === Frame.Paren ? After.Division : frame === Frame.ControlParen ? After.Regex : After.Unknown;
          end = frame === Frame.Paren || frame === Frame.ControlParen || frame === Frame.UnsureParen ? end : -1;
          break;
        }
        case Char.OpenBracket:
          frames.push(Frame.Bracket);
          break;
        case Char.CloseBracket:
          end = frames.pop() === Frame.Bracket ? end : -1;
          after = After.Division;
          break;
        case Char.OpenBrace:
          frames.push(Frame.Brace);
          break;
        case Char.CloseBrace: {
          const frame = frames.pop();
          if (frame === Frame.TemplateHole) {
            end = this.templateText(at + 1);
            after = end > 0 && text.charCodeAt(end - 1) === Char.OpenBrace ? After.Regex : After.Division;
          } else {
            // The end of a block or of an object literal: a `/` after it could be either. At top level it ends a statement.
            end = frame === Frame.Brace ? end : -1;
            after = frames.length === 0 ? After.Unknown | After.Ends : After.Unknown;
          }
          break;
        }
        case Char.Less:
          // `<!--` opens a comment to the line's end in tree-sitter's JavaScript grammars; in JSX a `<` where an expression may start may open an element.
          end = (text.charCodeAt(at + 1) === Char.Bang && text.startsWith('!--', at + 1))
            || (this.dialect === 'jsx' && (this.stateBefore(at, tokenEnd, state) & After.SlashBits) !== After.Division) ? -1 : end;
          break;
        case Char.Minus:
          // `-->` first on its line opens a comment too.
          end = text.startsWith('->', at + 1) && this.firstOnLine(at, tokenEnd) ? -1 : text.charCodeAt(at + 1) === Char.Minus ? at + 2 : end;
          // After `++` or `--`: a postfix or a prefix, which the scan does not tell apart.
          after = end === at + 2 ? After.Unknown : After.Regex;
          break;
        case Char.CarriageReturn:
          // Part of a line break when LF follows; a lone CR the scan does not model.
          if (text.charCodeAt(at + 1) !== Char.LineFeed) {
            end = -1;
            break;
          }
          at++;
          continue;
        case Char.Backslash:
          // An escape in a name, which the scan does not read.
          end = -1;
          break;
        default:
          // Beyond ASCII: part of a name, unless tree-sitter reads it as a blank.
          if (UNICODE_BLANK.test(String.fromCharCode(code))) {
            end = -1;
            break;
          }
          at++;
          continue;
      }
      if (end < 0) {
        this.at = at;
        return false;
      }
      at = tokenEnd = end;
      state = after;
    }
  }

  /**
   * At the start of a line at top level: records a statement start when the line's first
   * token is a keyword that begins one after what came before. Returns where reading goes
   * on, or -1 where the scan stops (at the first start at or after stopAfter).
   */
  private lineStart(lineAt: number, floor: number, state: number): number {
    const { text } = this;
    let first = lineAt;
    while (isLineBlank(text.charCodeAt(first))) {
      first++;
    }
    let end = first;
    for (let code = text.charCodeAt(end); code >= Char.LowerA && code <= Char.LowerZ; code = text.charCodeAt(++end)) {
      // every keyword is in lower-case letters
    }
    if (end === first || end - first > LONGEST_KEYWORD || (end < text.length && isWordPart(text.charCodeAt(end)))
      || (keywordRoles(text, first, end - first) & Role.StartsStatement) === 0
      || (this.stateBefore(first, floor, state) & After.Ends) === 0) {
      return end;
    }
    this.starts.push(lineAt);
    if (this.firstStartToken < 0) {
      this.firstStartToken = first;
    }
    if (lineAt >= this.stopAfter) {
      this.at = first;
      return -1;
    }
    return end;
  }

  /**
   * The state the code before `pos` leaves, read back from `pos` to `floor`, the end of the last
   * token read forward, after which the state was `floorState`. Between the two lie only names,
   * numbers, blanks and punctuators that open or close nothing.
   */
  private stateBefore(pos: number, floor: number, floorState: number): number {
    const { text } = this;
    let index = this.skipBlanksBack(pos - 1, floor);
    // A `!` keeps a pattern possible only where one was: read back past every `!` to what decides.
    let negations = 0;
    while (index >= floor && text.charCodeAt(index) === Char.Bang) {
      negations++;
      index = this.skipBlanksBack(index - 1, floor);
    }
    const state = index < floor ? floorState : this.stateAfter(index, floor, floorState);
    return negations === 0 ? state : (state & After.SlashBits) === After.Regex ? After.Regex : After.Unknown;
  }

  /**
   * Whether the `(` at `at` may follow a control keyword: false when a name that is none of
   * them, or a punctuator, ends right before it (as in nearly every call), so the state need not be read back.
   */
  private mayFollowControl(at: number, floor: number): boolean {
    const { text } = this;
    let last = at - 1;
    if (text.charCodeAt(last) === Char.Space) {
      last--;
    }
    if (last < floor) {
      return true;
    }
    const code = text.charCodeAt(last);
    if (code < Char.LowerA || code > Char.LowerZ) {
      return isPassedBlank(code);
    }
    // Does one of the words end here? (Ending a longer name, it is read back in full.)
    const words = CONTROL_WORDS_BY_LAST_LETTER[code - Char.LowerA];
    if (words !== undefined) {
      for (const word of words) {
        if (endsWith(text, last, word)) {
          return true;
        }
      }
    }
    return false;
  }

  private parenAfter(state: number): Frame {
    return (state & After.Unsure) === After.Unsure ? Frame.UnsureParen : (state & After.Control) !== 0 ? Frame.ControlParen : Frame.Paren;
  }

  /** Whether only blanks stand between `at` and the line break before it (or the text's start), with no token read since (the break may end a line comment). */
  private firstOnLine(at: number, floor: number): boolean {
    let index = at - 1;
    while (index >= floor && isLineBlank(this.text.charCodeAt(index))) {
      index--;
    }
    return index >= floor ? this.text.charCodeAt(index) === Char.LineFeed : index === -1;
  }

  private skipBlanksBack(index: number, floor: number): number {
    while (index >= floor && isPassedBlank(this.text.charCodeAt(index))) {
      index--;
    }
    return index;
  }

  /** The state after the name, number or punctuator that ends at `last` (not a `!`). */
  private stateAfter(last: number, floor: number, floorState: number): number {
    const { text } = this;
    const code = text.charCodeAt(last);
    if (isWordPart(code)) {
      return this.stateAfterWord(last, floor, floorState);
    }
    switch (code) {
      case Char.Dot:
        return this.stateAfterDots(last, floor);
      case Char.Plus:
      case Char.Minus:
        // After `++` or `--`: a postfix or a prefix, which the scan does not tell apart.
        return last > floor && text.charCodeAt(last - 1) === code ? After.Unknown : After.Regex;
      case Char.Semicolon:
        return After.Regex | After.Ends;
      case Char.Greater:
        // `=>` is followed by an expression; a lone `>` may close a type argument list.
        return last > floor && text.charCodeAt(last - 1) === Char.Equals ? After.Regex : After.Unknown;
      default:
        return After.Regex;
    }
  }

  /** After a run of dots ending at `last`: `.` (a property name follows), `...` (an expression), or a number's dot, which stays unsure. */
  private stateAfterDots(last: number, floor: number): number {
    const { text } = this;
    let first = last;
    while (first > floor && text.charCodeAt(first - 1) === Char.Dot) {
      first--;
    }
    // After a number (`1.`, `0x1.`), the dots may be the number's own.
    let word = first;
    while (word > floor && isWordPart(text.charCodeAt(word - 1))) {
      word--;
    }
    const wordStart = word < first ? text.charCodeAt(word) : -1;
    if (wordStart >= Char.Digit0 && wordStart <= Char.Digit9) {
      return After.Unsure;
    }
    const dots = last - first + 1;
    return dots === 1 ? After.Regex | After.Dot : dots === 3 ? After.Regex : After.Unsure;
  }

  /** After the name or number whose last character is at `last`. */
  private stateAfterWord(last: number, floor: number, floorState: number): number {
    const { text } = this;
    let start = last;
    let lowerCase = true;
    for (; start > floor; start--) {
      const code = text.charCodeAt(start - 1);
      if (code < Char.LowerA || code > Char.LowerZ) {
        if (!isWordPart(code)) {
          break;
        }
        lowerCase = false;
      }
    }
    const first = text.charCodeAt(start);
    if (first >= Char.Digit0 && first <= Char.Digit9) {
      return After.Division;
    }
    lowerCase &&= first >= Char.LowerA && first <= Char.LowerZ;
    // What came before the word: a `.` makes it a property name; a word may be `for` before `await`.
    const roles = lowerCase && last + 1 - start <= LONGEST_KEYWORD ? keywordRoles(text, start, last + 1 - start) : 0;
    const previous = this.skipBlanksBack(start - 1, floor);
    let previousState: number;
    if (previous < floor) {
      previousState = floorState;
    } else {
      const code = text.charCodeAt(previous);
      // After another word, only `await` (in `for await (`) would need to know which word it is.
      previousState = code === Char.Dot ? this.stateAfterDots(previous, floor) : isWordPart(code) && (roles & Role.Await) !== 0 ? After.Unsure : After.Regex;
    }
    if ((previousState & After.Unsure) === After.Unsure && ((previousState & After.Dot) !== 0 || roles !== 0)) {
      return After.Unsure;
    }
    if ((previousState & After.Dot) !== 0) {
      return After.Division;
    }
    const slash = (roles & Role.RegexAfter) !== 0 ? After.Regex : (roles & Role.UnsureAfter) !== 0 ? After.Unknown : After.Division;
    const control = (roles & Role.Control) !== 0 || ((roles & Role.Await) !== 0 && (previousState & After.Control) !== 0);
    return slash | (control ? After.Control : 0);
  }

  private lineComment(): boolean {
    const { text } = this;
    COMMENT_TEXT.lastIndex = this.at;
    COMMENT_TEXT.test(text);
    let end = COMMENT_TEXT.lastIndex;
    // A CR ends the comment only with the LF after it; a lone CR, U+2028 or U+2029 the scan does not model.
    if (end < text.length && text.charCodeAt(end) !== Char.LineFeed) {
      if (isOtherLineBreak(text, end)) {
        return false;
      }
      end++;
    }
    this.at = end;
    return true;
  }

  private blockComment(): boolean {
    const close = this.text.indexOf('*/', this.at + 2);
    if (close === -1) {
      return false;
    }
    this.at = close + 2;
    return true;
  }

  /** Reads a template literal's text from `from`; returns where the scan resumes, or -1 when it does not end. */
  private templateText(from: number): number {
    const { text } = this;
    for (let index = from; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code === Char.Backslash) {
        index++;
      } else if (code === Char.Backtick) {
        return index + 1;
      } else if (code === Char.Dollar && text.charCodeAt(index + 1) === Char.OpenBrace) {
        this.frames.push(Frame.TemplateHole);
        return index + 2;
      }
    }
    return -1;
  }

}

/** The roles of the keyword [start, start + length) of `text`, or 0 when it is none. */
function keywordRoles(text: string, start: number, length: number): number {
  const bucket = KEYWORD_BUCKETS[bucketOf(length, text.charCodeAt(start))];
  if (bucket !== undefined) {
    for (const keyword of bucket) {
      if (text.startsWith(keyword.word, start)) {
        return keyword.roles;
      }
    }
  }
  return 0;
}

/** Just past the string literal opening at `from`, or -1 when it does not end on its line. */
function stringEnd(text: string, from: number): number {
  const quote = text.charCodeAt(from);
  for (let index = from + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === quote) {
      return index + 1;
    }
    if (code === Char.Backslash) {
      // An escaped line break continues the string; CR LF counts as one.
      index += text.charCodeAt(index + 1) === Char.CarriageReturn && text.charCodeAt(index + 2) === Char.LineFeed ? 2 : 1;
    } else if ((code <= Char.CarriageReturn || code >= LINE_SEPARATOR) && isLineBreak(code)) {
      return -1;
    }
  }
  return -1;
}

/** Just past the regular expression literal (flags included) opening at `from`, or -1 when it does not end on its line. */
function regexEnd(text: string, from: number): number {
  let inClass = false;
  for (let index = from + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isLineBreak(code)) {
      return -1;
    }
    if (code === Char.Backslash) {
      index++;
      if (isLineBreak(text.charCodeAt(index))) {
        return -1;
      }
    } else if (code === Char.OpenBracket) {
      inClass = true;
    } else if (code === Char.CloseBracket) {
      inClass = false;
    } else if (code === Char.Slash && !inClass) {
      let end = index + 1;
      while (end < text.length && isWordPart(text.charCodeAt(end))) {
        end++;
      }
      return end;
    }
  }
  return -1;
}
