/**
 * A lexical scan of JavaScript and TypeScript that finds where top-level statements
 * begin, for the syntax gate's windows (see syntaxWindows.ts). It reads comments,
 * strings, template literals, regular expressions and brackets from the start of the
 * text; wherever it cannot be sure what a character is (a `/` after `}` or `++`, a
 * contextual keyword, a `<` that may open JSX, a line break it does not model), it
 * stops, and everything after that point is unknown: the gate then parses the whole file.
 *
 * The scanner reads one token at a time, each kind by a method of its own. It is the gate's
 * cost on every edit it settles by windows (it reads the file up to the last edit), so it
 * is written for speed: characters are classed by a table, and a word is matched against
 * the keywords without being copied out of the text.
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

const enum Slash {
  Regex,
  Division,
  Unknown,
}
const enum Frame {
  Paren,
  ControlParen,
  Bracket,
  Brace,
  TemplateHole,
}
const enum Last {
  None,
  StatementEnd,
  Other,
}

/** The class of an ASCII character, as the scan's main loop dispatches on it. */
const enum Kind {
  Punctuation,
  Blank,
  LineFeed,
  CarriageReturn,
  Word,
  Digit,
}

const LF = 10;
const CR = 13;
const LINE_SEPARATOR = 0x2028;
const PARAGRAPH_SEPARATOR = 0x2029;

const ASCII_KINDS: Uint8Array = (() => {
  const kinds = new Uint8Array(Char.FirstNonAscii);
  for (let code = 0; code < Char.FirstNonAscii; code++) {
    const isLetter = (code >= Char.LowerA && code <= Char.LowerZ) || (code >= Char.UpperA && code <= Char.UpperZ);
    kinds[code] = isLetter || code === Char.Underscore || code === Char.Dollar || code === Char.Hash ? Kind.Word
      : code >= Char.Digit0 && code <= Char.Digit9 ? Kind.Digit
        : code === Char.Space || code === Char.Tab || code === Char.VerticalTab || code === Char.FormFeed ? Kind.Blank
          : code === LF ? Kind.LineFeed
            : code === CR ? Kind.CarriageReturn
              : Kind.Punctuation;
  }
  return kinds;
})();

/** Characters beyond ASCII that tree-sitter's JavaScript grammars read as blanks; the scan stops at them. */
const UNICODE_BLANK = /[\p{Zs}\u200B\u2060\u2028\u2029\uFEFF]/u;

function isWordStart(code: number): boolean {
  return code < Char.FirstNonAscii ? ASCII_KINDS[code] === Kind.Word : !UNICODE_BLANK.test(String.fromCharCode(code));
}

function isWordPart(code: number): boolean {
  return code < Char.FirstNonAscii ? ASCII_KINDS[code] >= Kind.Word : !UNICODE_BLANK.test(String.fromCharCode(code));
}

function isLineBreak(code: number): boolean {
  return code === LF || code === CR || code === LINE_SEPARATOR || code === PARAGRAPH_SEPARATOR;
}

/** Characters that end a line in JavaScript besides LF; the scan does not model them, so it stops at one. */
function isOtherLineBreak(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code === LINE_SEPARATOR || code === PARAGRAPH_SEPARATOR || (code === CR && text.charCodeAt(at + 1) !== LF);
}

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

/**
 * The scan's state between tokens. Each token method starts at `at`, on the token's first
 * character, and returns false when the scan must stop there; otherwise it leaves `at` just
 * past the token.
 */
class StatementScanner {
  private readonly starts: number[] = [];
  private readonly frames: Frame[] = [];
  private at = 0;
  /** How a `/` reads here. */
  private slash = Slash.Regex;
  private last = Last.None;
  private afterDot = false;
  /** A control keyword waits for its `(` (`for await (` too). */
  private awaitsCondition = false;
  /** The current line began outside any comment or literal and holds no token or comment yet. */
  private lineUntouched = true;
  private lineStart = 0;
  private tokens = 0;
  private opensWithStatement = false;
  /** The next CR, U+2028 and U+2029 at or after where they were last looked for (Infinity: none), which a line comment must not hide. */
  private readonly nextOtherBreak = [-1, -1, -1];

  constructor(
    private readonly text: string,
    private readonly dialect: ScriptDialect,
    private readonly stopAfter: number,
  ) {}

  scan(fileStart: boolean): StatementScan {
    const { text } = this;
    const length = text.length;
    if (fileStart && text.startsWith('#!')) {
      const lineEnd = text.indexOf('\n');
      this.at = lineEnd === -1 ? length : lineEnd;
    }
    // `at` lives in a local while blanks and line breaks are skipped, and in the scanner while a token method reads.
    let at = this.at;
    while (at < length) {
      const code = text.charCodeAt(at);
      const kind = code < Char.FirstNonAscii ? ASCII_KINDS[code] : isWordStart(code) ? Kind.Word : -1;
      if (kind === Kind.Blank) {
        at++;
        continue;
      }
      if (kind === Kind.LineFeed) {
        at++;
        this.lineStart = at;
        this.lineUntouched = true;
        continue;
      }
      this.at = at;
      if (kind === Kind.CarriageReturn && !isOtherLineBreak(text, at)) {
        at++;
        continue;
      }
      if (kind === -1 || kind === Kind.CarriageReturn || !this.token(code, kind)) {
        return this.stopped();
      }
      at = this.at;
    }
    this.at = at;
    const { starts, opensWithStatement, tokens, frames, last } = this;
    return { starts, readTo: length, opensWithStatement, empty: tokens === 0, closesStatement: frames.length === 0 && last === Last.StatementEnd };
  }

  private stopped(): StatementScan {
    return { starts: this.starts, readTo: this.at, opensWithStatement: this.opensWithStatement, empty: this.tokens === 0, closesStatement: false };
  }

  /** Reads the comment or token at `at`, whose first character is `code` of `kind`. */
  private token(code: number, kind: Kind): boolean {
    const firstOnLine = this.lineUntouched;
    this.lineUntouched = false;
    if (code === Char.Slash) {
      const next = this.text.charCodeAt(this.at + 1);
      if (next === Char.Slash) {
        return this.lineComment();
      }
      if (next === Char.Star) {
        return this.blockComment();
      }
    }
    this.tokens++;
    return kind === Kind.Word ? this.word(firstOnLine) : kind === Kind.Digit ? this.number() : this.punctuation(code, firstOnLine);
  }

  private lineComment(): boolean {
    const { text } = this;
    const lineEnd = text.indexOf('\n', this.at);
    const end = lineEnd === -1 ? text.length : lineEnd;
    if (this.otherBreakBefore(end)) {
      for (let index = this.at; index < end; index++) {
        if (isOtherLineBreak(text, index)) {
          return false;
        }
      }
    }
    this.at = end;
    return true;
  }

  /** Whether a CR, U+2028 or U+2029 lies between `at` and `end`: only then is a line comment read character by character. */
  private otherBreakBefore(end: number): boolean {
    const { nextOtherBreak, at, text } = this;
    let found = false;
    for (let which = 0; which < nextOtherBreak.length; which++) {
      if (nextOtherBreak[which] !== Infinity && nextOtherBreak[which] < at) {
        const index = text.indexOf(which === 0 ? '\r' : which === 1 ? '\u2028' : '\u2029', at);
        nextOtherBreak[which] = index === -1 ? Infinity : index;
      }
      found ||= nextOtherBreak[which] < end;
    }
    return found;
  }

  private blockComment(): boolean {
    const close = this.text.indexOf('*/', this.at + 2);
    if (close === -1) {
      return false;
    }
    this.at = close + 2;
    return true;
  }

  private word(firstOnLine: boolean): boolean {
    const { text } = this;
    const start = this.at;
    const length = text.length;
    // Every keyword is short and in lower-case letters: other words are not compared.
    let lowerCase = true;
    let end = start;
    for (; end < length; end++) {
      const code = text.charCodeAt(end);
      if (code < Char.LowerA || code > Char.LowerZ) {
        if (!isWordPart(code)) {
          break;
        }
        lowerCase = false;
      }
    }
    const roles = lowerCase && end - start <= LONGEST_KEYWORD ? keywordRoles(text, start, end - start) : 0;
    this.at = end;
    if ((roles & Role.StartsStatement) !== 0 && firstOnLine && this.frames.length === 0 && this.last !== Last.Other && !this.afterDot) {
      this.starts.push(this.lineStart);
      this.opensWithStatement ||= this.tokens === 1;
      if (this.lineStart >= this.stopAfter) {
        this.at = start;
        return false;
      }
    }
    if (this.afterDot) {
      this.slash = Slash.Division;
      this.awaitsCondition = false;
    } else {
      this.slash = (roles & Role.RegexAfter) !== 0 ? Slash.Regex : (roles & Role.UnsureAfter) !== 0 ? Slash.Unknown : Slash.Division;
      this.awaitsCondition = (roles & Role.Control) !== 0 || (this.awaitsCondition && (roles & Role.Await) !== 0);
    }
    this.afterDot = false;
    this.last = Last.Other;
    return true;
  }

  private number(): boolean {
    const { text } = this;
    let end = this.at + 1;
    for (let code = text.charCodeAt(end); end < text.length && (isWordPart(code) || code === Char.Dot); code = text.charCodeAt(++end)) {
      // a number's digits, letters (exponents, radixes, suffixes) and dots
    }
    this.slash = Slash.Division;
    this.afterValue();
    this.at = end;
    return true;
  }

  /** After any token but a word: no condition is awaited any more, nor a property name. */
  private afterValue(): void {
    this.awaitsCondition = false;
    this.afterDot = false;
    this.last = Last.Other;
  }

  /** A string, template or pattern literal, a `}` that resumes a template, or a punctuator. */
  private punctuation(code: number, firstOnLine: boolean): boolean {
    const opensCondition = this.awaitsCondition;
    this.afterValue();
    switch (code) {
      case Char.Quote:
      case Char.DoubleQuote:
        return this.literal(stringEnd(this.text, this.at));
      case Char.Backtick:
        return this.template(this.at + 1);
      case Char.Slash:
        if (this.slash === Slash.Regex) {
          return this.literal(regexEnd(this.text, this.at));
        }
        if (this.slash === Slash.Unknown) {
          return false;
        }
        return this.operator(1);
      case Char.OpenParen:
        this.frames.push(opensCondition ? Frame.ControlParen : Frame.Paren);
        return this.operator(1);
      case Char.CloseParen: {
        const frame = this.frames.pop();
        if (frame !== Frame.Paren && frame !== Frame.ControlParen) {
          return false;
        }
        return this.operator(1, frame === Frame.ControlParen ? Slash.Regex : Slash.Division);
      }
      case Char.OpenBracket:
        this.frames.push(Frame.Bracket);
        return this.operator(1);
      case Char.CloseBracket:
        return this.frames.pop() === Frame.Bracket && this.operator(1, Slash.Division);
      case Char.OpenBrace:
        this.frames.push(Frame.Brace);
        return this.operator(1);
      case Char.CloseBrace:
        return this.closeBrace();
      case Char.Semicolon:
        this.last = this.frames.length === 0 ? Last.StatementEnd : Last.Other;
        return this.operator(1);
      default:
        return this.operatorAt(code, firstOnLine);
    }
  }

  /** Moves past a literal that ends at `end` (-1: it does not end, and the scan stops). */
  private literal(end: number, opensHole = false): boolean {
    if (end < 0) {
      return false;
    }
    // An expression starts in a template's `${`; a literal that ended is a value.
    this.slash = opensHole ? Slash.Regex : Slash.Division;
    this.at = end;
    return true;
  }

  /** Moves past a template's text from `from`, to its end or to a `${`, which opens a frame. */
  private template(from: number): boolean {
    const end = this.templateText(from);
    return this.literal(end, end > 0 && this.text.charCodeAt(end - 1) === Char.OpenBrace);
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

  private closeBrace(): boolean {
    const frame = this.frames.pop();
    if (frame === Frame.TemplateHole) {
      return this.template(this.at + 1);
    }
    if (frame !== Frame.Brace) {
      return false;
    }
    // The end of a block or of an object literal: a `/` after it could be either.
    this.last = this.frames.length === 0 ? Last.StatementEnd : Last.Other;
    return this.operator(1, Slash.Unknown);
  }

  /** Moves past a punctuator of `length` characters, after which a `/` reads as `slash`. */
  private operator(length: number, slash = Slash.Regex): boolean {
    this.slash = slash;
    this.at += length;
    return true;
  }

  /** The operators that are not brackets: what each means for a `/` after it. */
  private operatorAt(code: number, firstOnLine: boolean): boolean {
    const { text, at } = this;
    const next = text.charCodeAt(at + 1);
    switch (code) {
      case Char.Dot:
        if (next === Char.Dot && text.charCodeAt(at + 2) === Char.Dot) {
          return this.operator(3);
        }
        this.afterDot = true;
        return this.operator(1);
      case Char.Plus:
      case Char.Minus:
        // `-->` first on a line is a comment too.
        if (code === Char.Minus && firstOnLine && text.startsWith('->', at + 1)) {
          return false;
        }
        // After `++` or `--` a `/` divides (postfix) or starts a pattern (prefix, in odd code).
        return next === code ? this.operator(2, Slash.Unknown) : this.operator(1);
      case Char.Bang:
        // Before a value `!` is a logical not, after which `/` starts a pattern; after one it is
        // TypeScript's non-null assertion (`x! / 2` divides), or something the scan does not guess.
        return this.operator(1, this.slash === Slash.Regex ? Slash.Regex : Slash.Unknown);
      case Char.Less:
        // `<!--` opens a comment to the line's end in tree-sitter's JavaScript grammars.
        if ((this.dialect === 'jsx' && this.slash !== Slash.Division) || text.startsWith('!--', at + 1)) {
          return false;
        }
        return this.operator(1);
      case Char.Equals:
        // `=>` is followed by an expression; a lone `>` may close a type argument list.
        return this.operator(next === Char.Greater ? 2 : 1);
      case Char.Greater:
        return this.operator(1, Slash.Unknown);
      case Char.Question:
        if (next === Char.Dot) {
          this.afterDot = true;
          return this.operator(2);
        }
        return this.operator(1);
      case Char.Backslash:
        // An escape in a name, which the scan does not read.
        return false;
      default:
        return this.operator(1);
    }
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
      index += text.charCodeAt(index + 1) === CR && text.charCodeAt(index + 2) === LF ? 2 : 1;
    } else if (isLineBreak(code)) {
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
