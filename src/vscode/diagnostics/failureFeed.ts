/**
 * Feeds the diagnostics from the OutcomeBus: every surface publishes there, so a
 * failure from a tool call, a command or a quick fix shows the same way. Outcomes
 * are handled one at a time, in the order they finished, so a success never races
 * ahead of the failure it supersedes.
 */
import * as vscode from 'vscode';
import type { EngineResponse, ErrorCode } from '../../core/index';
import { COMMANDS } from '../platform/ids';
import { quickFixesFor } from '../codeActions/quickFixes';
import type { RequestOutcome } from '../outcomes';
import type { Services } from '../services';
import { DIAGNOSTICS_SECTION, HISTORY_LIMIT_KEY, historyLimit } from './diagnosticSettings';
import { failureRef, type Failure } from './failure';
import { FailureStore } from './failureStore';
import { draftFailures } from './placement';
import { requestFiles } from './requestFiles';
import { absoluteTarget } from './targetPaths';

/** The user's own decisions: nothing in the files needs review. */
const NOT_PROBLEMS: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['CANCELLED', 'USER_DENIED']);

function responsePaths(response: EngineResponse): (string | undefined)[] {
  if (response.success) {
    return response.files.map((file) => file.file_path);
  }
  return [response.file_path, ...response.edit_status.map((status) => status.file_path)];
}

export class FailureFeed implements vscode.Disposable {
  private queue: Promise<void> = Promise.resolve();
  private readonly subscriptions: vscode.Disposable[];

  constructor(readonly failures: FailureStore, services: Services) {
    this.subscriptions = [
      services.bus.onDidFinish((outcome) => {
        this.queue = this.queue.then(() => this.handle(outcome)).catch((error: unknown) => {
          services.log.error(`Could not show the diagnostics of a ${outcome.tool} request: ${String(error)}`);
        });
      }),
      vscode.workspace.onDidChangeTextDocument((event) => failures.applyTextChanges(event.document.uri, event.contentChanges)),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${DIAGNOSTICS_SECTION}.${HISTORY_LIMIT_KEY}`)) {
          failures.trimHistory();
        }
      }),
    ];
  }

  /** Resolves once every outcome published so far shows in the diagnostics. */
  settled(): Promise<void> {
    return this.queue;
  }

  dispose(): void {
    vscode.Disposable.from(...this.subscriptions).dispose();
  }

  private async handle(outcome: RequestOutcome): Promise<void> {
    const { response } = outcome;
    const targets = [...requestFiles(outcome.tool, outcome.input).map((file) => file.filePath), ...responsePaths(response)]
      .map(absoluteTarget)
      .filter((path): path is string => path !== undefined);
    if (response.success) {
      this.failures.clearTargets(targets);
      return;
    }
    if (NOT_PROBLEMS.has(response.error_code)) {
      return;
    }
    const origin = this.failures.originOf(outcome.input);
    const request = {
      tool: outcome.tool,
      input: outcome.input,
      envelope: response,
      source: outcome.source,
      ...(origin ? { origin } : {}),
      targets: [...new Set(targets)],
    };
    const added = this.failures.add(request, await draftFailures(request));
    for (const failure of added) {
      if (failure.status === 'failed' && !failure.placement) {
        this.notify(failure);
      }
    }
  }

  /** A failure with no place in any document: a notification offering the same fixes. */
  private notify(failure: Failure): void {
    const fixes = quickFixesFor(failure).filter((fix) => fix.command !== COMMANDS.dismissDiagnostic);
    void vscode.window
      .showWarningMessage(`Multi-Edit · ${failure.code}: ${failure.message}`, ...fixes.map((fix) => fix.title))
      .then((choice) => {
        const fix = fixes.find((candidate) => candidate.title === choice);
        return fix ? vscode.commands.executeCommand(fix.command, failureRef(failure)) : undefined;
      });
  }
}

export function registerDiagnostics(context: vscode.ExtensionContext, services: Services): FailureFeed {
  const failures = new FailureStore(historyLimit);
  const feed = new FailureFeed(failures, services);
  context.subscriptions.push(failures, feed);
  return feed;
}
