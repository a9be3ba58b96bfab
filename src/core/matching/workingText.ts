/**
 * The text that a file's edits are checked against, as the earlier edits left it.
 * Two implementations give the same answers: PlainText is a string, simplest and
 * fastest for small work; PieceText (pieceText.ts) never copies a large text per edit.
 */
import { occurrencesOf, type Offsets } from './multiSearch';
import { TextBuilder } from './textBuilder';
import { type EditedText, wholeText } from '../text/editedText';

export interface WorkingText {
  /** The current text's length. */
  readonly length: number;
  /** Start offsets of every occurrence of `pattern` in the current text, overlapping ones included, ascending. */
  occurrences(pattern: string): Offsets;
  /** Replaces `length` characters at each of `starts` (ascending, not overlapping) with `replacement`. */
  replace(starts: Offsets, length: number, replacement: string): void;
  /** The current text. */
  text(): string;
  /** The text once every edit has applied, as the plan hands it on (a large one unjoined). */
  edited(): EditedText;
  /** The current text between two offsets. */
  slice(from: number, to: number): string;
}

/** The current text as one string; each edit builds the next string. */
export class PlainText implements WorkingText {
  constructor(private value: string) {}

  get length(): number {
    return this.value.length;
  }

  occurrences(pattern: string): Offsets {
    return occurrencesOf(this.value, pattern);
  }

  replace(starts: Offsets, length: number, replacement: string): void {
    this.value = spliceAll(this.value, starts, length, replacement);
  }

  /** Replaces every occurrence of `pattern`, leftmost first and none overlapping (as split and join would), as they are found; gives their number. */
  replaceEvery(pattern: string, replacement: string): number {
    const result = new TextBuilder();
    let count = 0;
    let from = 0;
    for (let at = this.value.indexOf(pattern); at !== -1; at = this.value.indexOf(pattern, from)) {
      result.push(this.value.slice(from, at));
      result.push(replacement);
      from = at + pattern.length;
      count++;
    }
    result.push(this.value.slice(from));
    this.value = result.build();
    return count;
  }

  text(): string {
    return this.value;
  }

  edited(): EditedText {
    return wholeText(this.value);
  }

  slice(from: number, to: number): string {
    return this.value.slice(from, to);
  }
}

/** `value` with `length` characters at each of `starts` replaced; the replacement is literal. */
export function spliceAll(value: string, starts: Offsets, length: number, replacement: string): string {
  if (starts.length === 1) {
    // Joined rather than concatenated: `+` leaves a rope, and the first to measure or encode
    // it (the history, the store) walks it about 25 times slower than a flat string.
    return [value.slice(0, starts[0]), replacement, value.slice(starts[0] + length)].join('');
  }
  const result = new TextBuilder();
  let from = 0;
  for (const start of starts) {
    result.push(value.slice(from, start));
    result.push(replacement);
    from = start + length;
  }
  result.push(value.slice(from));
  return result.build();
}
