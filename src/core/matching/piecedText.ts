/**
 * A text held as a base string and sorted pieces, each replacing one range of the base:
 * how PieceText (pieceText.ts) keeps a large file while edits apply, and how the edited
 * text is handed on, unjoined, once they have.
 */
import type { EditedText } from '../text/editedText';

export interface PlacedPiece {
  /** The base range this piece replaces: never empty. */
  readonly baseStart: number;
  readonly baseEnd: number;
  readonly text: string;
  /** Where the piece's text sits in the current text. */
  readonly start: number;
  readonly end: number;
}

/** The text between two offsets of the text `pieces` make of `base` (`length` long). */
export function sliceOfPieces(base: string, length: number, pieces: readonly PlacedPiece[], from: number, to: number): string {
  const parts: string[] = [];
  let piece = firstPieceEndingAtOrAfter(pieces, from);
  let at = from;
  while (at < to) {
    const current = pieces[piece];
    if (current !== undefined && at >= current.start) {
      const end = Math.min(to, current.end);
      if (end > at) {
        parts.push(current.text.slice(at - current.start, end - current.start));
        at = end;
      }
      piece++;
    } else {
      const stop = current === undefined ? to : Math.min(to, current.start);
      const baseAt = baseOffsetBefore(base, length, pieces, at, piece);
      parts.push(base.slice(baseAt, baseAt + stop - at));
      at = stop;
    }
  }
  return parts.length === 1 ? parts[0] : parts.join('');
}

export function firstPieceEndingAtOrAfter(pieces: readonly PlacedPiece[], offset: number): number {
  let low = 0;
  let high = pieces.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (pieces[middle].end < offset) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

/** The base offset of a current offset that lies in unchanged text just before piece `next`. */
export function baseOffsetBefore(base: string, length: number, pieces: readonly PlacedPiece[], offset: number, next: number): number {
  const piece = pieces[next];
  return piece === undefined ? base.length - (length - offset) : piece.baseStart - (piece.start - offset);
}

/** The text in order: unchanged base between the pieces' texts. */
export function* partsOfPieces(base: string, pieces: readonly PlacedPiece[]): Generator<string> {
  let from = 0;
  for (const piece of pieces) {
    if (piece.baseStart > from) {
      yield base.slice(from, piece.baseStart);
    }
    if (piece.text !== '') {
      yield piece.text;
    }
    from = piece.baseEnd;
  }
  if (from < base.length) {
    yield base.slice(from);
  }
}

/** An edited text as its base and final pieces (which must not change after), joined only when asked. */
export class PiecedText implements EditedText {
  private joined: string | undefined;

  constructor(private readonly base: string, private readonly pieces: readonly PlacedPiece[], readonly length: number) {}

  charCodeAt(offset: number): number {
    if (this.joined !== undefined) {
      return this.joined.charCodeAt(offset);
    }
    const next = firstPieceEndingAtOrAfter(this.pieces, offset + 1);
    const piece = this.pieces[next];
    if (piece !== undefined && offset >= piece.start) {
      return piece.text.charCodeAt(offset - piece.start);
    }
    return offset < 0 || offset >= this.length ? NaN : this.base.charCodeAt(baseOffsetBefore(this.base, this.length, this.pieces, offset, next));
  }

  slice(from: number, to: number): string {
    const start = Math.max(0, Math.min(from, this.length));
    const end = Math.max(start, Math.min(to, this.length));
    return this.joined?.slice(start, end) ?? sliceOfPieces(this.base, this.length, this.pieces, start, end);
  }

  /** As a string's: `at` is held within the text. */
  startsWith(search: string, at: number): boolean {
    const from = Math.min(Math.max(at, 0), this.length);
    return from + search.length <= this.length && this.slice(from, from + search.length) === search;
  }

  parts(): Iterable<string> {
    return this.joined !== undefined ? [this.joined] : partsOfPieces(this.base, this.pieces);
  }

  whole(): string {
    this.joined ??= [...partsOfPieces(this.base, this.pieces)].join('');
    return this.joined;
  }
}
