/**
 * The working text of a large file: the text as read (the base) plus a sorted list
 * of pieces, each replacing one range of the base. The result is built once, when it
 * is asked for; no edit copies the whole text.
 *
 * Every pattern is searched for in the base once, up front (multiSearch.ts). An
 * occurrence in the current text either lies wholly in unchanged base text, and is
 * then one of those base occurrences, or it touches a piece, and is then found by
 * searching the small window around that piece. So an edit costs time in proportion
 * to the pieces so far, not to the file.
 */
import { TextBuilder } from './textBuilder';
import { occurrencesOf, occurrencesOfAll, offsetsBetween, type Offsets } from './multiSearch';
import type { WorkingText } from './workingText';
import { baseOffsetBefore, PiecedText, sliceOfPieces } from './piecedText';
import { type EditedText, wholeText } from '../text/editedText';

interface Piece {
  /** The base range this piece replaces: never empty. */
  readonly baseStart: number;
  readonly baseEnd: number;
  readonly text: string;
  /** Where the piece's text sits in the current text; recomputed after each replacement. */
  start: number;
  end: number;
  /**
   * The current text around the piece, up to the longest reach either side (`lead` characters
   * before it), kept until an edit within that reach changes it: each later pattern searches
   * it rather than a slice of its own.
   */
  surroundings?: { readonly text: string; readonly lead: number };
}

/** Past this many pieces, windows cost more than building the text and searching it afresh. */
const MAX_PIECES = 512;
/** The most text kept either side of a piece; a longer pattern slices its windows afresh. */
const MAX_KEPT_REACH = 4096;

export class PieceText implements WorkingText {
  private base: string;
  private pieces: Piece[] = [];
  /** The current text's length. */
  length: number;
  private baseOccurrences: Map<string, Offsets>;
  /** How many of `patterns`, in their order, have been asked for: a rebase scans only the rest. */
  private asked = 0;
  /** How far a piece's kept surroundings reach either side: the longest pattern's length less one, capped. */
  private readonly keptReach: number;

  /** `patterns`: every old_string that will be asked for, so the base is scanned once for all of them. */
  constructor(text: string, private readonly patterns: readonly string[]) {
    this.base = text;
    this.length = text.length;
    this.baseOccurrences = occurrencesOfAll(text, patterns);
    this.keptReach = Math.min(MAX_KEPT_REACH, patterns.reduce((longest, pattern) => Math.max(longest, pattern.length - 1), 0));
  }

  occurrences(pattern: string): Offsets {
    if (this.patterns[this.asked] === pattern) {
      this.asked++;
    }
    const untouched = this.untouchedOccurrences(pattern);
    const touching = this.occurrencesTouchingPieces(pattern);
    return touching.length === 0 ? untouched : mergeUnique(untouched, touching);
  }

  replace(starts: Offsets, length: number, replacement: string): void {
    const old = this.pieces;
    const next: Piece[] = [];
    const merged: number[] = [];
    let piece = 0;
    let range = 0;
    while (range < starts.length) {
      while (piece < old.length && old[piece].end <= starts[range]) {
        next.push(old[piece++]);
      }
      // A cluster: this range, every piece it touches, and any later range touching the last of those pieces.
      const firstPiece = piece;
      const firstRange = range;
      for (;;) {
        const rangeStart = starts[range];
        while (piece < old.length && touches(old[piece], rangeStart, rangeStart + length)) {
          piece++;
        }
        const lastPiece = old[piece - 1];
        const following = starts[range + 1];
        if (piece > firstPiece && following !== undefined && touches(lastPiece, following, following + length)) {
          range++;
          continue;
        }
        break;
      }
      merged.push(next.length);
      next.push(this.mergedPiece(firstPiece, piece, offsetsBetween(starts, firstRange, range + 1), length, replacement));
      range++;
    }
    while (piece < old.length) {
      next.push(old[piece++]);
    }
    this.pieces = next;
    this.placePieces();
    if (next.length > MAX_PIECES) {
      this.rebase();
      return;
    }
    merged.forEach((index) => this.forgetSurroundingsNear(index));
  }

  /** Drops the kept surroundings of the pieces whose reach takes in piece `index`, whose text just changed. */
  private forgetSurroundingsNear(index: number): void {
    const changed = this.pieces[index];
    for (let before = index - 1; before >= 0 && this.pieces[before].end + this.keptReach >= changed.start; before--) {
      this.pieces[before].surroundings = undefined;
    }
    for (let after = index + 1; after < this.pieces.length && this.pieces[after].start - this.keptReach <= changed.end; after++) {
      this.pieces[after].surroundings = undefined;
    }
  }

  text(): string {
    return this.edited().whole();
  }

  edited(): EditedText {
    return this.pieces.length === 0 ? wholeText(this.base) : new PiecedText(this.base, this.pieces, this.length);
  }

  /** Base occurrences that no piece overlaps, at their offsets in the current text. */
  private untouchedOccurrences(pattern: string): Offsets {
    let baseStarts = this.baseOccurrences.get(pattern);
    if (baseStarts === undefined) {
      baseStarts = occurrencesOf(this.base, pattern);
      this.baseOccurrences.set(pattern, baseStarts);
    }
    if (this.pieces.length === 0) {
      return baseStarts;
    }
    const found: number[] = [];
    let piece = 0;
    let shift = 0;
    for (const start of baseStarts) {
      while (piece < this.pieces.length && this.pieces[piece].baseEnd <= start) {
        shift = this.pieces[piece].end - this.pieces[piece].baseEnd;
        piece++;
      }
      if (piece < this.pieces.length && this.pieces[piece].baseStart < start + pattern.length) {
        continue;
      }
      found.push(start + shift);
    }
    return found;
  }

  /** Occurrences that include a piece's text or straddle the place where a piece removed text. */
  private occurrencesTouchingPieces(pattern: string): number[] {
    const reach = pattern.length - 1;
    const found: number[] = [];
    for (const piece of this.pieces) {
      const { text, lead } = reach <= this.keptReach ? this.surroundingsOf(piece) : this.sliceAround(piece, reach);
      // Where the surroundings start in the current text, and the part of them this pattern can reach.
      const origin = piece.start - lead;
      const from = Math.max(0, lead - reach);
      const to = Math.min(text.length, lead + (piece.end - piece.start) + reach);
      if (to - from < pattern.length) {
        continue;
      }
      for (const at of occurrencesOf(text, pattern, from, to)) {
        if (touches(piece, origin + at, origin + at + pattern.length)) {
          found.push(origin + at);
        }
      }
    }
    return found;
  }

  private surroundingsOf(piece: Piece): { readonly text: string; readonly lead: number } {
    piece.surroundings ??= this.sliceAround(piece, this.keptReach);
    return piece.surroundings;
  }

  /** The current text from `reach` before the piece to `reach` after it, as far as the text goes. */
  private sliceAround(piece: Piece, reach: number): { readonly text: string; readonly lead: number } {
    const from = Math.max(0, piece.start - reach);
    return { text: this.slice(from, Math.min(this.length, piece.end + reach)), lead: piece.start - from };
  }

  /** The current text between two offsets. */
  slice(from: number, to: number): string {
    return sliceOfPieces(this.base, this.length, this.pieces, from, to);
  }

  /** The base offset of a current offset that lies in unchanged text just before piece `next`. */
  private baseOffset(offset: number, next: number): number {
    return baseOffsetBefore(this.base, this.length, this.pieces, offset, next);
  }

  /** One piece for a cluster: pieces [firstPiece, endPiece) and the ranges at `starts`, all replaced. */
  private mergedPiece(firstPiece: number, endPiece: number, starts: readonly number[], length: number, replacement: string): Piece {
    const first = this.pieces[firstPiece];
    const last = this.pieces[endPiece - 1];
    const hasPieces = endPiece > firstPiece;
    const rangesStart = starts[0];
    const rangesEnd = starts[starts.length - 1] + length;
    const startsInPiece = hasPieces && first.start <= rangesStart;
    const endsInPiece = hasPieces && last.end >= rangesEnd;
    const from = startsInPiece ? first.start : rangesStart;
    const to = endsInPiece ? last.end : rangesEnd;
    const merged = new TextBuilder();
    merged.push(this.slice(from, rangesStart));
    starts.forEach((start, index) => {
      const nextStart = index + 1 < starts.length ? starts[index + 1] : to;
      merged.push(replacement);
      merged.push(this.slice(start + length, nextStart));
    });
    return {
      baseStart: startsInPiece ? first.baseStart : this.baseOffset(from, firstPiece),
      baseEnd: endsInPiece ? last.baseEnd : this.baseOffset(to, endPiece),
      text: merged.build(),
      start: 0,
      end: 0,
    };
  }

  private placePieces(): void {
    let shift = 0;
    for (const piece of this.pieces) {
      piece.start = piece.baseStart + shift;
      piece.end = piece.start + piece.text.length;
      shift += piece.text.length - (piece.baseEnd - piece.baseStart);
    }
    this.length = this.base.length + shift;
  }

  /**
   * Builds the current text and makes it the new base, scanned afresh for the patterns not
   * asked for yet; one asked out of order is searched alone when it comes.
   */
  private rebase(): void {
    this.base = this.text();
    this.pieces = [];
    this.length = this.base.length;
    this.baseOccurrences = occurrencesOfAll(this.base, this.patterns.slice(this.asked));
  }
}

/**
 * Whether the range [start, end) of the current text is not wholly inside the unchanged
 * text on one side of the piece. For a piece with empty text this means the range
 * straddles the point where the piece removed text.
 */
function touches(piece: Piece, start: number, end: number): boolean {
  return end > piece.start && start < piece.end;
}

function mergeUnique(sorted: Offsets, unsorted: number[]): number[] {
  unsorted.sort((a, b) => a - b);
  const merged: number[] = [];
  let left = 0;
  let right = 0;
  while (left < sorted.length || right < unsorted.length) {
    const next = right >= unsorted.length || (left < sorted.length && sorted[left] <= unsorted[right])
      ? sorted[left++]
      : unsorted[right++];
    if (merged.length === 0 || merged[merged.length - 1] !== next) {
      merged.push(next);
    }
  }
  return merged;
}
