/**
 * Splits one file's planned change into one change per request edit, so the
 * Refactor Preview can list (and label) each edit on its own. The edits are
 * replayed over a list of pieces that remember which original text they replace;
 * an edit that rewrites text an earlier edit inserted merges with it. The replay
 * must reproduce the engine's new text exactly, or the file falls back to a
 * single change: the engine's text is the truth, the split is only presentation.
 */
import { detectEol, type Edit, withEol } from '../../core/index';
import { changedSpan } from '../platform/changedSpans';

export interface LabelledChange {
  /** Offsets in the original text. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** 0-based indexes of the edits that produced this change. */
  readonly edits: readonly number[];
}

/** Replays cost (characters x edits) beyond which one change per file is shown instead. */
const MAX_REPLAY_WORK = 50_000_000;

interface Piece {
  readonly text: string;
  readonly originalStart: number;
  readonly originalEnd: number;
  /** Absent for untouched original text. */
  readonly edits?: readonly number[];
}

/** Replaces [start, end) of the current text, absorbing every piece it touches. */
function replaceRange(pieces: Piece[], start: number, end: number, replacement: string, editIndex: number): void {
  let offset = 0;
  let first = -1;
  let last = -1;
  let firstOffset = 0;
  let lastOffset = 0;
  pieces.forEach((piece, index) => {
    const pieceEnd = offset + piece.text.length;
    if (first === -1 && start < pieceEnd) {
      first = index;
      firstOffset = offset;
    }
    if (last === -1 && end <= pieceEnd && piece.text.length > 0) {
      last = index;
      lastOffset = offset;
    }
    offset = pieceEnd;
  });
  const head = pieces[first];
  const tail = pieces[last];
  const kept: Piece[] = [];
  const headCut = start - firstOffset;
  const tailCut = end - lastOffset;
  let prefix = '';
  let originalStart = head.originalStart;
  if (head.edits) {
    prefix = head.text.slice(0, headCut);
  } else {
    originalStart = head.originalStart + headCut;
    if (headCut > 0) {
      kept.push({ text: head.text.slice(0, headCut), originalStart: head.originalStart, originalEnd: originalStart });
    }
  }
  let suffix = '';
  let originalEnd = tail.originalEnd;
  let after: Piece | undefined;
  if (tail.edits) {
    suffix = tail.text.slice(tailCut);
  } else {
    originalEnd = tail.originalStart + tailCut;
    if (tailCut < tail.text.length) {
      after = { text: tail.text.slice(tailCut), originalStart: originalEnd, originalEnd: tail.originalEnd };
    }
  }
  const absorbed = new Set<number>([editIndex]);
  for (const piece of pieces.slice(first, last + 1)) {
    piece.edits?.forEach((index) => absorbed.add(index));
  }
  const merged: Piece = { text: prefix + replacement + suffix, originalStart, originalEnd, edits: [...absorbed].sort((a, b) => a - b) };
  pieces.splice(first, last - first + 1, ...kept, merged, ...(after ? [after] : []));
}

function replay(original: string, edits: readonly Edit[]): Piece[] | undefined {
  const eol = detectEol(original);
  const pieces: Piece[] = [{ text: original, originalStart: 0, originalEnd: original.length }];
  for (const [index, edit] of edits.entries()) {
    const needle = withEol(edit.old_string, eol);
    const replacement = withEol(edit.new_string, eol);
    const current = pieces.map((piece) => piece.text).join('');
    const starts: number[] = [];
    for (let at = current.indexOf(needle); at !== -1; at = edit.replace_all ? current.indexOf(needle, at + needle.length) : -1) {
      starts.push(at);
    }
    if (starts.length === 0) {
      return undefined;
    }
    for (const start of starts.reverse()) {
      replaceRange(pieces, start, start + needle.length, replacement, index);
    }
  }
  return pieces;
}

/**
 * One change per edit (edits that rewrote each other's text share one), in
 * original offsets; or one change for the whole difference when the replay does
 * not reproduce `newText` or would cost too much.
 */
export function labelledChanges(original: string, newText: string, edits: readonly Edit[]): LabelledChange[] {
  const pieces = original.length * edits.length <= MAX_REPLAY_WORK ? replay(original, edits) : undefined;
  if (pieces && pieces.map((piece) => piece.text).join('') === newText) {
    return pieces.flatMap((piece) => (piece.edits ? [{ start: piece.originalStart, end: piece.originalEnd, text: piece.text, edits: piece.edits }] : []));
  }
  const span = changedSpan(original, newText);
  return [{ start: span.start, end: span.end, text: span.text, edits: edits.map((_, index) => index) }];
}
