/**
 * The syntax gate's quickest road: a change that only renames words cannot bring in a
 * syntax error, so it is accepted without loading a parser. For JavaScript, TypeScript and
 * TSX, and for Python, each with its own rules below.
 *
 * Each replaced stretch is cut to where its old and new text differ. Both sides of that cut
 * must be word characters, so the cut lies inside a word of the original and a word of the
 * new text; the characters around those two words are the same and are not word
 * characters, so the texts hold the same tokens but for the spelling of these words. Each
 * word, old and new, must then read as a plain name wherever it stands, which holds when:
 * - it is not a word the grammars give a meaning (grammarWords.ts): the lexer reads any
 *   other word as a name, and in a string, comment or template as text;
 * - it does not start with a digit (a number), nor with what a grammar's look-ahead reads;
 * - it does not stand where its neighbours make it part of another token: after an escape's
 *   `\`, after a `.` that follows a digit (`1.e5`), beside a character outside ASCII, and the
 *   places each language adds below.
 * Anything else, including an emptied word, falls back to the parse. Where the original
 * already holds errors, a rename can move where tree-sitter's recovery resumes (it weighs
 * skipped characters), but brings in no error of its own.
 */
import type { TextChange, TextView } from '../../core/index';
import { Char } from './scriptChars';
import { PYTHON_GRAMMAR_WORDS, PYTHON_RENAMED_LITERALS, SCRIPT_GRAMMAR_WORDS } from './grammarWords';

export interface WordRules {
  readonly isWordChar: (code: number) => boolean;
  /** Every word that is not a plain name, whatever stands around it. */
  readonly reserved: ReadonlySet<string>;
  /** A word whose first letters a grammar's look-ahead reads. */
  readonly readAhead: (first: number, second: number) => boolean;
  /** Whether the characters before and after the word [start, end) leave it a name. */
  readonly neighboursAllow: (source: TextView, start: number, end: number) => boolean;
}

const isDigit = (code: number): boolean => code >= Char.Digit0 && code <= Char.Digit9;
const isLetter = (code: number): boolean => (code >= Char.LowerA && code <= Char.LowerZ) || (code >= Char.UpperA && code <= Char.UpperZ);

/** Neighbours no language here lets a name have: an escape, a number's `.`, a character outside ASCII. */
function commonNeighboursAllow(source: TextView, start: number, end: number): boolean {
  const before = start > 0 ? source.charCodeAt(start - 1) : -1;
  const after = end < source.length ? source.charCodeAt(end) : -1;
  if (before === Char.Backslash || before >= Char.FirstNonAscii || after === Char.Backslash || after >= Char.FirstNonAscii) {
    return false;
  }
  return !(before === Char.Dot && start > 1 && isDigit(source.charCodeAt(start - 2)));
}

/**
 * JavaScript, TypeScript, TSX: `$` is a word character. The line-break rules look ahead for
 * `in`, `instanceof` and `is` by their first letters. A word may not follow `/` (a pattern's
 * flags, or its first word), `&` or `&#` (a character reference in JSX), nor end in `$`
 * before `{` (a template's `${`).
 */
export const SCRIPT_WORD_RULES: WordRules = {
  isWordChar: (code) => isLetter(code) || isDigit(code) || code === Char.Underscore || code === Char.Dollar,
  reserved: SCRIPT_GRAMMAR_WORDS,
  readAhead: (first, second) => first === Char.LowerI && (second === Char.LowerN || second === Char.LowerS),
  neighboursAllow(source, start, end) {
    if (!commonNeighboursAllow(source, start, end)) {
      return false;
    }
    const before = start > 0 ? source.charCodeAt(start - 1) : -1;
    if (before === Char.Slash || before === Char.Ampersand || (before === Char.Hash && start > 1 && source.charCodeAt(start - 2) === Char.Ampersand)) {
      return false;
    }
    return !(source.charCodeAt(end) === Char.OpenBrace && source.charCodeAt(end - 1) === Char.Dollar);
  },
};

/**
 * Python: no `$` in a word. A word before a quote or a backtick is a string's prefix (`f`,
 * `rb`), and one after `!` may be an f-string's conversion (`!r`).
 */
export const PYTHON_WORD_RULES: WordRules = {
  isWordChar: (code) => isLetter(code) || isDigit(code) || code === Char.Underscore,
  reserved: new Set([...PYTHON_GRAMMAR_WORDS, ...PYTHON_RENAMED_LITERALS]),
  readAhead: () => false,
  neighboursAllow(source, start, end) {
    if (!commonNeighboursAllow(source, start, end)) {
      return false;
    }
    const after = source.charCodeAt(end);
    return source.charCodeAt(start - 1) !== Char.Bang && after !== Char.Quote && after !== Char.DoubleQuote && after !== Char.Backtick;
  },
};

/** Whether every change in `change` (which made `text`) only respells words that read as plain names before and after. */
export function onlyRenamesWords(change: TextChange, text: TextView, rules: WordRules): boolean {
  const { from } = change;
  // A replace_all respells the same word hundreds of thousands of times: each side remembers the last word it found plain.
  const oldSide: WordReader = { rules, lastPlain: '' };
  const newSide: WordReader = { rules, lastPlain: '' };
  for (const span of change.replaced) {
    const { newStart } = span;
    const oldLength = span.end - span.start;
    const newLength = span.text.length;
    let prefix = 0;
    while (prefix < oldLength && prefix < newLength && from.charCodeAt(span.start + prefix) === text.charCodeAt(newStart + prefix)) {
      prefix++;
    }
    let suffix = 0;
    while (suffix < oldLength - prefix && suffix < newLength - prefix && from.charCodeAt(span.end - 1 - suffix) === text.charCodeAt(newStart + newLength - 1 - suffix)) {
      suffix++;
    }
    if (prefix + suffix === oldLength && prefix + suffix === newLength) {
      continue;
    }
    if (!cutIsWordAndName(from, span.start + prefix, span.end - suffix, oldSide) || !cutIsWordAndName(text, newStart + prefix, newStart + newLength - suffix, newSide)) {
      return false;
    }
  }
  return true;
}

interface WordReader {
  readonly rules: WordRules;
  lastPlain: string;
}

/** Whether [start, end) of `source` holds only word characters and lies in a word that reads as a plain name. */
function cutIsWordAndName(source: TextView, start: number, end: number, reader: WordReader): boolean {
  const { isWordChar, neighboursAllow } = reader.rules;
  for (let offset = start; offset < end; offset++) {
    if (!isWordChar(source.charCodeAt(offset))) {
      return false;
    }
  }
  let wordStart = start;
  while (wordStart > 0 && isWordChar(source.charCodeAt(wordStart - 1))) {
    wordStart--;
  }
  let wordEnd = end;
  while (wordEnd < source.length && isWordChar(source.charCodeAt(wordEnd))) {
    wordEnd++;
  }
  return isPlainWord(source, wordStart, wordEnd, reader) && neighboursAllow(source, wordStart, wordEnd);
}

/** Whether the word [start, end) is neither a number, nor a reserved word, nor one a look-ahead reads. */
function isPlainWord(source: TextView, start: number, end: number, reader: WordReader): boolean {
  if (end === start) {
    return false;
  }
  if (end - start === reader.lastPlain.length && source.startsWith(reader.lastPlain, start)) {
    return true;
  }
  const first = source.charCodeAt(start);
  if (isDigit(first) || reader.rules.readAhead(first, end - start > 1 ? source.charCodeAt(start + 1) : -1)) {
    return false;
  }
  const word = source.slice(start, end);
  if (reader.rules.reserved.has(word)) {
    return false;
  }
  reader.lastPlain = word;
  return true;
}
