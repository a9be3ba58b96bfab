/**
 * The syntax gate's quickest road, for JavaScript and TypeScript: a change that only
 * renames words cannot bring in a syntax error, so it is accepted without loading a parser.
 *
 * Each replaced stretch is cut to where its old and new text differ. Both sides of that cut
 * must be word characters (ASCII letters, digits, `_`, `$`), so the cut lies inside a word
 * of the original and a word of the new text; the characters around those two words are
 * the same and are not word characters, so the texts hold the same tokens but for the
 * spelling of these words. Each word, old and new, must then read as a plain name wherever
 * it stands, which holds when:
 * - it is not a word the grammars give a meaning (SCRIPT_GRAMMAR_WORDS): the lexer reads
 *   any other word as an identifier, in a string, comment, template or JSX text as text;
 * - it does not start with a digit (a number), nor with `in` or `is` (the grammars'
 *   line-break rules look ahead for `in`, `instanceof` and `is` by their first letters);
 * - it does not follow `\` (an escape), `/` (a pattern's flags, or its first word), `&`
 *   or `&#` (a character reference in JSX), a `.` after a digit (`1.e5`), nor stand
 *   beside a character outside ASCII or a following `\`; and it does not end in `$`
 *   before `{` (a template's `${`).
 * Anything else, including an emptied word, falls back to the parse. Where the original
 * already holds errors, a rename can move where tree-sitter's recovery resumes (it weighs
 * skipped characters), but brings in no error of its own.
 */
import type { TextChange } from '../../core/index';
import { Char } from './scriptChars';
import { SCRIPT_GRAMMAR_WORDS } from './scriptGrammarWords';

const LONGEST_GRAMMAR_WORD = Math.max(...[...SCRIPT_GRAMMAR_WORDS].map((word) => word.length));

const isDigit = (code: number): boolean => code >= Char.Digit0 && code <= Char.Digit9;

function isWordChar(code: number): boolean {
  return (code >= Char.LowerA && code <= Char.LowerZ) || (code >= Char.UpperA && code <= Char.UpperZ) || isDigit(code) || code === Char.Underscore || code === Char.Dollar;
}

/** Whether every change in `change` (which made `text`) only respells words that read as plain names before and after. */
export function onlyRenamesWords(change: TextChange, text: string): boolean {
  const { from } = change;
  // A replace_all respells the same word hundreds of thousands of times: each side remembers the last word it found plain.
  const oldSide: LastPlainWord = { word: '' };
  const newSide: LastPlainWord = { word: '' };
  let shift = 0;
  for (const span of change.replaced) {
    const newStart = span.start + shift;
    shift += span.text.length - (span.end - span.start);
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

interface LastPlainWord {
  word: string;
}

/** Whether [start, end) of `source` holds only word characters and lies in a word that reads as a plain name. */
function cutIsWordAndName(source: string, start: number, end: number, last: LastPlainWord): boolean {
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
  return isPlainWord(source, wordStart, wordEnd, last) && standsAsName(source, wordStart, wordEnd);
}

/** Whether the word [start, end) is neither a number, nor a word the grammars know, nor one their look-ahead reads. */
function isPlainWord(source: string, start: number, end: number, last: LastPlainWord): boolean {
  if (end === start) {
    return false;
  }
  if (end - start === last.word.length && source.startsWith(last.word, start)) {
    return true;
  }
  const first = source.charCodeAt(start);
  const second = end - start > 1 ? source.charCodeAt(start + 1) : -1;
  if (isDigit(first) || (first === Char.LowerI && (second === Char.LowerN || second === Char.LowerS))) {
    return false;
  }
  const word = source.slice(start, end);
  if (end - start <= LONGEST_GRAMMAR_WORD && SCRIPT_GRAMMAR_WORDS.has(word)) {
    return false;
  }
  last.word = word;
  return true;
}

/** Whether what stands around the word [start, end) leaves it a name (not an escape, a pattern's flags, a number's part, a `${`). */
function standsAsName(source: string, start: number, end: number): boolean {
  const before = start > 0 ? source.charCodeAt(start - 1) : -1;
  const beforeThat = start > 1 ? source.charCodeAt(start - 2) : -1;
  if (before === Char.Backslash || before === Char.Slash || before === Char.Ampersand || before >= Char.FirstNonAscii) {
    return false;
  }
  if ((before === Char.Dot && isDigit(beforeThat)) || (before === Char.Hash && beforeThat === Char.Ampersand)) {
    return false;
  }
  const after = end < source.length ? source.charCodeAt(end) : -1;
  if (after === Char.Backslash || after >= Char.FirstNonAscii) {
    return false;
  }
  return !(after === Char.OpenBrace && source.charCodeAt(end - 1) === Char.Dollar);
}
