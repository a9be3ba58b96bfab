/**
 * Where a file's edits landed, in the offsets of the text as it was read: each stretch of the
 * original that the new text replaces, with the replacement and the edits that wrote it. The
 * matcher places each edit in the text the edits before it left; this folds those places back
 * onto the original, so the editor can apply the changes as they are and show them per edit, and
 * the syntax gate can follow a position of the original into the new text.
 */
import type { AppliedEdit } from './match';

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

interface Region {
  readonly start: number;
  readonly end: number;
  /** [currentStart, currentEnd): the replacement in the text as the edits so far left it. */
  readonly currentStart: number;
  readonly currentEnd: number;
  readonly edits: readonly number[];
}

const growth = (region: Region): number => (region.currentEnd - region.currentStart) - (region.end - region.start);

/** The spans the applied edits leave, in text order, each with its text taken from `newText`. */
export function replacedSpans(applied: readonly AppliedEdit[], newText: string): ReplacedSpan[] {
  if (applied.length === 1) {
    return oneEditSpans(applied[0], newText);
  }
  let regions: Region[] = [];
  for (const edit of applied) {
    regions = applyEdit(regions, edit);
  }
  return regions.map((region) => ({
    start: region.start,
    end: region.end,
    newStart: region.currentStart,
    text: newText.slice(region.currentStart, region.currentEnd),
    edits: region.edits,
  }));
}

/**
 * The spans of a request of one edit (the common case, and a replace_all's hundreds of
 * thousands of matches): its matches, touching ones joined, all sharing one replacement
 * string and one list of edits rather than a slice and a list each.
 */
function oneEditSpans(edit: AppliedEdit, newText: string): ReplacedSpan[] {
  const spans: ReplacedSpan[] = [];
  const edits = [edit.editIndex];
  const growth = edit.newLength - edit.oldLength;
  let replacement: string | undefined;
  let shift = 0;
  for (const start of edit.starts()) {
    const newStart = start + shift;
    shift += growth;
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

function mergeEdits(a: readonly number[], b: readonly number[]): readonly number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

/** A region this edit is still growing, in the offsets of the text before the edit. */
interface Pending {
  start: number;
  end: number;
  beforeStart: number;
  beforeEnd: number;
  /** What this edit's matches inside it added to its length. */
  growth: number;
  edits: readonly number[];
}

/** One pass over the regions and the edit's (ascending, non-overlapping) matches. */
function applyEdit(regions: readonly Region[], edit: AppliedEdit): Region[] {
  const out: Region[] = [];
  const change = edit.newLength - edit.oldLength;
  let next = 0;
  /** Growth of the regions passed so far: maps an offset before the edit, outside every region, to the original. */
  let shift = 0;
  /** Growth of this edit's flushed replacements: maps an offset before the edit to one after it. */
  let delta = 0;
  let pending: Pending | undefined;
  const flushPending = (): void => {
    if (pending) {
      out.push({ start: pending.start, end: pending.end, currentStart: pending.beforeStart + delta, currentEnd: pending.beforeEnd + delta + pending.growth, edits: pending.edits });
      delta += pending.growth;
      pending = undefined;
    }
  };
  /** Takes in every region that overlaps or touches [.., matchEnd]; sets the pending end past matchEnd. */
  const absorbUpTo = (target: Pending, matchEnd: number): void => {
    while (next < regions.length && regions[next].currentStart <= matchEnd) {
      const touched = regions[next++];
      shift += growth(touched);
      target.edits = mergeEdits(target.edits, touched.edits);
      if (touched.currentEnd >= target.beforeEnd) {
        target.end = touched.end;
        target.beforeEnd = touched.currentEnd;
      }
    }
    if (matchEnd > target.beforeEnd) {
      target.end = matchEnd - shift;
      target.beforeEnd = matchEnd;
    }
  };
  for (const matchStart of edit.starts()) {
    const matchEnd = matchStart + edit.oldLength;
    if (pending && matchStart <= pending.beforeEnd) {
      pending.growth += change;
      pending.edits = mergeEdits(pending.edits, [edit.editIndex]);
      absorbUpTo(pending, matchEnd);
      continue;
    }
    flushPending();
    while (next < regions.length && regions[next].currentEnd < matchStart) {
      const passed = regions[next++];
      shift += growth(passed);
      out.push({ ...passed, currentStart: passed.currentStart + delta, currentEnd: passed.currentEnd + delta });
    }
    const first = next < regions.length && regions[next].currentStart <= matchStart ? regions[next] : undefined;
    const opened: Pending = first
      ? { start: first.start, end: first.end, beforeStart: first.currentStart, beforeEnd: first.currentEnd, growth: change, edits: mergeEdits(first.edits, [edit.editIndex]) }
      : { start: matchStart - shift, end: matchStart - shift, beforeStart: matchStart, beforeEnd: matchStart, growth: change, edits: [edit.editIndex] };
    if (first) {
      next++;
      shift += growth(first);
    }
    absorbUpTo(opened, matchEnd);
    pending = opened;
  }
  flushPending();
  while (next < regions.length) {
    const rest = regions[next++];
    out.push({ ...rest, currentStart: rest.currentStart + delta, currentEnd: rest.currentEnd + delta });
  }
  return out;
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
