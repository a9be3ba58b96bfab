/**
 * Where a file's edits landed: each stretch of the new text that replaced a stretch of
 * the original, so a position in the original can be followed into the new text.
 */
import type { AppliedEdit } from '../matching/match';

export interface ChangedRegion {
  /** The replacement in the new text. */
  readonly newStart: number;
  readonly newEnd: number;
  /** What it replaced in the original text. */
  readonly oldStart: number;
  readonly oldEnd: number;
  /** The last edit that wrote into this stretch. */
  readonly editIndex: number;
}

/**
 * The regions the applied edits (each placed in the text the edits before it left)
 * leave in the final text, in text order. Edits that overlap or touch merge into one region.
 */
export function changedRegions(applied: readonly AppliedEdit[]): ChangedRegion[] {
  let regions: ChangedRegion[] = [];
  for (const edit of applied) {
    let offsetWithinEdit = 0;
    for (const start of edit.starts) {
      regions = replaceIn(regions, start + offsetWithinEdit, edit.oldLength, edit.newLength, edit.editIndex);
      offsetWithinEdit += edit.newLength - edit.oldLength;
    }
  }
  return regions;
}

const growth = (region: ChangedRegion): number => (region.newEnd - region.newStart) - (region.oldEnd - region.oldStart);

/** The regions after `length` characters at `start` (current coordinates) became `newLength` characters. */
function replaceIn(regions: readonly ChangedRegion[], start: number, length: number, newLength: number, editIndex: number): ChangedRegion[] {
  const end = start + length;
  let first = 0;
  let shift = 0;
  while (first < regions.length && regions[first].newEnd < start) {
    shift += growth(regions[first]);
    first++;
  }
  let last = first;
  let shiftThrough = shift;
  while (last < regions.length && regions[last].newStart <= end) {
    shiftThrough += growth(regions[last]);
    last++;
  }
  const touched = regions.slice(first, last);
  const firstTouched = touched[0] as ChangedRegion | undefined;
  const lastTouched = touched[touched.length - 1] as ChangedRegion | undefined;
  const startsInside = firstTouched !== undefined && firstTouched.newStart <= start;
  const endsInside = lastTouched !== undefined && lastTouched.newEnd >= end;
  const delta = newLength - length;
  const merged: ChangedRegion = {
    newStart: startsInside ? firstTouched.newStart : start,
    newEnd: (endsInside ? lastTouched.newEnd : end) + delta,
    oldStart: startsInside ? firstTouched.oldStart : start - shift,
    oldEnd: endsInside ? lastTouched.oldEnd : end - shiftThrough,
    editIndex,
  };
  const after = regions.slice(last).map((region) => ({ ...region, newStart: region.newStart + delta, newEnd: region.newEnd + delta }));
  return [...regions.slice(0, first), merged, ...after];
}

/** Where a stretch of the original text lies in the new text: a stretch an edit touched widens to that edit's replacement. */
export function followIntoNewText(regions: readonly ChangedRegion[], oldStart: number, oldEnd: number): { start: number; end: number } {
  return { start: followOffset(regions, oldStart, 'start'), end: followOffset(regions, oldEnd, 'end') };
}

function followOffset(regions: readonly ChangedRegion[], offset: number, side: 'start' | 'end'): number {
  let shift = 0;
  for (const region of regions) {
    if (offset < region.oldStart || (offset === region.oldStart && side === 'start' && region.oldEnd > region.oldStart)) {
      break;
    }
    if (offset < region.oldEnd || (offset === region.oldEnd && side === 'end')) {
      return side === 'start' ? region.newStart : region.newEnd;
    }
    shift += growth(region);
  }
  return offset + shift;
}
