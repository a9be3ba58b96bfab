/**
 * A commit the user reviews in the Refactor Preview. The store calls it in place of
 * applying the edit, after its version check and before its save, so the preview
 * commits like every other surface. Applying everything there is the commit;
 * discarding, or applying only part (which is undone), is USER_DENIED.
 * Not translated: the verdict's detail becomes the envelope's message, read by models in the core's language.
 */
import * as vscode from 'vscode';
import type { RequestPlan } from '../../core/index';
import type { ReviewResult } from '../platform/workspaceFileStore';
import { previewEntries, previewFiles, previewOperations, revertPartial, toWorkspaceEdit, verdictOf } from './refactorPreview';

/** When to ask the preview, once it shows, to group its changes by label ("Edit 2: …"); it shows a moment after applyEdit starts. */
const GROUP_BY_LABEL_AFTER_MS = [150, 600, 2000];

/** VS Code groups the Refactor Preview by file unless asked; by label, each change reads as its edit. */
function groupChangesByEdit(settled: () => boolean): void {
  for (const delay of GROUP_BY_LABEL_AFTER_MS) {
    setTimeout(() => {
      if (!settled()) {
        void vscode.commands.executeCommand('refactorPreview.groupByType').then(undefined, () => undefined);
      }
    }, delay);
  }
}

function denied(detail: string): ReviewResult {
  return { ok: false, code: 'USER_DENIED', detail };
}

export async function reviewInRefactorPreview(plan: RequestPlan): Promise<ReviewResult> {
  const files = await previewFiles(plan);
  const operations = previewOperations(plan);
  // Not flagged as a refactoring: VS Code would then save every file involved, even buffers that
  // had unsaved work before, and the save-after-edit setting decides that for every commit.
  let settled = false;
  const applying = vscode.workspace.applyEdit(await toWorkspaceEdit(previewEntries(files), operations), { isRefactoring: false });
  groupChangesByEdit(() => settled);
  await applying;
  settled = true;
  switch (await verdictOf(files, operations)) {
    case 'applied':
      return { ok: true, value: undefined };
    case 'partial':
      await revertPartial(files, operations);
      return denied('Only part of the preview was applied; a request applies all of its edits or none, so that part was undone');
    case 'discarded':
      return denied('The preview was discarded');
  }
}
