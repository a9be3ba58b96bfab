/**
 * JSON errors with their positions, as the parser VS Code uses for JSON and JSON with
 * comments (jsonc-parser) reports them. Its scanner reads the tokens; the nesting is
 * kept on a stack of our own rather than the parser's recursion, so a valid file nested
 * 200,000 levels deep is checked like any other instead of exhausting the call stack.
 * The steps and their error recovery are jsonc-parser's `visit`, one for one; the
 * differential test in jsonSyntaxErrors.test.ts holds the two to the same errors.
 */
import { createScanner } from 'jsonc-parser';
import type { SyntaxErrorSpan } from '../../core/index';

/** jsonc-parser's SyntaxKind and ScanError values (declared there as const enums, which a bundle cannot import). */
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const COMMA = 5;
const COLON = 6;
const NULL_KEYWORD = 7;
const TRUE_KEYWORD = 8;
const FALSE_KEYWORD = 9;
const STRING_LITERAL = 10;
const NUMERIC_LITERAL = 11;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const TRIVIA = 15;
const UNKNOWN = 16;
const EOF = 17;
const UNEXPECTED_END_OF_COMMENT = 1;

/** An object or array being read: whether the next member needs a comma first. */
interface Container {
  readonly close: typeof CLOSE_BRACE | typeof CLOSE_BRACKET;
  needsComma: boolean;
}

export function jsonSyntaxErrors(text: string, comments: boolean): SyntaxErrorSpan[] {
  const scanner = createScanner(text, false);
  const errors: SyntaxErrorSpan[] = [];
  const error = (): void => {
    errors.push({ start: scanner.getTokenOffset(), end: scanner.getTokenOffset() + scanner.getTokenLength() });
  };
  const scanNext = (): number => {
    for (;;) {
      const token = scanner.scan();
      const scanError = scanner.getTokenError();
      if (scanError !== 0 && (scanError !== UNEXPECTED_END_OF_COMMENT || comments)) {
        error();
      }
      if (token === LINE_COMMENT || token === BLOCK_COMMENT) {
        if (!comments) {
          error();
        }
      } else if (token === UNKNOWN) {
        error();
      } else if (token !== TRIVIA && token !== LINE_BREAK) {
        return token;
      }
    }
  };
  /** An error, then tokens skipped up to one of `until` (left as the current token) or past one of `after`. */
  const errorAndSkip = (after: readonly number[], until: readonly number[]): void => {
    error();
    for (let token = scanner.getToken(); token !== EOF; token = scanNext()) {
      if (after.includes(token)) {
        scanNext();
        return;
      }
      if (until.includes(token)) {
        return;
      }
    }
  };
  /** Reads a value that is not a container; false when the token starts no value. */
  const scalar = (): boolean => {
    const token = scanner.getToken();
    if (token === NUMERIC_LITERAL && Number.isNaN(Number(scanner.getTokenValue()))) {
      error();
    } else if (token !== STRING_LITERAL && token !== NUMERIC_LITERAL && token !== NULL_KEYWORD && token !== TRUE_KEYWORD && token !== FALSE_KEYWORD) {
      return false;
    }
    scanNext();
    return true;
  };

  const stack: Container[] = [];
  /**
   * Starts the value at the current token: a container is opened (pushed), anything else
   * read whole. Gives whether a value was there; `undefined` when a container was opened.
   */
  const startValue = (): boolean | undefined => {
    const token = scanner.getToken();
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      scanNext();
      stack.push({ close: token === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET, needsComma: false });
      return undefined;
    }
    return scalar();
  };
  /** After a member's value was read (or found missing) inside `container`. */
  const valueRead = (container: Container, found: boolean): void => {
    if (!found) {
      errorAndSkip([], [container.close, COMMA]);
    }
    container.needsComma = true;
  };

  scanNext();
  if (scanner.getToken() === EOF) {
    return errors;
  }
  const top = startValue();
  if (top === false) {
    error();
    return errors;
  }
  while (stack.length > 0) {
    const container = stack[stack.length - 1];
    const token = scanner.getToken();
    if (token === container.close || token === EOF) {
      stack.pop();
      if (token !== container.close) {
        errorAndSkip([container.close], []);
      } else {
        scanNext();
      }
      const parent = stack[stack.length - 1];
      if (parent) {
        parent.needsComma = true;
      }
      continue;
    }
    if (token === COMMA) {
      if (!container.needsComma) {
        error();
      }
      const next = scanNext();
      if (next === container.close && comments) {
        // A trailing comma, allowed in JSON with comments: the container closes next.
        stack.pop();
        scanNext();
        const parent = stack[stack.length - 1];
        if (parent) {
          parent.needsComma = true;
        }
        continue;
      }
    } else if (container.needsComma) {
      error();
    }
    if (container.close === CLOSE_BRACKET) {
      const found = startValue();
      if (found !== undefined) {
        valueRead(container, found);
      }
      continue;
    }
    // A property: its name, a colon, its value.
    if (scanner.getToken() !== STRING_LITERAL) {
      errorAndSkip([], [CLOSE_BRACE, COMMA]);
      // The property is missing: jsonc-parser reports the value as missing too.
      valueRead(container, false);
      continue;
    }
    scanNext();
    if (scanner.getToken() !== COLON) {
      errorAndSkip([], [CLOSE_BRACE, COMMA]);
      container.needsComma = true;
      continue;
    }
    scanNext();
    const found = startValue();
    if (found !== undefined) {
      valueRead(container, found);
    }
  }
  if (scanner.getToken() !== EOF) {
    error();
  }
  return errors;
}
