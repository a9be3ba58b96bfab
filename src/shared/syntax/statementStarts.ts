/**
 * A lexical scan of JavaScript and TypeScript that finds where top-level statements
 * begin, for the syntax gate's windows (see syntaxWindows.ts). It reads comments,
 * strings, template literals, regular expressions and brackets from the start of the
 * text; wherever it cannot be sure what a character is (a `/` after `}` or `++`, a
 * contextual keyword, a `<` that may open JSX, a line break it does not model), it
 * stops, and everything after that point is unknown: the gate then parses the whole file.
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
const LONGEST_KEYWORD = Math.max(...[...STATEMENT_KEYWORDS, ...REGEX_AFTER_WORD, ...UNSURE_AFTER_WORD].map((word) => word.length));
/** Keywords whose parenthesised condition is followed by a statement, so `/` after its `)` starts a regular expression. */
const CONTROL_WORDS = new Set(['if', 'while', 'for', 'with']);

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

const LF = 10;
const CR = 13;

/** Characters beyond ASCII that tree-sitter's JavaScript grammars read as blanks; the scan stops at them. */
const UNICODE_BLANK = /[\p{Zs}\u200B\u2060\u2028\u2029\uFEFF]/u;

function isWordStart(code: number): boolean {
  return (code >= Char.LowerA && code <= Char.LowerZ) || (code >= Char.UpperA && code <= Char.UpperZ) || code === Char.Underscore || code === Char.Dollar || code === Char.Hash || (code >= 0x80 && !UNICODE_BLANK.test(String.fromCharCode(code)));
}

function isWordPart(code: number): boolean {
  return isWordStart(code) || (code >= Char.Digit0 && code <= Char.Digit9);
}

/** Characters that end a line in JavaScript besides LF; the scan does not model them, so it stops at one. */
function isOtherLineBreak(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code === 0x2028 || code === 0x2029 || (code === CR && text.charCodeAt(at + 1) !== LF);
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
  const starts: number[] = [];
  const frames: Frame[] = [];
  const length = text.length;
  let slash = Slash.Regex;
  let last = Last.None;
  let afterDot = false;
  // A control keyword waits for its `(` (`for await (` too).
  let control = false;
  // The current line began outside any comment or literal and holds no token or comment yet.
  let lineUntouched = true;
  let lineStart = 0;
  let tokens = 0;
  let opensWithStatement = false;
  let at = 0;
  // Set when the template literal just read stopped at a `${`.
  let holeOpened = false;
  // Whether a line comment must be read for a line break other than LF (rare, so one search of the text decides).
  const otherBreaks = /[\r\u2028\u2029]/.test(text);
  const stopped = (where: number): StatementScan => ({ starts, readTo: where, opensWithStatement, empty: tokens === 0, closesStatement: false });
  if (fileStart && text.startsWith('#!')) {
    const lineEnd = text.indexOf('\n');
    at = lineEnd === -1 ? length : lineEnd;
  }
  /** Reads a template literal's text from `from`; returns where the scan resumes, or -1 when it does not end. */
  const templateText = (from: number): number => {
    for (let index = from; index < length; index++) {
      const code = text.charCodeAt(index);
      if (code === Char.Backslash) {
        index++;
      } else if (code === Char.Backtick) {
        return index + 1;
      } else if (code === Char.Dollar && text.charCodeAt(index + 1) === Char.OpenBrace) {
        frames.push(Frame.TemplateHole);
        holeOpened = true;
        return index + 2;
      }
    }
    return -1;
  };
  /** Where the string, template or pattern literal at `from` ends, or the template a `}` resumes (-1: it does not end); undefined when none is there. */
  const literalEndAt = (code: number, from: number): number | undefined => {
    holeOpened = false;
    if (code === Char.Quote || code === Char.DoubleQuote) {
      return stringEnd(text, from);
    }
    if (code === Char.Backtick) {
      return templateText(from + 1);
    }
    if (code === Char.Slash && slash === Slash.Regex) {
      return regexEnd(text, from);
    }
    if (code === Char.CloseBrace && frames.at(-1) === Frame.TemplateHole) {
      frames.pop();
      return templateText(from + 1);
    }
    return undefined;
  };
  while (at < length) {
    const code = text.charCodeAt(at);
    if (code === LF) {
      lineStart = at + 1;
      lineUntouched = true;
      at++;
      continue;
    }
    if (code === Char.Space || code === Char.Tab || code === Char.VerticalTab || code === Char.FormFeed) {
      at++;
      continue;
    }
    if ((code === CR && isOtherLineBreak(text, at)) || (code >= 0x80 && !isWordStart(code))) {
      return stopped(at);
    }
    if (code === CR) {
      at++;
      continue;
    }
    const firstOnLine = lineUntouched;
    lineUntouched = false;
    const next = text.charCodeAt(at + 1);
    if (code === Char.Slash && next === Char.Slash) {
      const lineEnd = text.indexOf('\n', at);
      const end = lineEnd === -1 ? length : lineEnd;
      if (otherBreaks) {
        for (let index = at; index < end; index++) {
          if (isOtherLineBreak(text, index)) {
            return stopped(at);
          }
        }
      }
      at = end;
      continue;
    }
    if (code === Char.Slash && next === Char.Star) {
      const close = text.indexOf('*/', at + 2);
      if (close === -1) {
        return stopped(at);
      }
      at = close + 2;
      continue;
    }
    tokens++;
    if (isWordStart(code)) {
      // Every keyword the scan looks for is short and in lower-case letters: other names are not sliced out.
      let lowerCase = code >= Char.LowerA && code <= Char.LowerZ;
      let end = at + 1;
      for (; end < length; end++) {
        const part = text.charCodeAt(end);
        if (part < 97 || part > 122) {
          if (!isWordPart(part)) {
            break;
          }
          lowerCase = false;
        }
      }
      const word = lowerCase && end - at <= LONGEST_KEYWORD ? text.slice(at, end) : '';
      if (firstOnLine && frames.length === 0 && last !== Last.Other && !afterDot && STATEMENT_KEYWORDS.has(word)) {
        starts.push(lineStart);
        opensWithStatement ||= tokens === 1;
        if (lineStart >= stopAfter) {
          return stopped(at);
        }
      }
      slash = afterDot ? Slash.Division : REGEX_AFTER_WORD.has(word) ? Slash.Regex : UNSURE_AFTER_WORD.has(word) ? Slash.Unknown : Slash.Division;
      control = !afterDot && (CONTROL_WORDS.has(word) || (control && word === 'await'));
      afterDot = false;
      last = Last.Other;
      at = end;
      continue;
    }
    const opensControl = control;
    control = false;
    afterDot = false;
    last = Last.Other;
    if (code >= Char.Digit0 && code <= Char.Digit9) {
      let end = at + 1;
      while (end < length && (isWordPart(text.charCodeAt(end)) || text.charCodeAt(end) === Char.Dot)) {
        end++;
      }
      slash = Slash.Division;
      at = end;
      continue;
    }
    const literalEnd = literalEndAt(code, at);
    if (literalEnd !== undefined) {
      if (literalEnd === -1) {
        return stopped(at);
      }
      // An expression starts in a template's `${`; a literal that ended is a value.
      slash = holeOpened ? Slash.Regex : Slash.Division;
      at = literalEnd;
      continue;
    }
    switch (code) {
      case Char.Slash:
        if (slash === Slash.Unknown) {
          return stopped(at);
        }
        slash = Slash.Regex;
        at++;
        continue;
      case Char.OpenParen:
        frames.push(opensControl ? Frame.ControlParen : Frame.Paren);
        slash = Slash.Regex;
        at++;
        continue;
      case Char.CloseParen: {
        const frame = frames.pop();
        if (frame !== Frame.Paren && frame !== Frame.ControlParen) {
          return stopped(at);
        }
        slash = frame === Frame.ControlParen ? Slash.Regex : Slash.Division;
        at++;
        continue;
      }
      case Char.OpenBracket:
        frames.push(Frame.Bracket);
        slash = Slash.Regex;
        at++;
        continue;
      case Char.CloseBracket:
        if (frames.pop() !== Frame.Bracket) {
          return stopped(at);
        }
        slash = Slash.Division;
        at++;
        continue;
      case Char.OpenBrace:
        frames.push(Frame.Brace);
        slash = Slash.Regex;
        at++;
        continue;
      case Char.CloseBrace: {
        if (frames.pop() !== Frame.Brace) {
          return stopped(at);
        }
        // The end of a block or of an object literal: a `/` after it could be either.
        slash = Slash.Unknown;
        last = frames.length === 0 ? Last.StatementEnd : Last.Other;
        at++;
        continue;
      }
      case Char.Semicolon:
        slash = Slash.Regex;
        last = frames.length === 0 ? Last.StatementEnd : Last.Other;
        at++;
        continue;
      case Char.Dot:
        if (next === Char.Dot && text.charCodeAt(at + 2) === Char.Dot) {
          at += 3;
        } else {
          afterDot = true;
          at++;
        }
        slash = Slash.Regex;
        continue;
      case Char.Plus:
      case Char.Minus:
        // `-->` first on a line is a comment too.
        if (code === Char.Minus && firstOnLine && text.startsWith('->', at + 1)) {
          return stopped(at);
        }
        // After `++` or `--` a `/` divides (postfix) or starts a pattern (prefix, in odd code).
        slash = next === code ? Slash.Unknown : Slash.Regex;
        at += next === code ? 2 : 1;
        continue;
      case Char.Bang:
        // Before a value `!` is a logical not, after which `/` starts a pattern; after one it is
        // TypeScript's non-null assertion (`x! / 2` divides), or something the scan does not guess.
        slash = slash === Slash.Regex ? Slash.Regex : Slash.Unknown;
        at++;
        continue;
      case Char.Less:
        // `<!--` opens a comment to the line's end in tree-sitter's JavaScript grammars.
        if ((dialect === 'jsx' && slash !== Slash.Division) || text.startsWith('!--', at + 1)) {
          return stopped(at);
        }
        slash = Slash.Regex;
        at++;
        continue;
      case Char.Equals:
        // `=>` is followed by an expression; a lone `>` may close a type argument list.
        slash = Slash.Regex;
        at += next === Char.Greater ? 2 : 1;
        continue;
      case Char.Greater:
        slash = Slash.Unknown;
        at++;
        continue;
      case Char.Question:
        afterDot = next === Char.Dot;
        slash = Slash.Regex;
        at += afterDot ? 2 : 1;
        continue;
      case Char.Backslash:
        // An escape in a name, which the scan does not read.
        return stopped(at);
      default:
        slash = Slash.Regex;
        at++;
    }
  }
  return { starts, readTo: length, opensWithStatement, empty: tokens === 0, closesStatement: frames.length === 0 && last === Last.StatementEnd };
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
    } else if (code === LF || code === CR || code === 0x2028 || code === 0x2029) {
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
    if (code === LF || code === CR || code === 0x2028 || code === 0x2029) {
      return -1;
    }
    if (code === Char.Backslash) {
      index++;
      const escaped = text.charCodeAt(index);
      if (escaped === LF || escaped === CR || escaped === 0x2028 || escaped === 0x2029) {
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
