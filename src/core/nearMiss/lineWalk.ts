/**
 * Lays one needle line on one text line, tolerating only the differences a
 * diagnosis can name: look-alike characters, indentation and other whitespace.
 * A walk gives up at the first difference nothing names. Every walk is bounded by
 * the two lines' lengths, and a one-line needle tries a bounded number of places.
 */
import { verbatimPiecesOf, type LineRole } from './closestMatch';
import { isInvisible, isSpaceLike, lookalikeOf, spellingsOf } from './lookalikes';

/** The kinds a line-by-line walk can name. */
export type NearMissKind = 'EOL_MISMATCH' | 'ESCAPED_NEWLINES' | 'UNICODE_LOOKALIKE' | 'INDENTATION' | 'WHITESPACE_ONLY';

/** Occurrences of one piece tried when a one-line needle is placed inside a line. */
const MAX_INNER_TRIES = 256;
const MIN_INNER_TRIES = 8;
/** Characters of needle walked, summed over the tries, before fewer tries are made. */
const INNER_WALK_BUDGET = 1 << 18;
/** Pieces of a one-line needle tried as the point to split it at. */
const MAX_INNER_PIECES = 4;
export type Where = 'indentation' | 'inside' | 'line end' | 'end of text';

export interface Difference {
  readonly kind: NearMissKind;
  /** 0-based needle line. */
  readonly needleLine: number;
  /** 0-based column of the difference in its needle line. */
  readonly needleColumn: number;
  /** Absolute text offset the difference is at. */
  readonly at: number;
  readonly needleText: string;
  readonly fileText: string;
  readonly where: Where;
  /** For ESCAPED_NEWLINES: how many literal breaks and tabs the needle holds. */
  readonly escapes?: { readonly breaks: number; readonly tabs: number };
}

export type LineDifference = Omit<Difference, 'needleLine' | 'at'> & { readonly column: number };

/** Whether the walked strings begin at their lines' starts and end at their lines' ends (a split walk covers part of a line). */
interface Edges {
  readonly atLineStart: boolean;
  readonly atLineEnd: boolean;
}

const WHOLE_LINE: Edges = { atLineStart: true, atLineEnd: true };

interface Walk {
  readonly differences: LineDifference[];
  /** Characters of `b` the walk consumed. */
  readonly consumed: number;
}

export function spaceRun(text: string, from: number): number {
  let end = from;
  while (end < text.length && isSpaceLike(text.charCodeAt(end))) {
    end++;
  }
  return end - from;
}

function reverse(text: string): string {
  return text.split('').reverse().join('');
}

function hasOddSpace(run: string): boolean {
  for (let at = 0; at < run.length; at++) {
    if (lookalikeOf(run.charCodeAt(at)) !== undefined) {
      return true;
    }
  }
  return false;
}

function foldSpaces(run: string): string {
  let folded = '';
  for (let at = 0; at < run.length; at++) {
    folded += lookalikeOf(run.charCodeAt(at))?.ascii ?? run[at];
  }
  return folded;
}

/**
 * Walks `a` (a needle line) against `b` (a text line) from their starts, or from
 * their ends when `reversed` (the strings then arrive reversed). The walk's start is
 * pinned to `b`'s start; its end must reach `b`'s end unless `openEnd`.
 * Returns undefined as soon as a difference is one no diagnosis names.
 */
function walkLine(a: string, b: string, reversed: boolean, openEnd: boolean, edges: Edges = WHOLE_LINE): Walk | undefined {
  const differences: LineDifference[] = [];
  // Columns and edges in the lines' own direction, whichever way the walk goes.
  const originalStart = (text: string, at: number, length: number): number => (reversed ? text.length - at - length : at);
  const touchesEnd = (text: string, at: number, length: number): boolean => edges.atLineEnd && originalStart(text, at, length) + length === text.length;
  const touchesStart = (text: string, at: number, length: number): boolean => edges.atLineStart && originalStart(text, at, length) === 0;
  const note = (kind: NearMissKind, at: number, length: number, needleText: string, fileText: string, where: Where): void => {
    const inOrder = (text: string): string => (reversed ? reverse(text) : text);
    differences.push({ kind, column: originalStart(b, at, length), needleColumn: originalStart(a, i, needleText.length), needleText: inOrder(needleText), fileText: inOrder(fileText), where });
  };

  let i = 0;
  let j = 0;
  /** An invisible character on either side is one difference of its own, before any whitespace around it is compared. */
  const skipInvisible = (): boolean => {
    if (j < b.length && isInvisible(b.charCodeAt(j))) {
      note('UNICODE_LOOKALIKE', j, 1, '', b[j], 'inside');
      j++;
      return true;
    }
    if (i < a.length && isInvisible(a.charCodeAt(i))) {
      note('UNICODE_LOOKALIKE', j, 0, a[i], '', 'inside');
      i++;
      return true;
    }
    return false;
  };
  while (i < a.length) {
    if (skipInvisible()) {
      continue;
    }
    const runA = spaceRun(a, i);
    const runB = spaceRun(b, j);
    if (runA > 0 || runB > 0) {
      const spaceA = a.slice(i, i + runA);
      let spaceB = b.slice(j, j + runB);
      const endsNeedle = i + runA === a.length;
      if (openEnd && endsNeedle && spaceB.startsWith(spaceA)) {
        spaceB = spaceA;
      } else if (spaceA !== spaceB) {
        const atLineStart = touchesStart(a, i, runA) && touchesStart(b, j, runB);
        const atLineEnd = touchesEnd(a, i, runA) && touchesEnd(b, j, runB);
        const where: Where = atLineStart ? 'indentation' : atLineEnd ? 'line end' : 'inside';
        const foldedEqual = foldSpaces(spaceA) === foldSpaces(spaceB);
        if (hasOddSpace(spaceA) || hasOddSpace(spaceB)) {
          note('UNICODE_LOOKALIKE', j, runB, spaceA, spaceB, where);
        }
        if (!foldedEqual) {
          note(atLineStart ? 'INDENTATION' : 'WHITESPACE_ONLY', j, runB, spaceA, spaceB, where);
        }
      }
      i += runA;
      j += spaceB.length;
      continue;
    }
    if (j >= b.length) {
      return undefined;
    }
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    const step = lookalikeStep(a, i, b, j, reversed);
    if (!step) {
      return undefined;
    }
    note('UNICODE_LOOKALIKE', j, step.fromB, a.slice(i, i + step.fromA), b.slice(j, j + step.fromB), 'inside');
    i += step.fromA;
    j += step.fromB;
  }
  while (!openEnd && j < b.length && isInvisible(b.charCodeAt(j))) {
    skipInvisible();
  }
  if (!openEnd && j < b.length) {
    const trailing = spaceRun(b, j);
    if (j + trailing < b.length) {
      return undefined;
    }
    note('WHITESPACE_ONLY', j, trailing, '', b.slice(j), 'line end');
    j = b.length;
  }
  return { differences, consumed: j };
}

/**
 * How many characters of each side a look-alike difference covers at (i, j), if it is one:
 * one character against another that folds to the same ASCII, or one character against an
 * ASCII spelling of it ("--" for an em dash, "->" for an arrow), the longest spelling first.
 */
function lookalikeStep(a: string, i: number, b: string, j: number, reversed: boolean): { fromA: number; fromB: number } | undefined {
  const likeA = lookalikeOf(a.charCodeAt(i));
  const likeB = lookalikeOf(b.charCodeAt(j));
  if (!likeA && !likeB) {
    return undefined;
  }
  const inDirection = (text: string): string => (reversed ? reverse(text) : text);
  const asciiA = likeA ? inDirection(likeA.ascii) : a[i];
  const asciiB = likeB ? inDirection(likeB.ascii) : b[j];
  // The longest spelling first, so "--" against an em dash is one difference, not a dash and a stray hyphen.
  const spelledA = likeA && spellingsOf(likeA).map(inDirection).find((spelling) => b.startsWith(spelling, j));
  if (spelledA) {
    return { fromA: 1, fromB: spelledA.length };
  }
  const spelledB = likeB && spellingsOf(likeB).map(inDirection).find((spelling) => a.startsWith(spelling, i));
  if (spelledB) {
    return { fromA: spelledB.length, fromB: 1 };
  }
  return asciiA === asciiB ? { fromA: 1, fromB: 1 } : undefined;
}

export interface LineFit {
  readonly differences: LineDifference[];
  /** Where the needle line starts and ends inside the text line. */
  readonly from: number;
  readonly to: number;
}

/** The first line of a multi-line needle must end the text line; only its start is free. */
function fitLineEnd(a: string, b: string): LineFit | undefined {
  const walk = walkLine(reverse(a), reverse(b), true, true);
  return walk && { differences: walk.differences, from: b.length - walk.consumed, to: b.length };
}

export function fitLine(a: string, b: string, role: LineRole): LineFit | undefined {
  if (role === 'first') {
    return fitLineEnd(a, b);
  }
  if (role === 'inner') {
    return fitInside(a, b);
  }
  const walk = walkLine(a, b, false, role === 'last');
  return walk && { differences: walk.differences, from: 0, to: walk.consumed };
}

/**
 * A one-line needle anywhere inside a text line: both are split at an occurrence of
 * one of the needle's pieces (longest first; a piece may itself hold a look-alike's
 * ASCII image, so later pieces get their turn), and the halves are walked outwards.
 */
function fitInside(a: string, b: string): LineFit | undefined {
  const pieces = verbatimPiecesOf(a).slice(0, MAX_INNER_PIECES);
  if (pieces.length === 0) {
    return fitAnywhere(a, b);
  }
  for (const piece of pieces) {
    const fit = fitAroundPiece(a, b, piece);
    if (fit) {
      return fit;
    }
  }
  // Every piece may hold a difference (an invisible character inside a word): walk from where the needle's first character stands.
  return fitFromFirstCharacter(a, b);
}

function fitFromFirstCharacter(a: string, b: string): LineFit | undefined {
  let best: LineFit | undefined;
  let start = b.indexOf(a[0]);
  for (let tries = innerTries(a.length); start !== -1 && tries > 0 && !cannotImprove(best); tries--) {
    const walk = walkLine(a, b.slice(start), false, true, { atLineStart: start === 0, atLineEnd: true });
    const at = start;
    best = fewerDifferences(best, walk && { differences: walk.differences.map((d) => ({ ...d, column: d.column + at })), from: start, to: start + walk.consumed });
    start = b.indexOf(a[0], start + 1);
  }
  return best;
}

function fewerDifferences(best: LineFit | undefined, fit: LineFit | undefined): LineFit | undefined {
  return fit && (!best || fit.differences.length < best.differences.length) ? fit : best;
}

/** A miss has at least one difference, so a fit with one cannot be beaten. */
export function cannotImprove(fit: { readonly differences: readonly unknown[] } | undefined): boolean {
  return fit !== undefined && fit.differences.length <= 1;
}

/** Occurrences worth trying for a needle line of this length, so the walking stays bounded. */
function innerTries(needleLength: number): number {
  return Math.max(MIN_INNER_TRIES, Math.min(MAX_INNER_TRIES, Math.floor(INNER_WALK_BUDGET / (needleLength + 1))));
}

function fitAroundPiece(a: string, b: string, piece: { token: string; column: number }): LineFit | undefined {
  const reversedHead = reverse(a.slice(0, piece.column));
  const tail = a.slice(piece.column);
  // Reversed once: the text left of any occurrence, reversed, is a suffix of this.
  const reversedLine = reverse(b);
  let best: LineFit | undefined;
  let found = b.indexOf(piece.token);
  for (let tries = innerTries(a.length); found !== -1 && tries > 0 && !cannotImprove(best); tries--) {
    // The halves meet at the split point, which is no line edge.
    const left = reversedHead.length === 0 ? { differences: [], consumed: 0 } : walkLine(reversedHead, reversedLine.slice(b.length - found), true, true, { atLineStart: true, atLineEnd: false });
    const right = walkLine(tail, b.slice(found), false, true, { atLineStart: false, atLineEnd: true });
    if (left && right) {
      const at = found;
      best = fewerDifferences(best, {
        differences: [...left.differences, ...right.differences.map((d) => ({ ...d, column: d.column + at, needleColumn: d.needleColumn + piece.column }))],
        from: found - left.consumed,
        to: found + right.consumed,
      });
    }
    found = b.indexOf(piece.token, found + 1);
  }
  return best;
}

/** A needle with no token characters at all (only whitespace and look-alikes): try the first starts. */
function fitAnywhere(a: string, b: string): LineFit | undefined {
  let best: LineFit | undefined;
  for (let start = 0; start <= b.length && start < innerTries(a.length) && !cannotImprove(best); start++) {
    const walk = walkLine(a, b.slice(start), false, true, { atLineStart: start === 0, atLineEnd: true });
    best = fewerDifferences(best, walk && { differences: walk.differences.map((d) => ({ ...d, column: d.column + start })), from: start, to: start + walk.consumed });
  }
  return best;
}
