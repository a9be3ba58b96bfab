/**
 * Where a file's edits landed, in the offsets of the text as it was read: each stretch of the
 * original that the new text replaces, with the replacement and the edits that wrote it. The
 * matcher places each edit in the text the edits before it left; this folds those places back
 * onto the original, so the editor can apply the changes as they are and show them per edit, and
 * the syntax gate can follow a position of the original into the new text.
 */
import type { AppliedEdit } from './match';
import type { TextView } from '../text/editedText';

export interface ReplacedSpan {
  /** The replaced stretch of the original text, [start, end). */
  readonly start: number;
  readonly end: number;
  /** Where the replacement starts in the new text. */
  readonly newStart: number;
  readonly text: string;
  /** 0-based indexes of the edits that wrote into this stretch, in order; edits that overlap or touch share one span. */
  readonly edits: readonly number[];
}

/**
 * A replaced stretch of the original while the edits are folded in: where it lies in the text
 * the edits so far left is not kept, but found from the growth of the regions before it, so
 * a region an edit does not touch is left as it is.
 */
interface Region {
  readonly start: number;
  readonly end: number;
  /** The length of its replacement in the text as the edits so far left it. */
  readonly length: number;
  readonly edits: readonly number[];
}

const growth = (region: Region): number => region.length - (region.end - region.start);

/** The spans the applied edits leave, in text order, each with its text taken from `newText`. */
export function replacedSpans(applied: readonly AppliedEdit[], newText: TextView): ReplacedSpan[] {
  if (applied.length === 1) {
    return oneEditSpans(applied[0], newText);
  }
  const list = new RegionList();
  for (const edit of applied) {
    applyEdit(list, edit);
  }
  let shift = 0;
  return list.regions.map((region) => {
    const newStart = region.start + shift;
    shift += growth(region);
    return { start: region.start, end: region.end, newStart, text: newText.slice(newStart, newStart + region.length), edits: region.edits };
  });
}

/**
 * The spans of a request of one edit (the common case, and a replace_all's hundreds of
 * thousands of matches): its matches, touching ones joined, all sharing one replacement
 * string and one list of edits rather than a slice and a list each.
 */
function oneEditSpans(edit: AppliedEdit, newText: TextView): ReplacedSpan[] {
  const spans: ReplacedSpan[] = [];
  const edits = [edit.editIndex];
  const change = edit.newLength - edit.oldLength;
  let replacement: string | undefined;
  let shift = 0;
  for (const start of edit.starts()) {
    const newStart = start + shift;
    shift += change;
    const previous = spans.at(-1);
    if (previous && previous.end === start) {
      spans[spans.length - 1] = { ...previous, end: start + edit.oldLength, text: previous.text + newText.slice(newStart, newStart + edit.newLength) };
      continue;
    }
    replacement ??= newText.slice(newStart, newStart + edit.newLength);
    spans.push({ start, end: start + edit.oldLength, newStart, text: replacement, edits });
  }
  return spans;
}

/**
 * Two ascending lists of edit indexes as one, without repeats. Each list is owned by the
 * region being folded in, which is dropped, so one is extended in place: when one list
 * comes wholly before the other (edits in text order, or in reverse), that costs the
 * shorter list, and a run of touching hunks stays linear in the patch.
 */
function mergeEdits(a: readonly number[], b: readonly number[]): number[] {
  const first = a as number[];
  const second = b as number[];
  if (second.length === 0) {
    return first;
  }
  if (first.length === 0 || first[first.length - 1] < second[0]) {
    return appendAll(first, second);
  }
  if (second[second.length - 1] < first[0]) {
    return appendAll(second, first);
  }
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length || j < second.length) {
    const next = j >= second.length || (i < first.length && first[i] <= second[j]) ? first[i++] : second[j++];
    if (merged[merged.length - 1] !== next) {
      merged.push(next);
    }
  }
  return merged;
}

function appendAll(to: number[], more: readonly number[]): number[] {
  for (const item of more) {
    to.push(item);
  }
  return to;
}

/** A region this edit is still growing: its original stretch, and where it lies in the text before the edit. */
interface Pending {
  start: number;
  end: number;
  beforeStart: number;
  beforeEnd: number;
  /** What this edit's matches inside it added to its length. */
  added: number;
  edits: readonly number[];
}

/**
 * The regions so far, in text order, with the growth of the regions before each. An edit
 * finds the first region it can touch by binary search and rewrites only the regions from
 * there to its last match: edits in text order (every patch) append, and a request of
 * thousands of edits stays near-linear instead of walking every region per edit.
 */
class RegionList {
  readonly regions: Region[] = [];
  /** The growth of the regions before regions[i]: an original offset after them plus this is its place in the text so far. */
  private readonly shiftBefore: number[] = [];

  shiftAt(index: number): number {
    return index < this.regions.length ? this.shiftBefore[index] : this.totalShift();
  }

  /** The first region that ends at or after `offset` of the text so far (regions.length if none). */
  firstEndingFrom(offset: number): number {
    let low = 0;
    let high = this.regions.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const region = this.regions[middle];
      if (region.end + this.shiftBefore[middle] + growth(region) < offset) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }

  /** Puts `replacement` in place of regions [from, to); the regions after it move by the change in growth. */
  replace(from: number, to: number, replacement: readonly Region[]): void {
    const oldShiftAfter = this.shiftAt(to);
    let shift = this.shiftAt(from);
    const shifts = replacement.map((region) => {
      const before = shift;
      shift += growth(region);
      return before;
    });
    spliceInto(this.regions, from, to, replacement);
    spliceInto(this.shiftBefore, from, to, shifts);
    const delta = shift - oldShiftAfter;
    if (delta !== 0) {
      for (let index = from + replacement.length; index < this.shiftBefore.length; index++) {
        this.shiftBefore[index] += delta;
      }
    }
  }

  private totalShift(): number {
    const last = this.regions.length - 1;
    return last < 0 ? 0 : this.shiftBefore[last] + growth(this.regions[last]);
  }
}

/** Array.splice without spreading a replacement that may hold more items than a call takes arguments. */
function spliceInto<T>(items: T[], from: number, to: number, replacement: readonly T[]): void {
  if (replacement.length <= 1024) {
    items.splice(from, to - from, ...replacement);
    return;
  }
  const tail = items.splice(from);
  for (const item of replacement) {
    items.push(item);
  }
  for (let index = to - from; index < tail.length; index++) {
    items.push(tail[index]);
  }
}

/** One pass over the regions the edit's (ascending, non-overlapping) matches can touch, in the offsets of the text before the edit. */
function applyEdit(list: RegionList, edit: AppliedEdit): void {
  const starts = edit.starts();
  if (starts.length === 0) {
    return;
  }
  const regions = list.regions;
  const from = list.firstEndingFrom(starts[0]);
  const out: Region[] = [];
  const change = edit.newLength - edit.oldLength;
  let next = from;
  /** Growth of the regions passed so far: maps an offset before the edit, outside every region, to the original. */
  let shift = list.shiftAt(from);
  let pending: Pending | undefined;
  const beforeStartOf = (region: Region): number => region.start + shift;
  const beforeEndOf = (region: Region): number => region.end + shift + growth(region);
  const flushPending = (): void => {
    if (pending) {
      out.push({ start: pending.start, end: pending.end, length: pending.beforeEnd - pending.beforeStart + pending.added, edits: pending.edits });
      pending = undefined;
    }
  };
  /** Takes in every region that overlaps or touches [.., matchEnd]; sets the pending end past matchEnd. */
  const absorbUpTo = (target: Pending, matchEnd: number): void => {
    while (next < regions.length && beforeStartOf(regions[next]) <= matchEnd) {
      const touched = regions[next++];
      const touchedEnd = beforeEndOf(touched);
      shift += growth(touched);
      target.edits = mergeEdits(target.edits, touched.edits);
      if (touchedEnd >= target.beforeEnd) {
        target.end = touched.end;
        target.beforeEnd = touchedEnd;
      }
    }
    if (matchEnd > target.beforeEnd) {
      target.end = matchEnd - shift;
      target.beforeEnd = matchEnd;
    }
  };
  for (const matchStart of starts) {
    const matchEnd = matchStart + edit.oldLength;
    if (pending && matchStart <= pending.beforeEnd) {
      pending.added += change;
      pending.edits = mergeEdits(pending.edits, [edit.editIndex]);
      absorbUpTo(pending, matchEnd);
      continue;
    }
    flushPending();
    while (next < regions.length && beforeEndOf(regions[next]) < matchStart) {
      const passed = regions[next++];
      shift += growth(passed);
      out.push(passed);
    }
    const first = next < regions.length && beforeStartOf(regions[next]) <= matchStart ? regions[next] : undefined;
    let opened: Pending;
    if (first) {
      opened = { start: first.start, end: first.end, beforeStart: beforeStartOf(first), beforeEnd: beforeEndOf(first), added: change, edits: mergeEdits(first.edits, [edit.editIndex]) };
      next++;
      shift += growth(first);
    } else {
      opened = { start: matchStart - shift, end: matchStart - shift, beforeStart: matchStart, beforeEnd: matchStart, added: change, edits: [edit.editIndex] };
    }
    absorbUpTo(opened, matchEnd);
    pending = opened;
  }
  flushPending();
  list.replace(from, next, out);
}

/** Where a span's replacement ends in the new text. */
export function newEndOf(span: ReplacedSpan): number {
  return span.newStart + span.text.length;
}

/** Where a stretch of the original text lies in the new text: a stretch an edit touched widens to that edit's replacement. */
export function followIntoNewText(spans: readonly ReplacedSpan[], start: number, end: number): { start: number; end: number } {
  return { start: followOffset(spans, start, 'start'), end: followOffset(spans, end, 'end') };
}

function followOffset(spans: readonly ReplacedSpan[], offset: number, side: 'start' | 'end'): number {
  let shift = 0;
  for (const span of spans) {
    if (offset < span.start || (offset === span.start && side === 'start' && span.end > span.start)) {
      break;
    }
    if (offset < span.end || (offset === span.end && side === 'end')) {
      return side === 'start' ? span.newStart : newEndOf(span);
    }
    shift += span.text.length - (span.end - span.start);
  }
  return offset + shift;
}
