/**
 * The syntax errors of a notebook (.ipynb): its JSON first; then its shape as nbformat
 * has it (a `cells` list, each cell with a `cell_type` and a `source`); then, when the
 * kernel's language has a grammar (Python), each code cell's source, its errors placed
 * at their characters in the file. The gate compares these with the original's, so only
 * errors an edit brings in count.
 */
import { rawOffsetOf, readNotebook, type NotebookCell, type SyntaxErrorSpan } from '../../core/index';
import { jsonSyntaxErrors } from './jsonSyntaxErrors';

/** Parses one cell's source in the kernel's language; undefined when the grammar is unavailable. */
export type CellParser = (source: string, cellKey: string) => Promise<readonly SyntaxErrorSpan[] | undefined>;

/** Kernel languages the gate reads cells of, by the name nbformat's metadata gives. */
export const CELL_GRAMMARS: ReadonlyMap<string, 'python'> = new Map([['python', 'python'], ['python3', 'python']]);

export async function notebookSyntaxErrors(text: string, parseCell: (grammar: 'python') => CellParser | undefined): Promise<SyntaxErrorSpan[]> {
  const jsonErrors = jsonSyntaxErrors(text, false);
  if (jsonErrors.length > 0) {
    return jsonErrors;
  }
  const reading = readNotebook(text);
  if (!reading.ok) {
    const at = reading.offset ?? 0;
    return [{ start: at, end: at }];
  }
  const { notebook } = reading;
  const grammar = notebook.language === undefined ? undefined : CELL_GRAMMARS.get(notebook.language);
  const parse = grammar === undefined ? undefined : parseCell(grammar);
  if (parse === undefined) {
    return [];
  }
  const errors: SyntaxErrorSpan[] = [];
  for (const cell of notebook.cells) {
    if (cell.cellType !== 'code' || isCellMagic(cell.text)) {
      continue;
    }
    const cellErrors = await parse(withoutShellLines(cell.text), cell.id ?? `#${cell.index}`);
    if (cellErrors === undefined) {
      return errors;
    }
    errors.push(...cellErrors.map((error) => inFile(cell, text, error)));
  }
  return errors;
}

function inFile(cell: NotebookCell, text: string, error: SyntaxErrorSpan): SyntaxErrorSpan {
  return { start: rawOffsetOf(cell, text, error.start), end: rawOffsetOf(cell, text, error.end) };
}

/** A cell run by an IPython cell magic (`%%bash`, `%%writefile x`) is not Python. */
function isCellMagic(source: string): boolean {
  return /^\s*%%/.test(source);
}

/**
 * IPython's own lines (`%magic`, `!shell`, `help?`) blanked out, each character a space
 * so that offsets stay: Python's grammar does not read them, and a cell may hold them.
 */
function withoutShellLines(source: string): string {
  return source.replace(/^([ \t]*)([%!].*|[^\n#]*\?\??)$/gm, (line) => ' '.repeat(line.length));
}
