/**
 * A file's text after its edits. A large file's is kept as the text read plus the
 * pieces its edits replaced, and is joined into one string only when something needs
 * it whole: the stores write it and the history hashes it part by part, and the syntax
 * gate reads only around the edits. Joining 10 MB costs as much as reading it.
 */
import { isHighSurrogate, isLowSurrogate } from './surrogates';

/** Read access to a text; a string is one. Offsets are never negative. */
export interface TextView {
  readonly length: number;
  charCodeAt(offset: number): number;
  slice(from: number, to: number): string;
  startsWith(search: string, at: number): boolean;
}

export interface EditedText extends TextView {
  /** The text in order, in parts: one for a text held whole. */
  parts(): Iterable<string>;
  /** The text as one string, joined on the first call and kept. */
  whole(): string;
}

/** A text held as one string. */
export function wholeText(value: string): EditedText {
  return {
    length: value.length,
    charCodeAt: (offset) => value.charCodeAt(offset),
    slice: (from, to) => value.slice(from, to),
    startsWith: (search, at) => value.startsWith(search, at),
    parts: () => [value],
    whole: () => value,
  };
}

/** Whether an edited text is `other`, compared part by part: nothing is joined. */
export function sameText(edited: EditedText, other: string): boolean {
  if (edited.length !== other.length) {
    return false;
  }
  let at = 0;
  for (const part of edited.parts()) {
    if (!other.startsWith(part, at)) {
      return false;
    }
    at += part.length;
  }
  return true;
}

/**
 * The text in slices of at most `maxChars` units (two for a pair cut off at a part's end) that
 * never part a surrogate pair, within a part or across two: each encodes to the bytes the
 * whole text holds there, so slices can be encoded one by one into a buffer used again.
 */
export function* encodableSlices(text: Pick<EditedText, 'parts'>, maxChars: number): Generator<string> {
  let held = '';
  for (const part of text.parts()) {
    let start = 0;
    if (held !== '' && part.length > 0) {
      yield isLowSurrogate(part.charCodeAt(0)) ? held + part[start++] : held;
      held = '';
    }
    let end = part.length;
    if (end > start && isHighSurrogate(part.charCodeAt(end - 1))) {
      held = part[--end];
    }
    while (start < end) {
      let to = Math.min(end, start + maxChars);
      if (to < end && isHighSurrogate(part.charCodeAt(to - 1)) && isLowSurrogate(part.charCodeAt(to))) {
        to += to - start > 1 ? -1 : 1;
      }
      yield part.slice(start, to);
      start = to;
    }
  }
  if (held !== '') {
    yield held;
  }
}
