/**
 * A notebook open in VS Code's notebook editor is edited through the notebook, never by
 * writing its file under it: its cells' unsaved text is what the engine plans from (read
 * into the file's JSON in place of the saved sources), and a commit replaces the text of
 * the cells that changed, in the same WorkspaceEdit as everything else (one undo step).
 * Not translated: the failure details become the envelope's message, read by models in
 * the core's language.
 */
import * as vscode from 'vscode';
import { readNotebook, withCellSources, type StoreResult, type StoredText } from '../../core/index';

/** The version token of a notebook read through its editor: a commit re-checks it. */
export interface NotebookVersion {
  readonly notebook: vscode.NotebookDocument;
  readonly version: number;
  readonly cellVersions: readonly number[];
}

export function isNotebookVersion(value: unknown): value is NotebookVersion {
  const candidate = value as Partial<NotebookVersion> | undefined;
  return typeof candidate?.version === 'number' && Array.isArray(candidate.cellVersions) && typeof candidate.notebook?.cellAt === 'function';
}

/** The notebook open for this file, if any. */
export function openNotebookOf(uri: vscode.Uri): vscode.NotebookDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.notebookDocuments.find((notebook) => notebook.uri.toString() === key);
}

/** A cell's text as its source reads: notebooks keep "\n" line breaks. */
function cellText(cell: vscode.NotebookCell): string {
  return cell.document.getText().replace(/\r\n/g, '\n');
}

/**
 * The notebook's file text with each cell's current (maybe unsaved) text as its source.
 * `saved` is the file on disk; its cells must be the editor's, one for one.
 */
export function notebookAsOpen(notebook: vscode.NotebookDocument, saved: string, bom: boolean): StoreResult<StoredText> {
  const reading = readNotebook(saved);
  if (!reading.ok) {
    return { ok: false, code: 'WRITE_FAILED', detail: `the notebook is open in the notebook editor, and its file on disk does not read as a notebook (${reading.reason}), so its cells cannot be matched with the editor's` };
  }
  const cells = notebook.getCells();
  if (cells.length !== reading.notebook.cells.length) {
    return {
      ok: false,
      code: 'WRITE_FAILED',
      detail: `the notebook is open in the notebook editor with ${cells.length} cells, and its file has ${reading.notebook.cells.length}: cells were added or removed and not saved; ask the user to save the notebook, then send the request again`,
    };
  }
  const text = withCellSources(saved, reading.notebook, cells.map(cellText));
  const version: NotebookVersion = { notebook, version: notebook.version, cellVersions: cells.map((cell) => cell.document.version) };
  return { ok: true, value: { text, bom, version } };
}

/**
 * The cells' new text as replacements in `edit`, once the notebook is checked unchanged
 * since it was read. Only cell sources can change through the editor: a request that
 * changes anything else of the notebook's JSON is refused.
 */
export function cellReplacements(token: NotebookVersion, original: string, changed: string, shown: string): StoreResult<(edit: vscode.WorkspaceEdit) => void> {
  const { notebook } = token;
  const cells = notebook.getCells();
  if (notebook.isClosed || notebook.version !== token.version || cells.length !== token.cellVersions.length || cells.some((cell, index) => cell.document.version !== token.cellVersions[index])) {
    return { ok: false, code: 'STALE_CONTENT', detail: `${shown} changed in the notebook editor after it was read` };
  }
  const before = readNotebook(original);
  const after = readNotebook(changed);
  if (!before.ok || !after.ok || after.notebook.cells.length !== before.notebook.cells.length
    || withCellSources(original, before.notebook, after.notebook.cells.map((cell) => cell.text)) !== changed) {
    return {
      ok: false,
      code: 'WRITE_FAILED',
      detail: `${shown} is open in the notebook editor, through which only the cells' source text is edited, and this request changes other parts of its JSON (cells added or removed, metadata or outputs); edit the cells' text only, or ask the user to close the notebook first`,
    };
  }
  const replacements = after.notebook.cells.flatMap((cell, index) => (cell.text === before.notebook.cells[index].text ? [] : [{ document: cells[index].document, text: cell.text }]));
  return {
    ok: true,
    value: (edit) => {
      for (const { document, text } of replacements) {
        edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), document.eol === vscode.EndOfLine.CRLF ? text.replace(/\n/g, '\r\n') : text);
      }
    },
  };
}
