/**
 * The notification of a request that succeeded, with what a person does next: Show Diff (a diff
 * editor, each file before against after), Open File, and Undo (VS Code's own undo, which takes
 * back the whole request across files, as it was one edit).
 */
import * as vscode from 'vscode';
import type { SuccessResponse } from '../../core/index';
import type { EditorDeps } from './editorCommand';

/** One file of a request, before and after it. */
export interface FileChange {
  readonly path: string;
  readonly displayPath: string;
  readonly before: string;
  readonly after: string;
}

/** The left and right side of each file's diff: before as a read-only copy, after as the file itself (or, for a dry run, a copy). */
function diffSides(deps: EditorDeps, requestId: number, changes: readonly FileChange[], dryRun: boolean): [vscode.Uri, vscode.Uri, vscode.Uri][] {
  return changes.map((change) => {
    const file = vscode.Uri.file(change.path);
    const name = change.displayPath.replace(/^\/+/, '');
    const before = deps.documents.put(`before-${requestId}/${name}`, change.before);
    const after = dryRun ? deps.documents.put(`after-${requestId}/${name}`, change.after) : file;
    return [file, before, after];
  });
}

export async function showDiff(deps: EditorDeps, requestId: number, changes: readonly FileChange[], dryRun: boolean): Promise<void> {
  const sides = diffSides(deps, requestId, changes, dryRun);
  if (sides.length === 1) {
    const [, before, after] = sides[0];
    const title = vscode.l10n.t('{0} (before ↔ after Multi-Edit)', changes[0].displayPath);
    await vscode.commands.executeCommand('vscode.diff', before, after, title, { preview: true });
    return;
  }
  await vscode.commands.executeCommand('vscode.changes', vscode.l10n.t('Multi-Edit: {0} files, before ↔ after', sides.length), sides);
}

async function openFile(changes: readonly FileChange[]): Promise<void> {
  const picked = changes.length === 1
    ? changes[0]
    : await vscode.window.showQuickPick(changes.map((change) => ({ label: change.displayPath, change })), { title: vscode.l10n.t('Multi-Edit: open a changed file') })
      .then((item) => item?.change);
  if (picked) {
    await vscode.window.showTextDocument(vscode.Uri.file(picked.path));
  }
}

/** VS Code's undo on the first file: one request is one undo step, across all its files. */
async function undo(deps: EditorDeps, changes: readonly FileChange[]): Promise<void> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(changes[0].path));
  await vscode.window.showTextDocument(document);
  await vscode.commands.executeCommand('undo');
  const restored = changes[0].before === document.getText();
  deps.services.log.info(`Undo of a Multi-Edit request on ${changes[0].displayPath}: ${restored ? 'restored' : 'the file differs from before the request'}`);
}

export function reportSuccess(deps: EditorDeps, requestId: number, response: SuccessResponse, changes: readonly FileChange[]): void {
  const actions = {
    showDiff: vscode.l10n.t('Show Diff'),
    openFile: vscode.l10n.t('Open File'),
    undo: vscode.l10n.t('Undo'),
  };
  const offered = changes.length === 0 ? [] : response.dry_run ? [actions.showDiff] : [actions.showDiff, actions.openFile, actions.undo];
  void vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: {0}', response.summary), ...offered).then((choice) => {
    switch (choice) {
      case actions.showDiff:
        return showDiff(deps, requestId, changes, response.dry_run);
      case actions.openFile:
        return openFile(changes);
      case actions.undo:
        return undo(deps, changes);
      default:
        return undefined;
    }
  });
}
