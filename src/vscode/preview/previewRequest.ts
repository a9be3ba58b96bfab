/**
 * Preview a request: plan it, show every change in the Refactor Preview, and
 * publish what the user decided. Applying there is the commit; discarding, or
 * applying only part (which is undone), is USER_DENIED and no file changes.
 */
import * as vscode from 'vscode';
import { DEFAULT_LIMITS, type EngineResponse, envelopeFor, successResponse, TOOL_MULTI_EDIT_FILES, type ToolName } from '../../core/index';
import { requestFiles } from '../diagnostics/requestFiles';
import type { Services } from '../services';
import { shouldSaveAfterEdit } from '../settings';
import { previewEntries, previewFiles, revertPartial, staleFile, toWorkspaceEdit, verdictOf, type PreviewFile } from './refactorPreview';

/** Saves what the preview changed, as the save-after-edit setting says for any other commit. */
async function saveApplied(services: Services, files: readonly PreviewFile[], wasDirty: readonly boolean[]): Promise<void> {
  const policy = services.settings.current().saveAfterEdit;
  const toSave = files.filter(({ document }, index) => document.isDirty && shouldSaveAfterEdit(policy, wasDirty[index]));
  await Promise.all(toSave.map(({ document }) => document.save()));
}

export async function previewRequest(services: Services, tool: ToolName, input: unknown): Promise<EngineResponse> {
  const started = performance.now();
  const planned = await services.runner.plan(tool, input, { source: 'command' });
  if (!planned.ok) {
    return planned.envelope;
  }
  const finish = (response: EngineResponse): EngineResponse => {
    services.runner.report(tool, input, response, { source: 'command' }, started, 'commit');
    return response;
  };
  const files = await previewFiles(planned.plan, requestFiles(tool, input));
  const stale = staleFile(files);
  if (stale) {
    return finish(envelopeFor('STALE_CONTENT', `${stale.planned.displayPath} changed after it was read; no file was changed`, { file_path: stale.planned.path }));
  }
  const wasDirty = files.map(({ document }) => document.isDirty);
  // Not flagged as a refactoring: VS Code would then save every file involved, even buffers that
  // had unsaved work before, and the save-after-edit setting decides that for every commit.
  await vscode.workspace.applyEdit(toWorkspaceEdit(previewEntries(files)), { isRefactoring: false });
  switch (verdictOf(files)) {
    case 'applied':
      await saveApplied(services, files, wasDirty);
      return finish(successResponse({ multiFile: tool === TOOL_MULTI_EDIT_FILES, ...planned.plan, dryRun: false, maxDiffBytes: DEFAULT_LIMITS.maxDiffBytes }));
    case 'partial':
      await revertPartial(files);
      return finish(envelopeFor('USER_DENIED', 'Only part of the preview was applied; a request applies all of its edits or none, so that part was undone and no file changed'));
    case 'discarded':
      return finish(envelopeFor('USER_DENIED', 'The preview was discarded; no file was changed'));
  }
}
