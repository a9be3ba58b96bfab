/**
 * Runs a request for a command or quick fix: with a cancellable progress
 * notification when it spans several files, then a one-line report. It resolves
 * after the diagnostics show the outcome.
 */
import * as vscode from 'vscode';
import { type EngineResponse, type ErrorCode, TOOL_MULTI_EDIT_FILES } from '../../core/index';
import type { RequestSource } from '../run/requestRecord';
import type { EditorDeps } from './editorCommand';
import type { RequestToRun } from './requestSource';
import { showResponse } from './showEnvelope';

/** Outcomes the user chose: reported plainly, not as problems. */
const USER_OUTCOMES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['CANCELLED', 'USER_DENIED']);

/** A multi_edit_files request gets a cancellable progress notification; a single file is quick. */
export async function runWithProgress(deps: EditorDeps, request: RequestToRun, source: RequestSource): Promise<EngineResponse> {
  const { tool, input, origin } = request;
  const options = { source, ...(origin ? { origin } : {}) };
  const record = tool === TOOL_MULTI_EDIT_FILES
    ? await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Multi-Edit: editing files', cancellable: true },
      (_progress, token) => deps.services.runner.run(tool, input, { ...options, token }),
    )
    : await deps.services.runner.run(tool, input, options);
  return reportWhenSettled(deps, record.response);
}

/** Reports a finished request once the diagnostics show its outcome; resolves to the response. */
export async function reportWhenSettled(deps: EditorDeps, response: EngineResponse): Promise<EngineResponse> {
  await deps.feed.settled();
  reportResponse(deps, response);
  return response;
}

/** One notification per finished request; a failure offers the Problems panel and the envelope. */
function reportResponse(deps: EditorDeps, response: EngineResponse): void {
  if (response.success) {
    void vscode.window.showInformationMessage(`Multi-Edit: ${response.summary}`);
    return;
  }
  if (USER_OUTCOMES.has(response.error_code)) {
    void vscode.window.showInformationMessage(`Multi-Edit: ${response.message}`);
    return;
  }
  const showProblems = 'Show Problems';
  const showEnvelope = 'Show Envelope';
  void vscode.window
    .showWarningMessage(`Multi-Edit · ${response.error_code}: ${response.message}`, showProblems, showEnvelope)
    .then((choice) => {
      if (choice === showProblems) {
        return vscode.commands.executeCommand('workbench.actions.view.problems');
      }
      return choice === showEnvelope ? showResponse(deps, `envelope-${response.error_code}`, response) : undefined;
    });
}
