/** What every editor command gets, and how a command finds the failure it acts on. */
import * as vscode from 'vscode';
import { isFailureRef, type FailedRequest, type Failure } from '../problems/failure';
import type { FailureFeed } from '../problems/failureFeed';
import type { Services } from '../run/services';
import type { ReadOnlyDocuments } from '../platform/readOnlyDocuments';

export interface EditorDeps {
  readonly services: Services;
  readonly feed: FailureFeed;
  readonly documents: ReadOnlyDocuments;
  /** The markers in request files, cleared with the other problems. */
  readonly requestMarkers?: { clearAll(): void };
}

export interface EditorCommand {
  readonly id: string;
  run(...args: unknown[]): unknown;
}

/**
 * The failure a command acts on: the one a quick fix or notification passed, else
 * the one under the cursor, else the latest shown. Undefined (after telling the
 * user) when there is none.
 */
export function failureFromArgument(deps: EditorDeps, argument: unknown): Failure | undefined {
  const { failures } = deps.feed;
  if (isFailureRef(argument)) {
    const failure = failures.get(argument.failureId);
    if (!failure) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: that problem is no longer shown (it was fixed, dismissed or superseded).'));
    }
    return failure;
  }
  const failure = failureAtCursor(deps) ?? failures.latest();
  if (!failure) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: no Multi-Edit problem is shown.'));
  }
  return failure;
}

/**
 * The failed request a command acts on as a whole: the one passed, else the one
 * under the cursor, else the latest. It is found even after its diagnostics
 * cleared, as long as it is within the history limit.
 */
export function requestFromArgument(deps: EditorDeps, argument: unknown): FailedRequest | undefined {
  const { failures } = deps.feed;
  const request = isFailureRef(argument)
    ? failures.request(argument.requestId)
    : failureAtCursor(deps)?.request ?? failures.latestRequest();
  if (!request) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: no failed request is remembered (see the setting multiEdit.diagnostics.historyLimit).'));
  }
  return request;
}

function failureAtCursor(deps: EditorDeps): Failure | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor && deps.feed.failures.failuresAt(editor.document.uri, editor.selection.active)[0];
}
