/**
 * Runs a request for a command or quick fix: with a cancellable progress
 * notification when it spans several files, then a one-line report. It resolves
 * after the diagnostics show the outcome.
 */
import * as vscode from 'vscode';
import type { EngineResponse, ErrorCode, ToolName } from '../../core/index';
import { requestFiles } from '../diagnostics/requestFiles';
import type { OutcomeSource } from '../outcomes';
import type { EditorDeps } from './editorCommand';
import { showResponse } from './showEnvelope';

/** Outcomes the user chose: reported plainly, not as problems. */
const USER_OUTCOMES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['CANCELLED', 'USER_DENIED']);

export async function runWithProgress(deps: EditorDeps, tool: ToolName, input: unknown, source: OutcomeSource): Promise<EngineResponse> {
  const files = requestFiles(tool, input).length;
  const response = files > 1
    ? await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Multi-Edit: editing ${files} files`, cancellable: true },
      (_progress, token) => deps.services.runner.run(tool, input, { source, token }),
    )
    : await deps.services.runner.run(tool, input, { source });
  return reportWhenSettled(deps, response);
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
