/**
 * Pairs the lines of a stretch of old_string with the lines of a stretch of the file
 * that no exact line matches: a small alignment by cost, so that a line added to the
 * file, a line the file lacks, two lines the file joined and a line it split are
 * each found as such, and a changed line is paired with the file line most like it
 * rather than the one at its position. The stretches come from the gaps of a longest
 * common subsequence of whole lines (blockAlign.ts), so they are short; a table over
 * MAX_CELLS falls back to pairing by position, and the cost stays bounded.
 */
import { keySimilarity, roleOf } from './closestMatch';
import type { NeedleLine } from './needle';
import { comparableKey } from './lookalikes';
import type { TextLine } from './textLines';

/** How one line of old_string (or several, or none) stands to the file's. */
export type LineOp =
  | { readonly kind: 'same' | 'changed'; readonly needle: number; readonly file: number }
  /** `count` lines of old_string that the file holds joined on one line. */
  | { readonly kind: 'joined'; readonly needle: number; readonly count: number; readonly file: number }
  /** One line of old_string that the file holds split over `count` lines. */
  | { readonly kind: 'split'; readonly needle: number; readonly file: number; readonly count: number }
  | { readonly kind: 'needle only'; readonly needle: number }
  | { readonly kind: 'file only'; readonly file: number };

/** Cells of the table at most; a larger gap is paired by position. */
const MAX_CELLS = 4096;
/** Lines joined or split that are looked for at most. */
const MAX_JOINED = 8;
/** How alike two lines must be to be paired as one line changed. */
const MIN_SIMILARITY = 0.5;
/** A file line old_string lacks costs little, so a changed line pairs with the file line most like it. */
const FILE_ONLY_COST = 0.1;
/** A line of old_string the file lacks is a stronger claim. */
const NEEDLE_ONLY_COST = 1;
const REWRAP_COST = 0.05;

export interface GapToAlign {
  readonly needleFrom: number;
  readonly needleCount: number;
  readonly fileFrom: number;
  readonly fileCount: number;
  /** An edge of the block: file lines beyond the last (or before the first) paired line are not part of it. */
  readonly open?: 'start' | 'end';
}

/** Characters of a line's key that a similarity reads; a longer line (minified code) is compared by its head, and equal only when whole. */
const MAX_COMPARED_KEY = 2048;

const compact = (key: string): string => key.replace(/ /g, '');

/**
 * The cheapest way the gap's lines of old_string stand for its file lines. Undefined when
 * the table would be too large.
 */
export function alignGap(needle: readonly NeedleLine[], file: readonly TextLine[], gap: GapToAlign): LineOp[] | undefined {
  const n = gap.needleCount;
  const m = gap.fileCount;
  if ((n + 1) * (m + 1) > MAX_CELLS) {
    return undefined;
  }
  // An open start is an open end of the reversed lines.
  const reversed = gap.open === 'start';
  const needleAt = (i: number): number => gap.needleFrom + (reversed ? n - 1 - i : i);
  const fileAt = (j: number): number => gap.fileFrom + (reversed ? m - 1 - j : j);
  const fileKeys = new Map<number, string>();
  const fileKey = (j: number): string => {
    const at = fileAt(j);
    let key = fileKeys.get(at);
    if (key === undefined) {
      key = comparableKey(file[at].text);
      fileKeys.set(at, key);
    }
    return key;
  };
  const needleKey = (i: number): string => needle[needleAt(i)].key;
  const compactKeys = new Map<string, string>();
  const compactOf = (key: string): string => {
    let value = compactKeys.get(key);
    if (value === undefined) {
      value = key.length > MAX_COMPARED_KEY ? '' : compact(key);
      compactKeys.set(key, value);
    }
    return value;
  };
  const pairCost = (i: number, j: number): number | undefined => {
    const [a, b] = [needleKey(i), fileKey(j)];
    const role = roleOf(needleAt(i), needle.length);
    const long = a.length > MAX_COMPARED_KEY || b.length > MAX_COMPARED_KEY;
    const similarity = long
      ? Math.min(keySimilarity(a.slice(0, MAX_COMPARED_KEY), b.slice(0, MAX_COMPARED_KEY), role), a === b ? 1 : 0.95)
      : keySimilarity(a, b, role);
    return similarity === 1 ? 0 : similarity >= MIN_SIMILARITY ? 1 - similarity : undefined;
  };
  /** Lines i.. of the needle joined, or j.. of the file, whose characters apart from whitespace equal one line of the other side. */
  const rewrapCount = (one: string, many: (k: number) => string | undefined): number | undefined => {
    const target = compactOf(one);
    if (target === '') {
      return undefined;
    }
    let joined = '';
    for (let k = 0; k < MAX_JOINED; k++) {
      const next = many(k);
      // A blank line is no part of a line re-wrapped: it stays a line of its own.
      if (next === undefined || compactOf(next) === '') {
        return undefined;
      }
      joined = reversed ? compactOf(next) + joined : joined + compactOf(next);
      if (k > 0 && joined === target) {
        return k + 1;
      }
      if (joined.length >= target.length) {
        return undefined;
      }
    }
    return undefined;
  };

  const width = m + 1;
  const cost = new Float64Array((n + 1) * width).fill(Infinity);
  const step = new Array<LineOp | undefined>((n + 1) * width);
  const from = new Int32Array((n + 1) * width).fill(-1);
  cost[0] = 0;
  const relax = (to: number, value: number, op: LineOp, origin: number): void => {
    if (value < cost[to]) {
      cost[to] = value;
      step[to] = op;
      from[to] = origin;
    }
  };
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= m; j++) {
      const here = i * width + j;
      const base = cost[here];
      if (base === Infinity) {
        continue;
      }
      if (i < n && j < m) {
        const pair = pairCost(i, j);
        if (pair !== undefined) {
          relax(here + width + 1, base + pair, { kind: pair === 0 ? 'same' : 'changed', needle: i, file: j }, here);
        }
        const joined = rewrapCount(fileKey(j), (k) => (i + k < n ? needleKey(i + k) : undefined));
        if (joined !== undefined) {
          relax(here + joined * width + 1, base + REWRAP_COST, { kind: 'joined', needle: i, count: joined, file: j }, here);
        }
        const split = rewrapCount(needleKey(i), (k) => (j + k < m ? fileKey(j + k) : undefined));
        if (split !== undefined) {
          relax(here + width + split, base + REWRAP_COST, { kind: 'split', needle: i, file: j, count: split }, here);
        }
      }
      if (i < n) {
        relax(here + width, base + NEEDLE_ONLY_COST, { kind: 'needle only', needle: i }, here);
      }
      if (j < m) {
        relax(here + 1, base + FILE_ONLY_COST, { kind: 'file only', file: j }, here);
      }
    }
  }
  let end = n * width + m;
  if (gap.open !== undefined) {
    // File lines after the last paired one are outside the block.
    for (let j = 0; j <= m; j++) {
      if (cost[n * width + j] < cost[end]) {
        end = n * width + j;
      }
    }
  }
  const ops: LineOp[] = [];
  for (let at = end; at > 0; at = from[at]) {
    const op = step[at];
    if (op === undefined) {
      return undefined;
    }
    ops.push(op);
  }
  ops.reverse();
  return reversed ? ops.reverse().map((op) => inOrder(op, needleAt, fileAt)) : ops.map((op) => inOrder(op, needleAt, fileAt));
}

/** An op of the table in the gap's own lines, first line first. */
function inOrder(op: LineOp, needleAt: (i: number) => number, fileAt: (j: number) => number): LineOp {
  switch (op.kind) {
    case 'same':
    case 'changed':
      return { ...op, needle: needleAt(op.needle), file: fileAt(op.file) };
    case 'joined':
      return { ...op, needle: Math.min(needleAt(op.needle), needleAt(op.needle + op.count - 1)), file: fileAt(op.file) };
    case 'split':
      return { ...op, needle: needleAt(op.needle), file: Math.min(fileAt(op.file), fileAt(op.file + op.count - 1)) };
    case 'needle only':
      return { ...op, needle: needleAt(op.needle) };
    case 'file only':
      return { ...op, file: fileAt(op.file) };
  }
}

/** A gap paired by position, line for line, the way it was before any alignment: the fallback for a large gap. */
export function byPosition(gap: GapToAlign): LineOp[] {
  const ops: LineOp[] = [];
  const paired = Math.min(gap.needleCount, gap.fileCount);
  for (let k = 0; k < paired; k++) {
    ops.push({ kind: 'changed', needle: gap.needleFrom + k, file: gap.fileFrom + k });
  }
  for (let k = paired; k < gap.needleCount; k++) {
    ops.push({ kind: 'needle only', needle: gap.needleFrom + k });
  }
  for (let k = paired; k < gap.fileCount; k++) {
    ops.push({ kind: 'file only', file: gap.fileFrom + k });
  }
  return ops;
}
