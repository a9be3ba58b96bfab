/**
 * Runs a request for a command or quick fix: with a cancellable progress
 * notification when it spans several files, then a one-line report. It resolves
 * after the diagnostics show the outcome.
 */
import * as vscode from 'vscode';
import { answersForOneFile, type EngineResponse, type ErrorEnvelope, leadFailure, leadFileIndex, otherFailures, type RequestPlan, userChoseOutcome } from '../../core/index';
import { diagnosticMessage } from '../problems/message';
import type { RequestRecord, RequestSource } from '../run/requestRecord';
import type { RunOptions } from '../run/requestRunner';
import type { EditorDeps } from './editorCommand';
import type { RequestToRun } from './requestSource';
import { showResponse } from './showEnvelope';
import { type FileChange, reportSuccess } from './successNotification';

/** Outcomes the user chose: reported plainly, not as problems. */

/** A finished request, with each planned file's text before and after it (none when it did not plan). */
interface RunWithChanges {
  readonly record: RequestRecord;
  readonly changes: readonly FileChange[];
}

/** Plans, then commits, keeping the planned texts for Show Diff. */
async function planAndCommit(deps: EditorDeps, tool: RequestToRun['tool'], input: unknown, options: RunOptions): Promise<RunWithChanges> {
  const planned = await deps.services.runner.plan(tool, input, options);
  if (!planned.ok) {
    return { record: planned.record, changes: [] };
  }
  const record = await deps.services.runner.commit(planned.plan, planned.id, options);
  return { record, changes: plannedChanges(planned.plan) };
}

/** Each planned file's text before and after, for the success notification's Show Diff. */
export function plannedChanges(plan: RequestPlan): FileChange[] {
  return plan.files.map((file) => ({ path: file.path, displayPath: file.displayPath, before: file.original.text, after: file.newText.whole() }));
}

/** A request over several files gets a cancellable progress notification; a single file is quick. */
export async function runWithProgress(
  deps: EditorDeps, request: RequestToRun, source: RequestSource, overrides: Pick<RunOptions, 'syntaxCheck'> = {},
): Promise<EngineResponse> {
  const { tool, input, origin } = request;
  const options = { source, ...(origin ? { origin } : {}), ...overrides };
  const run = !answersForOneFile(tool)
    ? await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Multi-Edit: editing files'), cancellable: true },
      (_progress, token) => planAndCommit(deps, tool, input, { ...options, token }),
    )
    : await planAndCommit(deps, tool, input, options);
  return reportWhenSettled(deps, run.record, run.changes);
}

/** Reports a finished request once the diagnostics show its outcome; resolves to the response. */
export async function reportWhenSettled(deps: EditorDeps, record: RequestRecord, changes: readonly FileChange[] = []): Promise<EngineResponse> {
  await deps.feed.settled();
  const { response } = record;
  if (response.success) {
    reportSuccess(deps, record.id, response, changes);
  } else {
    reportFailure(deps, response);
  }
  return response;
}

/**
 * "Multi-Edit · File 2, Edit 1 · MATCH_NOT_FOUND: old_string was not found in b.ts. No file was
 * changed.": the failing file and edit named as the Problems panel names them.
 */
export function failureNotice(envelope: ErrorEnvelope): string {
  const lead = leadFailure(envelope);
  const multiFile = envelope.file_index !== undefined;
  const headline = diagnosticMessage({
    ...(envelope.edit_index !== undefined ? { editIndex: envelope.edit_index } : {}),
    ...(multiFile ? { fileNumber: leadFileIndex(envelope) + 1 } : {}),
    label: envelope.error_code,
    message: lead?.message ?? envelope.message,
    hints: [],
  });
  const others = otherFailures(envelope).length;
  const more = others > 0 ? ` ${others === 1 ? vscode.l10n.t('1 more edit failed.') : vscode.l10n.t('{0} more edits failed.', others)}` : '';
  const unchanged = envelope.rolled_back ? vscode.l10n.t('Files already written were restored.') : vscode.l10n.t('No file was changed.');
  return `Multi-Edit · ${headline}.${more} ${unchanged}`;
}

/** One notification per failed request; a failure offers the Problems panel and the envelope. */
function reportFailure(deps: EditorDeps, response: ErrorEnvelope): void {
  if (userChoseOutcome(response)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: {0}', response.message));
    return;
  }
  const showProblems = vscode.l10n.t('Show Problems');
  const showEnvelope = vscode.l10n.t('Show Envelope');
  void vscode.window
    .showWarningMessage(failureNotice(response), showProblems, showEnvelope)
    .then((choice) => {
      if (choice === showProblems) {
        return vscode.commands.executeCommand('workbench.actions.view.problems');
      }
      return choice === showEnvelope ? showResponse(deps, `envelope-${response.error_code}`, response) : undefined;
    });
}
