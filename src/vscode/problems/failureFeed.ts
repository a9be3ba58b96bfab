/**
 * Feeds the diagnostics from the RequestBus: every surface publishes there, so a
 * failure from a tool call, a command or a quick fix shows the same way. Outcomes
 * are handled one at a time, in the order they finished, so a success never races
 * ahead of the failure it supersedes.
 */
import * as vscode from 'vscode';
import { userChoseOutcome } from '../../core/index';
import { COMMANDS } from '../platform/ids';
import type { Services } from '../run/services';
import { affectsSetting } from '../platform/settings';
import { absoluteTarget } from '../platform/workspacePaths';
import type { RequestRecord } from '../run/requestRecord';
import { failureRef, type Failure } from './failure';
import { FailureRegistry } from './failureRegistry';
import { draftFailures } from './placement';
import { quickFixesFor } from './quickFixes';

/**
 * The absolute paths a finished request concerns, as the engine resolved them (a move's source and
 * destination); a request that did not parse concerns at most the file its envelope names.
 */
function targetsOf(record: RequestRecord): string[] {
  const { request, response } = record;
  if (!request) {
    const named = response.success ? undefined : absoluteTarget(response.file_path);
    return named === undefined ? [] : [named];
  }
  return [...new Set(request.files.flatMap((file) => [file.path, file.movePath].filter((path): path is string => path !== undefined)))];
}

export class FailureFeed implements vscode.Disposable {
  private queue: Promise<void> = Promise.resolve();
  private readonly subscriptions: vscode.Disposable[];

  constructor(readonly failures: FailureRegistry, services: Services) {
    this.subscriptions = [
      services.bus.onDidFinish((record) => {
        this.queue = this.queue.then(() => this.handle(record)).catch((error: unknown) => {
          services.log.error(`Could not show the diagnostics of ${record.tool} request #${record.id}: ${String(error)}`);
        });
      }),
      vscode.workspace.onDidChangeTextDocument((event) => failures.applyTextChanges(event.document.uri, event.contentChanges)),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsSetting((section) => event.affectsConfiguration(section), 'historyLimit')) {
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

  private async handle(record: RequestRecord): Promise<void> {
    const { response } = record;
    const targets = targetsOf(record);
    if (response.success) {
      this.failures.clearTargets(targets);
      return;
    }
    if (userChoseOutcome(response)) {
      return;
    }
    if (record.origin && (response.validation_issues?.length ?? 0) > 0) {
      // The request file's own markers show each of these problems on its field: shown once.
      return;
    }
    const failed = { ...record, envelope: response, targets };
    const added = this.failures.add(failed, await draftFailures(failed));
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
  const failures = new FailureRegistry(() => services.settings.current().historyLimit);
  const feed = new FailureFeed(failures, services);
  context.subscriptions.push(failures, feed);
  return feed;
}
