/**
 * When an old_string is missing from the text as the earlier edits left it but was
 * in the file as read, an earlier edit of the same request changed it. Following the
 * first original occurrence through the applied edits names that edit.
 */
import type { AppliedEdit } from '../matching/match';
import type { Offsets } from '../matching/multiSearch';

/** The earlier applied edit that changed the first original occurrence of `needle`; undefined when it was never there. */
export function earlierEditThatChanged(
  original: string,
  needle: string,
  applied: readonly AppliedEdit[],
  beforeEdit: number,
): number | undefined {
  let start = original.indexOf(needle);
  if (start === -1) {
    return undefined;
  }
  let end = start + needle.length;
  for (const edit of applied) {
    if (edit.editIndex >= beforeEdit) {
      break;
    }
    const before = countEndingBy(edit.starts, edit.oldLength, start);
    if (before < edit.starts.length && edit.starts[before] < end) {
      return edit.editIndex;
    }
    const shift = before * (edit.newLength - edit.oldLength);
    start += shift;
    end += shift;
  }
  return undefined;
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
