/**
 * Plans the edits of a notebook (.ipynb) as notebook edits: an old_string may be a cell's
 * source as it reads, or the raw JSON (notebook/cellEdits.ts). Loaded only when a
 * request edits a notebook. A file that does not read as a notebook is left to the
 * plain planner, which edits it as the text it is.
 */
import type { EngineContext } from './engineContext';
import type { FileTarget } from './planFile';
import { editFailures } from './planFailures';
import { detectEol, withEol } from '../text/eol';
import { readNotebook } from '../notebook/notebookCells';
import { describeCell, planNotebookEdits, type CellFailureNote, type CellName } from '../notebook/cellEdits';
import { replacedSpans, type ReplacedSpan } from '../matching/replacedSpans';
import { hintsForDiagnosis } from '../nearMiss/diagnosis';
import type { EditToCheck } from '../matching/match';
import type { StoredText } from '../store/fileStore';
import type { Diagnosis, EnvelopeContext, Warning } from '../contract/schemas';
import type { EditDetail, FileFailure, FilePlan, LeadFailure, PlannedFile } from '../plan/filePlan';
import { wholeText } from '../text/editedText';

/** The plan of a notebook's edits; undefined when the text is not a notebook. */
export function planNotebook(target: FileTarget, path: string, displayPath: string, original: StoredText, context: EngineContext): FilePlan | undefined {
  const reading = readNotebook(original.text);
  if (!reading.ok) {
    return undefined;
  }
  const eol = detectEol(original.text);
  const result = planNotebookEdits(original.text, reading.notebook, target.edits, { maxLocations: context.limits.maxMatchLocations, eol });
  if (!result.ok) {
    // Each failure is explained in the text it was searched in: its cell's source, or the raw JSON.
    const edits: EditToCheck[] = target.edits.map((edit, editIndex) => {
      const inCell = result.notes.get(editIndex)?.cell !== undefined;
      const written = (value: string): string => (inCell ? value.replace(/\r\n/g, '\n') : withEol(value, eol));
      return { oldString: written(edit.old_string), newString: written(edit.new_string), replaceAll: edit.replace_all ?? false };
    });
    const failure = editFailures(target, path, displayPath, original.text, edits, result.outcome, context);
    return { ok: false, failure: withCellNotes(failure, result.notes, displayPath) };
  }
  const { text: newText, applied } = result;
  let spans: readonly ReplacedSpan[] | undefined;
  const file: PlannedFile = {
    path, displayPath, original, newText: wholeText(newText), editsApplied: target.edits.length, applied,
    replacements: result.verdicts.reduce((sum, verdict) => sum + (verdict.status === 'applied' ? verdict.replacements : 0), 0),
    get spans() {
      spans ??= replacedSpans(applied, newText);
      return spans;
    },
  };
  return { ok: true, file, warnings: formWarning(result.forms, result.cellsOf, file, target.dryRun) };
}

/** Which edits matched as cell text, and in which cells: the response says how each edit was read. */
function formWarning(forms: readonly ('cell' | 'json')[], cellsOf: ReadonlyMap<number, readonly CellName[]>, file: PlannedFile, dryRun: boolean): Warning[] {
  const asCells = forms.flatMap((form, editIndex) => (form === 'cell' ? [editIndex] : []));
  if (asCells.length === 0) {
    return [];
  }
  const asJson = forms.flatMap((form, editIndex) => (form === 'json' ? [editIndex + 1] : []));
  const each = asCells.map((editIndex) => `edit ${editIndex + 1} in ${(cellsOf.get(editIndex) ?? []).map(describeCell).join(', ')}`).join('; ');
  const json = asJson.length > 0 ? `; ${asJson.length === 1 ? `edit ${asJson[0]}` : `edits ${asJson.join(', ')}`} matched the raw JSON` : '';
  return [{
    code: 'NOTEBOOK_CELL_TEXT',
    message: `Matched ${file.displayPath} as cell source text (${each})${json}; the sources ${dryRun ? 'would be' : 'were'} written back JSON-escaped in the notebook's layout`,
    file_path: file.path,
  }];
}

function wireCell(cell: CellName): NonNullable<EnvelopeContext['notebook_cell']> {
  return { index: cell.index, ...(cell.id !== undefined ? { id: cell.id } : {}), cell_type: cell.cellType };
}

/** The failures of a notebook with the cells they concern: where their lines count from, and an old_string that runs across cells. */
function withCellNotes(failure: FileFailure, notes: ReadonlyMap<number, CellFailureNote>, displayPath: string): FileFailure {
  const noted = <T extends EditDetail>(editIndex: number | undefined, detail: T): T => {
    const note = editIndex === undefined ? undefined : notes.get(editIndex);
    if (!note?.cell) {
      return detail;
    }
    const context: EnvelopeContext = {
      ...detail.context,
      notebook_cell: wireCell(note.cell),
      ...(note.matchCells ? { match_cells: note.matchCells.map(wireCell) } : {}),
    };
    const diagnosis: Diagnosis | undefined = note.across ? acrossDiagnosis(note.across) : detail.diagnosis;
    return { ...detail, context, ...(diagnosis ? { diagnosis } : {}) };
  };
  const message = (editIndex: number | undefined, text: string): string => {
    const note = editIndex === undefined ? undefined : notes.get(editIndex);
    if (note?.across) {
      return `${text}: it runs from ${describeCell(note.across[0])} into ${describeCell(note.across[1])}, and a match must lie inside one cell`;
    }
    return note?.matchCells ? `${text} (in ${note.matchCells.map(describeCell).join(', ')})` : text;
  };
  return {
    ...failure,
    problems: failure.problems.map((problem) => ({
      ...problem,
      message: message(problem.editIndex, problem.message),
      ...(problem.detail ? { detail: () => noted(problem.editIndex, (problem.detail as () => EditDetail)()) } : {}),
    })),
    lead: (): LeadFailure => {
      const lead = failure.lead();
      const across = lead.editIndex === undefined ? undefined : notes.get(lead.editIndex)?.across;
      return {
        ...noted(lead.editIndex, lead),
        message: message(lead.editIndex, lead.message),
        ...(across ? { hints: hintsForDiagnosis('SPANS_CELLS') } : {}),
      };
    },
    displayPath,
  };
}

function acrossDiagnosis([first, last]: readonly [CellName, CellName]): Diagnosis {
  return {
    kind: 'SPANS_CELLS',
    detail: `old_string occurs only across cells: it starts in ${describeCell(first)} and ends in ${describeCell(last)}; each cell's source is matched on its own, so a match must lie inside one cell`,
    cells: [wireCell(first), wireCell(last)],
  };
}
