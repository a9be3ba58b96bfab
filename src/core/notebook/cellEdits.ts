/**
 * A notebook's edits, each matched first inside one cell's decoded source (the text a
 * person reads, no JSON escaping) and, when no cell holds it, in the file's raw JSON.
 * Edits apply in order, each to what the earlier ones left. Cell edits change the
 * cells' sources only; the file is rebuilt once at the end, each changed source written
 * back in the file's layout (notebookCells.ts). A raw edit between cell edits rebuilds
 * the file and reads its cells again, which only a request mixing the forms pays.
 */
import { LineIndex } from '../text/lineIndex';
import { withEol, type Eol } from '../text/eol';
import { locateClosestMatch } from '../nearMiss/closestMatch';
import { EXPLAINED_MATCH_FAILURES, MAX_MATCH_LINES, type AppliedEdit, type EditVerdict, type MatchOutcome } from '../matching/match';
import { encodedSource, readNotebook, withCellSources, type Notebook, type NotebookCell } from './notebookCells';
import type { Edit } from '../contract/schemas';

/** A cell as the envelope names it. */
export interface CellName {
  readonly index: number;
  readonly id?: string;
  readonly cellType: string;
}

/** How one failed edit of a notebook reads: in which cell its text was searched, or the cells old_string runs across. */
export interface CellFailureNote {
  /** Lines, columns and the snippet are in this cell's source; absent when they are in the raw JSON. */
  readonly cell?: CellName;
  /** old_string occurs only across the boundary of these cells (the first and the last it touches). */
  readonly across?: readonly [CellName, CellName];
  /** An ambiguous match: the cells that hold a match, in order. */
  readonly matchCells?: readonly CellName[];
}

export type NotebookEditsResult =
  | {
    readonly ok: true;
    readonly text: string;
    readonly applied: readonly AppliedEdit[];
    readonly verdicts: readonly EditVerdict[];
    /** For each edit: matched as a cell's source text, or in the raw JSON. */
    readonly forms: readonly ('cell' | 'json')[];
    /** For each edit matched as cell text: the cells it changed. */
    readonly cellsOf: ReadonlyMap<number, readonly CellName[]>;
  }
  | { readonly ok: false; readonly outcome: MatchOutcome; readonly notes: ReadonlyMap<number, CellFailureNote> };

export interface NotebookEditOptions {
  readonly maxLocations: number;
  /** The file's line ending, for an edit matched in the raw JSON. */
  readonly eol: Eol;
}

export function nameOf(cell: NotebookCell): CellName {
  return { index: cell.index, cellType: cell.cellType, ...(cell.id !== undefined ? { id: cell.id } : {}) };
}

/** The cell as a message names it: `cell 3 (id "a1b2")`, 0-based as nbformat lists them. */
export function describeCell(cell: CellName): string {
  return `cell ${cell.index}${cell.id !== undefined ? ` (id "${cell.id}")` : ''}`;
}

/** An old_string that holds JSON escapes was written for the raw file, so its failure is explained there. */
const JSON_ESCAPED = /\\["\\/bfnrtu]/;

export function planNotebookEdits(original: string, notebook: Notebook, edits: readonly Edit[], options: NotebookEditOptions): NotebookEditsResult {
  let text = original;
  let book = notebook;
  let sources = book.cells.map((cell) => cell.text);
  let cellsChanged = false;
  let rawChanged = false;
  /** Per cell of the current book: the last edit that changed it. */
  let lastEditOfCell = new Map<number, number>();
  const verdicts: EditVerdict[] = [];
  const forms: ('cell' | 'json')[] = [];
  const cellsOf = new Map<number, CellName[]>();
  const notes = new Map<number, CellFailureNote>();
  const failureTexts = new Map<number, string>();
  const notApplied: number[] = [];
  const firstIndexOfOld = new Map<string, number>();
  let firstFailedEdit: number | undefined;

  /** The file as the cell edits so far left it, with its cells read again. */
  const rebuilt = (): string => {
    if (cellsChanged) {
      text = withCellSources(text, book, sources);
      book = reread(text);
      sources = book.cells.map((cell) => cell.text);
      cellsChanged = false;
      lastEditOfCell = new Map();
    }
    return text;
  };

  const fail = (editIndex: number, verdict: EditVerdict, failureText: string, note: CellFailureNote | undefined): EditVerdict => {
    if (verdict.status === 'failed' && (verdict.code === 'MATCH_NOT_FOUND' || verdict.code === 'AMBIGUOUS_MATCH') && failureTexts.size < EXPLAINED_MATCH_FAILURES) {
      failureTexts.set(editIndex, failureText);
      if (note) {
        notes.set(editIndex, note);
      }
    }
    return verdict;
  };

  const matchAndApply = (edit: Edit, editIndex: number): EditVerdict => {
    const oldCell = edit.old_string.replace(/\r\n/g, '\n');
    const newCell = edit.new_string.replace(/\r\n/g, '\n');
    const replaceAll = edit.replace_all ?? false;
    const inCells = sources.map((source) => countOf(source, oldCell));
    const total = inCells.reduce((sum, count) => sum + count, 0);
    if (total > 1 && !replaceAll) {
      const holding = inCells.flatMap((count, cell) => (count > 0 ? [cell] : []));
      const first = holding[0];
      const offsets = offsetsOf(sources[first], oldCell, MAX_MATCH_LINES);
      return fail(editIndex, {
        status: 'failed', code: 'AMBIGUOUS_MATCH', totalMatches: total, firstOffsets: offsets.slice(0, options.maxLocations), matchOffsets: offsets,
      }, sources[first], { cell: nameOf(book.cells[first]), matchCells: holding.map((cell) => nameOf(book.cells[cell])) });
    }
    if (total > 0) {
      const changed: CellName[] = [];
      let replaced = 0;
      inCells.forEach((count, cell) => {
        if (count > 0) {
          replaced += countOf(sources[cell], oldCell, true);
          sources[cell] = replaceAll ? sources[cell].split(oldCell).join(newCell) : replaceFirst(sources[cell], oldCell, newCell);
          lastEditOfCell.set(cell, editIndex);
          changed.push(nameOf(book.cells[cell]));
        }
      });
      cellsChanged = true;
      forms[editIndex] = 'cell';
      cellsOf.set(editIndex, changed);
      return { status: 'applied', replacements: replaceAll ? replaced : 1 };
    }
    const raw = rebuilt();
    const oldRaw = withEol(edit.old_string, options.eol);
    const newRaw = withEol(edit.new_string, options.eol);
    const inRaw = countOf(raw, oldRaw);
    if (inRaw > 1 && !replaceAll) {
      const offsets = offsetsOf(raw, oldRaw, MAX_MATCH_LINES);
      return fail(editIndex, { status: 'failed', code: 'AMBIGUOUS_MATCH', totalMatches: inRaw, firstOffsets: offsets.slice(0, options.maxLocations), matchOffsets: offsets }, raw, undefined);
    }
    if (inRaw > 0) {
      const replaced = replaceAll ? countOf(raw, oldRaw, true) : 1;
      text = replaceAll ? raw.split(oldRaw).join(newRaw) : replaceFirst(raw, oldRaw, newRaw);
      book = reread(text);
      sources = book.cells.map((cell) => cell.text);
      lastEditOfCell = new Map();
      rawChanged = true;
      forms[editIndex] = 'json';
      return { status: 'applied', replacements: replaced };
    }
    const dependsOn = notApplied.slice().reverse().find((earlier) => edits[earlier].new_string.includes(edit.old_string));
    if (dependsOn !== undefined) {
      return { status: 'skipped', dependsOn };
    }
    const notFound: EditVerdict = { status: 'failed', code: 'MATCH_NOT_FOUND' };
    if (JSON_ESCAPED.test(edit.old_string) || book.cells.length === 0) {
      return fail(editIndex, notFound, raw, undefined);
    }
    const view = cellView(sources);
    const across = view.text.indexOf(oldCell);
    if (across !== -1) {
      const first = view.cellAt(across);
      const last = view.cellAt(across + oldCell.length - 1);
      return fail(editIndex, notFound, sources[first], { cell: nameOf(book.cells[first]), across: [nameOf(book.cells[first]), nameOf(book.cells[last])] });
    }
    const closest = locateClosestMatch(view.text, LineIndex.of(view.text), oldCell);
    const cell = closest ? view.cellAt(closest.offset) : 0;
    return fail(editIndex, notFound, sources[cell], { cell: nameOf(book.cells[cell]) });
  };

  edits.forEach((edit, editIndex) => {
    const verdict = inputVerdict(edit, firstIndexOfOld.get(edit.old_string)) ?? matchAndApply(edit, editIndex);
    if (edit.old_string !== '' && !firstIndexOfOld.has(edit.old_string)) {
      firstIndexOfOld.set(edit.old_string, editIndex);
    }
    if (verdict.status !== 'applied') {
      notApplied.push(editIndex);
    }
    if (verdict.status === 'failed') {
      firstFailedEdit ??= editIndex;
    }
    verdicts.push(verdict);
  });

  if (notApplied.length > 0) {
    // No applied edits are passed on: their offsets are in other texts than the failures' (cells, or the raw file).
    return { ok: false, outcome: { verdicts, applied: [], failureTexts, ...(firstFailedEdit !== undefined ? { firstFailedEdit } : {}) }, notes };
  }
  const final = cellsChanged ? withCellSources(text, book, sources) : text;
  const applied = rawChanged || !cellsChanged
    ? wholeChange(original, final, edits.length - 1)
    : cellChanges(text, book, sources, lastEditOfCell);
  return { ok: true, text: final, applied, verdicts, forms, cellsOf };
}

/** The failures that need no search, as the engine's matcher finds them. */
function inputVerdict(edit: Edit, earlierWithSameOld: number | undefined): EditVerdict | undefined {
  if (edit.old_string === '') {
    return { status: 'failed', code: 'EMPTY_OLD_STRING' };
  }
  if (edit.old_string === edit.new_string) {
    return { status: 'failed', code: 'NO_OP_EDIT' };
  }
  return earlierWithSameOld === undefined ? undefined : { status: 'failed', code: 'DUPLICATE_OLD_STRING', duplicateOf: earlierWithSameOld };
}

function reread(text: string): Notebook {
  const reading = readNotebook(text);
  return reading.ok ? reading.notebook : { cells: [], asciiOnly: false };
}

/** One replacement per changed source, trimmed to what differs, as AppliedEdits in text order. */
function cellChanges(text: string, book: Notebook, sources: readonly string[], lastEditOfCell: ReadonlyMap<number, number>): AppliedEdit[] {
  const applied: AppliedEdit[] = [];
  let shift = 0;
  book.cells.forEach((cell, index) => {
    if (sources[index] === cell.text) {
      return;
    }
    const before = text.slice(cell.valueStart, cell.valueEnd);
    const after = encodedSource(cell, sources[index], book, text);
    const change = trimmedChange(before, after);
    const start = cell.valueStart + change.start + shift;
    applied.push({ editIndex: lastEditOfCell.get(index) ?? 0, count: 1, starts: () => [start], oldLength: change.oldLength, newLength: change.newLength });
    shift += after.length - before.length;
  });
  return applied;
}

function wholeChange(original: string, final: string, editIndex: number): AppliedEdit[] {
  if (original === final) {
    return [];
  }
  const change = trimmedChange(original, final);
  return [{ editIndex, count: 1, starts: () => [change.start], oldLength: change.oldLength, newLength: change.newLength }];
}

/** Where two texts differ: the common head and tail left out. */
function trimmedChange(before: string, after: string): { start: number; oldLength: number; newLength: number } {
  let head = 0;
  const shorter = Math.min(before.length, after.length);
  while (head < shorter && before.charCodeAt(head) === after.charCodeAt(head)) {
    head++;
  }
  let tail = 0;
  while (tail < shorter - head && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) {
    tail++;
  }
  return { start: head, oldLength: before.length - head - tail, newLength: after.length - head - tail };
}

/** The sources one after another, each on a line of its own, to find an old_string that runs from one cell into the next. */
function cellView(sources: readonly string[]): { text: string; cellAt: (offset: number) => number } {
  const starts: number[] = [];
  let at = 0;
  for (const source of sources) {
    starts.push(at);
    at += source.length + 1;
  }
  const cellAt = (offset: number): number => {
    let cell = 0;
    while (cell + 1 < starts.length && starts[cell + 1] <= offset) {
      cell++;
    }
    return cell;
  };
  return { text: sources.join('\n'), cellAt };
}

/** Occurrences, overlapping ones too unless `apart` (then as split/join replaces them). */
function countOf(text: string, pattern: string, apart = false): number {
  let count = 0;
  const step = apart ? pattern.length : 1;
  for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + step)) {
    count++;
  }
  return count;
}

function offsetsOf(text: string, pattern: string, max: number): number[] {
  const offsets: number[] = [];
  for (let at = text.indexOf(pattern); at !== -1 && offsets.length < max; at = text.indexOf(pattern, at + 1)) {
    offsets.push(at);
  }
  return offsets;
}

function replaceFirst(text: string, oldString: string, newString: string): string {
  const at = text.indexOf(oldString);
  return text.slice(0, at) + newString + text.slice(at + oldString.length);
}
