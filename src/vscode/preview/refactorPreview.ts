/**
 * A planned request in VS Code's Refactor Preview. Every change carries
 * needsConfirmation metadata, which makes applyEdit open the preview instead of
 * applying; the user ticks what to apply and presses Apply, or discards. Whether
 * (and how much) was applied is read from the documents afterwards: the preview
 * lets the user apply only some changes, and a request is all or nothing.
 */
import * as vscode from 'vscode';
import { type Edit, type PlannedFile, preview, type RequestPlan } from '../../core/index';
import { labelledChanges, type LabelledChange } from './labelledChanges';

export interface PreviewFile {
  readonly planned: PlannedFile;
  readonly edits: readonly Edit[];
  readonly document: vscode.TextDocument;
  readonly changes: readonly LabelledChange[];
}

export interface PreviewEntry {
  readonly uri: vscode.Uri;
  readonly range: vscode.Range;
  readonly text: string;
  readonly metadata: vscode.WorkspaceEditEntryMetadata;
}

export type PreviewVerdict = 'applied' | 'discarded' | 'partial';

function quoted(value: string | undefined): string {
  return `“${preview((value ?? '').replace(/\s+/g, ' ').trim())}”`;
}

/** "Edit 2: “old” → “new”", or "Edits 1, 3" when edits rewrote each other's text. */
export function changeLabel(change: LabelledChange, edits: readonly Edit[]): string {
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
      changes: labelledChanges(planned.original.text, planned.newText, edits),
    };
  }));
}

export function previewEntries(files: readonly PreviewFile[]): PreviewEntry[] {
  return files.flatMap(({ planned, edits, document, changes }) => changes.map((change) => ({
    uri: document.uri,
    range: new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)),
    text: change.text,
    metadata: { needsConfirmation: true, label: changeLabel(change, edits), description: planned.displayPath },
  })));
}

export function toWorkspaceEdit(entries: readonly PreviewEntry[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const entry of entries) {
    edit.replace(entry.uri, entry.range, entry.text, entry.metadata);
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
