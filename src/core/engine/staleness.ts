/**
 * When an old_string is missing from the text as the earlier edits left it but was
 * in the file as read, earlier edits of the same request changed it. Following the
 * first original occurrence through the applied edits names those edits and finds
 * the text that stands there now, so the later edit can be written against it.
 */
import type { AppliedEdit } from '../matching/match';
import type { Offsets } from '../matching/multiSearch';

/** What the earlier edits made of the first original occurrence of an old_string. */
export interface StaleSpan {
  /** The earlier edits (0-based, in order) that changed part of that text. */
  readonly changedBy: readonly number[];
  /** Where that text, with the whole of each replacement touching it, stands in the text before the later edit. */
  readonly start: number;
  readonly end: number;
}

/** The earlier applied edits that changed the first original occurrence of `needle`; undefined when none did or it was never there. */
export function staleSpan(original: string, needle: string, applied: readonly AppliedEdit[], beforeEdit: number): StaleSpan | undefined {
  // With no earlier edit applied, the text the edit missed in is the original: no edit can have changed its old_string, and no scan is needed to say so.
  if (!applied.some((edit) => edit.editIndex < beforeEdit)) {
    return undefined;
  }
  let start = original.indexOf(needle);
  if (start === -1) {
    return undefined;
  }
  let end = start + needle.length;
  const changedBy: number[] = [];
  for (const edit of applied) {
    if (edit.editIndex >= beforeEdit) {
      break;
    }
    const delta = edit.newLength - edit.oldLength;
    const starts = edit.starts();
    const before = countEndingBy(starts, edit.oldLength, start);
    let after = before;
    while (after < starts.length && starts[after] < end) {
      after++;
    }
    if (after > before) {
      changedBy.push(edit.editIndex);
      const first = starts[before];
      const last = starts[after - 1];
      // The span grows to take in every replacement it touches, as that replacement now stands.
      const newStart = first < start ? first + before * delta : start + before * delta;
      const newEnd = last + edit.oldLength >= end ? last + (after - 1) * delta + edit.newLength : end + after * delta;
      start = newStart;
      end = newEnd;
    } else {
      start += before * delta;
      end += before * delta;
    }
  }
  return changedBy.length === 0 ? undefined : { changedBy, start, end };
}

/** How many of the ascending ranges [s, s + length) end at or before `offset`. */
function countEndingBy(starts: Offsets, length: number, offset: number): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (starts[middle] + length <= offset) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}
