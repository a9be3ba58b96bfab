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
import { type Edit, oldStringExcerpt, type PlannedFile, type ReplacedSpan, type RequestPlan, sameText } from '../../core/index';
import { storedBytes } from '../platform/workspaceFileStore';

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

/** A patch's added, deleted or moved file: shown as a file operation, checked on disk afterwards. */
export interface PreviewOperation {
  readonly planned: PlannedFile;
  readonly kind: 'add' | 'delete' | 'move';
  /** The path created (an added file, a move's destination). */
  readonly created?: vscode.Uri;
  /** The path removed (a deleted file, a move's source). */
  readonly removed?: vscode.Uri;
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
  const updates = plan.files.map((planned, index) => ({ planned, edits: plan.request.files[index]?.edits ?? [] }))
    .filter(({ planned }) => operationOf(planned) === undefined);
  return Promise.all(updates.map(async ({ planned, edits }) => ({
    planned,
    edits,
    document: await vscode.workspace.openTextDocument(vscode.Uri.file(planned.path)),
    changes: planned.spans,
  })));
}

function operationOf(planned: PlannedFile): PreviewOperation['kind'] | undefined {
  return planned.operation === undefined || planned.operation === 'update' ? undefined : planned.operation;
}

/** The plan's added, deleted and moved files. */
export function previewOperations(plan: RequestPlan): PreviewOperation[] {
  return plan.files.flatMap((planned): PreviewOperation[] => {
    const kind = operationOf(planned);
    const target = vscode.Uri.file(planned.path);
    switch (kind) {
      case 'add':
        return [{ planned, kind, created: target }];
      case 'delete':
        return [{ planned, kind, removed: target }];
      case 'move':
        return [{ planned, kind, created: target, removed: vscode.Uri.file(planned.movedFrom ?? planned.path) }];
      default:
        return [];
    }
  });
}

/** The created file's bytes: an added file is written without a BOM, a moved one keeps its own. */
function createdBytes({ planned, kind }: PreviewOperation): Uint8Array {
  return storedBytes(planned.newText.whole(), kind === 'move' && planned.original.bom);
}

function operationLabel({ planned, kind }: PreviewOperation): string {
  switch (kind) {
    case 'add':
      return `Add ${planned.displayPath}`;
    case 'delete':
      return `Delete ${planned.displayPath}`;
    case 'move':
      return `Move ${vscode.workspace.asRelativePath(planned.movedFrom ?? planned.path)} → ${planned.displayPath}`;
  }
}

/** Adds an operation to an edit, as one entry per path (a move creates its new text and deletes its old path, like Apply). */
function addOperation(edit: vscode.WorkspaceEdit, operation: PreviewOperation): void {
  const metadata: vscode.WorkspaceEditEntryMetadata = { needsConfirmation: false, label: operationLabel(operation), description: operation.planned.displayPath };
  if (operation.created) {
    edit.createFile(operation.created, { overwrite: false, contents: createdBytes(operation) }, metadata);
  }
  if (operation.removed) {
    edit.deleteFile(operation.removed, { ignoreIfNotExists: false }, metadata);
  }
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

/** An existing path for the trigger: a file the edit changes or removes, else the closest existing folder above a created one. */
async function triggerTarget(entries: readonly PreviewEntry[], operations: readonly PreviewOperation[]): Promise<vscode.Uri | undefined> {
  const existing = entries[0]?.uri ?? operations.find((operation) => operation.removed)?.removed;
  if (existing) {
    return existing;
  }
  let folder = operations[0]?.created;
  while (folder && !(await exists(folder))) {
    const parent = vscode.Uri.joinPath(folder, '..');
    folder = parent.path === folder.path ? undefined : parent;
  }
  return folder;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** The changes and file operations, ticked, and the trigger that opens them in the preview. */
export async function toWorkspaceEdit(entries: readonly PreviewEntry[], operations: readonly PreviewOperation[]): Promise<vscode.WorkspaceEdit> {
  const edit = new vscode.WorkspaceEdit();
  for (const entry of entries) {
    edit.replace(entry.uri, entry.range, entry.text, entry.metadata);
  }
  for (const operation of operations) {
    addOperation(edit, operation);
  }
  const trigger = await triggerTarget(entries, operations);
  if (trigger) {
    addPreviewTrigger(edit, trigger);
  }
  return edit;
}

/** Whether each of an operation's paths is as the patch wants it (true), as it was (false), or neither (undefined). */
async function operationDone(operation: PreviewOperation): Promise<boolean | undefined> {
  const createdNow = operation.created ? await exists(operation.created) : undefined;
  const removedNow = operation.removed ? await exists(operation.removed).then((present) => !present) : undefined;
  const states = [createdNow, removedNow].filter((state): state is boolean => state !== undefined);
  return states.every((state) => state) ? true : states.every((state) => !state) ? false : undefined;
}

export async function verdictOf(files: readonly PreviewFile[], operations: readonly PreviewOperation[]): Promise<PreviewVerdict> {
  const done = await Promise.all(operations.map(operationDone));
  if (files.every(({ planned, document }) => sameText(planned.newText, document.getText())) && done.every((state) => state === true)) {
    return 'applied';
  }
  const untouched = files.every(({ planned, document }) => document.getText() === planned.original.text) && done.every((state) => state === false);
  return untouched ? 'discarded' : 'partial';
}

/** Puts back the text of every file the preview changed in part, and every path an operation created or removed. */
export async function revertPartial(files: readonly PreviewFile[], operations: readonly PreviewOperation[]): Promise<boolean> {
  const edit = new vscode.WorkspaceEdit();
  for (const operation of operations) {
    if (operation.created && await exists(operation.created)) {
      edit.deleteFile(operation.created, { ignoreIfNotExists: true });
    }
    if (operation.removed && !(await exists(operation.removed))) {
      edit.createFile(operation.removed, { overwrite: false, contents: storedBytes(operation.planned.original.text, operation.planned.original.bom) });
    }
  }
  for (const { planned, document } of files) {
    if (document.getText() !== planned.original.text) {
      const whole = new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end);
      edit.replace(document.uri, whole, planned.original.text);
    }
  }
  return vscode.workspace.applyEdit(edit);
}
