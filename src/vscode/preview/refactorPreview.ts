/**
 * A planned request in VS Code's Refactor Preview, opened with every change ticked,
 * so one click on Apply applies the request. VS Code opens the preview when any
 * entry's metadata says needsConfirmation, and ticks exactly the entries that do
 * not: so the changes say needsConfirmation: false, and one more entry, which
 * changes nothing and is not listed, says true (see previewTrigger). The user may
 * still untick changes or discard; whether (and how much) was applied is read from
 * the documents afterwards, and a request is all or nothing.
 */
import * as vscode from 'vscode';
import { type Edit, oldStringExcerpt, type PlannedFile, type ReplacedSpan, type RequestPlan } from '../../core/index';

export interface PreviewFile {
  readonly planned: PlannedFile;
  readonly edits: readonly Edit[];
  readonly document: vscode.TextDocument;
  /** One change per edit, as the engine placed it (edits that rewrote each other's text share one). */
  readonly changes: readonly ReplacedSpan[];
}

export interface PreviewEntry {
  readonly uri: vscode.Uri;
  readonly range: vscode.Range;
  readonly text: string;
  readonly metadata: vscode.WorkspaceEditEntryMetadata;
}

export type PreviewVerdict = 'applied' | 'discarded' | 'partial';

function quoted(value: string | undefined): string {
  return `“${oldStringExcerpt((value ?? '').replace(/\s+/g, ' ').trim())}”`;
}

/** "Edit 2: “old” → “new”", or "Edits 1, 3" when edits rewrote each other's text. */
export function changeLabel(change: ReplacedSpan, edits: readonly Edit[]): string {
  if (change.edits.length === 1) {
    const index = change.edits[0];
    return `Edit ${index + 1}: ${quoted(edits[index]?.old_string)} → ${quoted(edits[index]?.new_string)}`;
  }
  return `Edits ${change.edits.map((index) => index + 1).join(', ')}`;
}

/**
 * The plan's files with their documents, each split into one change per edit. A
 * plan exists only when every file planned, so its files follow the request's.
 */
export async function previewFiles(plan: RequestPlan): Promise<PreviewFile[]> {
  return Promise.all(plan.files.map(async (planned, index) => {
    const edits = plan.request.files[index]?.edits ?? [];
    return {
      planned,
      edits,
      document: await vscode.workspace.openTextDocument(vscode.Uri.file(planned.path)),
      changes: planned.spans,
    };
  }));
}

export function previewEntries(files: readonly PreviewFile[]): PreviewEntry[] {
  return files.flatMap(({ planned, edits, document, changes }) => changes.map((change) => ({
    uri: document.uri,
    range: new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)),
    text: change.text,
    metadata: { needsConfirmation: false, label: changeLabel(change, edits), description: planned.displayPath },
  })));
}

/**
 * The entry that makes applyEdit open the preview: "create this file unless it exists"
 * for a file that exists. The preview leaves such an entry out of its list, and it
 * would change nothing if applied.
 */
function addPreviewTrigger(edit: vscode.WorkspaceEdit, existingFile: vscode.Uri): void {
  edit.createFile(existingFile, { ignoreIfExists: true }, { needsConfirmation: true, label: 'Multi-Edit' });
}

/** The changes, ticked, and the trigger that opens them in the preview. */
export function toWorkspaceEdit(entries: readonly PreviewEntry[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const entry of entries) {
    edit.replace(entry.uri, entry.range, entry.text, entry.metadata);
  }
  if (entries.length > 0) {
    addPreviewTrigger(edit, entries[0].uri);
  }
  return edit;
}

export function verdictOf(files: readonly PreviewFile[]): PreviewVerdict {
  if (files.every(({ planned, document }) => document.getText() === planned.newText)) {
    return 'applied';
  }
  return files.every(({ planned, document }) => document.getText() === planned.original.text) ? 'discarded' : 'partial';
}

/** Puts back the text of every file the preview changed in part. */
export async function revertPartial(files: readonly PreviewFile[]): Promise<boolean> {
  const edit = new vscode.WorkspaceEdit();
  for (const { planned, document } of files) {
    if (document.getText() !== planned.original.text) {
      const whole = new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end);
      edit.replace(document.uri, whole, planned.original.text);
    }
  }
  return vscode.workspace.applyEdit(edit);
}
