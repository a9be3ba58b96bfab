/**
 * What the language-model tools share: the invocation message and confirmation
 * (prepareInvocation), and an invoke that runs the request through the runner and
 * returns the response as a text part, followed by the part that names its record
 * (recordIdPart.ts). Failures are returned, never thrown: Copilot keeps only the
 * message of a thrown error, and the envelope is the point.
 */
import * as vscode from 'vscode';
import { formatForModel, RepeatedFailures, type ToolName } from '../../core/index';
import { leadsOutsideWorkspace, resolveRequestedPath } from '../../shared/pathPolicy';
import { editsLabel, filesLabel } from '../platform/counts';
import type { Services } from '../run/services';
import type { MultiEditSettings } from '../platform/settings';
import { absoluteTarget, displayPath, pathPolicyConfig } from '../platform/workspacePaths';
import { summarizeRequest, type RequestedFile, type RequestSummary } from '../run/requestSummary';
import { PreparedCalls } from './preparedCalls';
import { recordIdText } from './recordIdPart';

/** Why the user is asked before the tool runs, or undefined when they are not. */
export type ConfirmationReason = 'outsideWorkspace' | 'always' | undefined;

export function confirmationReason(settings: MultiEditSettings, outsideTargets: number): ConfirmationReason {
  switch (settings.confirmation) {
    case 'never':
      return undefined;
    case 'always':
      return 'always';
    case 'outsideWorkspace':
      return outsideTargets > 0 && !settings.allowOutsideWorkspace ? 'outsideWorkspace' : undefined;
  }
}

export abstract class EditTool implements vscode.LanguageModelTool<unknown> {
  protected abstract readonly name: ToolName;
  private readonly preparedCalls = new PreparedCalls();

  /** The tools of one window are one session for the loop breaker: a failure repeated there escalates. */
  constructor(protected readonly services: Services, private readonly repeats: RepeatedFailures = new RepeatedFailures()) {}

  /** The progress line shown while the tool runs. */
  protected abstract invocationMessage(request: RequestSummary): string;

  /**
   * Reads the request with the engine's own parser to name its targets. A request that
   * does not parse gets a plain message and no confirmation: the engine refuses it
   * before anything is read or written. The reading, and whether the question named
   * targets outside the workspace, go on to invoke (preparedCalls.ts).
   */
  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): Promise<vscode.PreparedToolInvocation> {
    const reading = this.services.runner.read(this.name, options.input);
    const parsed = await reading;
    if (!parsed.ok) {
      this.preparedCalls.prepared(this.name, options.input, { reading, outsideWorkspaceConfirmed: false });
      return { invocationMessage: `Checking a ${this.name} request` };
    }
    const settings = this.services.settings.current();
    const request = summarizeRequest(parsed.request);
    const outside = await this.outsideTargets(settings, request);
    const reason = confirmationReason(settings, outside.size);
    // VS Code calls invoke only once the user accepted the question: targets outside the workspace it named are confirmed.
    this.preparedCalls.prepared(this.name, options.input, { reading, outsideWorkspaceConfirmed: reason !== undefined && outside.size > 0 });
    const prepared: vscode.PreparedToolInvocation = { invocationMessage: this.invocationMessage(request) };
    if (reason === undefined) {
      return prepared;
    }
    return { ...prepared, confirmationMessages: confirmationMessages(request, outside, reason) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const prepared = this.preparedCalls.take(this.name, options.input);
    const outsideWorkspaceConfirmed = prepared?.outsideWorkspaceConfirmed ?? false;
    const record = await this.services.runner.run(this.name, options.input, { source: 'tool', token, outsideWorkspaceConfirmed, repeats: this.repeats }, prepared?.reading);
    return new vscode.LanguageModelToolResult([
      new vscode.LanguageModelTextPart(formatForModel(record.response)),
      new vscode.LanguageModelTextPart(recordIdText(record.id)),
    ]);
  }

  /** The requested paths outside every workspace folder, as named or through a symbolic link that leads out. */
  private async outsideTargets(settings: MultiEditSettings, request: RequestSummary): Promise<Set<string>> {
    const config = pathPolicyConfig(settings);
    const outside = new Set<string>();
    for (const file of request.files) {
      const resolved = resolveRequestedPath(file.filePath, config.folders);
      if (resolved.ok && (await leadsOutsideWorkspace(resolved.path, config))) {
        outside.add(file.filePath);
      }
    }
    return outside;
  }
}

/** A requested path as the user reads it: workspace-relative once resolved, else as given. */
export function describeTarget(file: RequestedFile): string {
  const target = absoluteTarget(file.filePath);
  return target === undefined ? file.filePath : displayPath(target);
}

/** Files named in a progress message before "and N more". */
const NAMED_FILES = 3;

/** "a.ts, b.ts, c.ts and 2 more": the request's first files by name. */
export function namedFiles(request: RequestSummary): string {
  const named = request.files.slice(0, NAMED_FILES).map(describeTarget);
  const more = request.files.length - named.length;
  return more > 0 ? vscode.l10n.t('{0} and {1} more', named.join(', '), more) : named.join(', ');
}

/** The progress line of a request: "Applying …", or "Checking … (dry run)". */
export function progressLine(request: RequestSummary, scope: string): string {
  return request.dryRun ? vscode.l10n.t('Checking {0} (dry run)', scope) : vscode.l10n.t('Applying {0}', scope);
}

function confirmationMessages(request: RequestSummary, outside: ReadonlySet<string>, reason: Exclude<ConfirmationReason, undefined>): vscode.LanguageModelToolConfirmationMessages {
  const title = reason === 'outsideWorkspace'
    ? vscode.l10n.t('Edit {0} outside the workspace?', filesLabel(outside.size))
    : vscode.l10n.t('Apply {0} with Multi-Edit?', editsLabel(request.totalEdits));
  const message = new vscode.MarkdownString();
  const edits = `**${editsLabel(request.totalEdits)}**`;
  const files = `**${filesLabel(request.files.length)}**`;
  message.appendMarkdown(`${request.dryRun
    ? vscode.l10n.t('Multi-Edit will check (dry run: nothing is written) {0} in {1}:', edits, files)
    : vscode.l10n.t('Multi-Edit will apply {0} in {1}:', edits, files)}\n\n`);
  for (const file of request.files) {
    message.appendMarkdown('- ');
    message.appendText(outside.has(file.filePath) ? file.filePath : describeTarget(file));
    message.appendMarkdown(` (${editsLabel(file.edits)})${outside.has(file.filePath) ? ` **${vscode.l10n.t('outside the workspace')}**` : ''}\n`);
  }
  if (reason === 'outsideWorkspace') {
    message.appendMarkdown(`\n${vscode.l10n.t('Continue allows these files for this request only; the setting {0} allows them always.', '`multiEdit.allowOutsideWorkspace`')}`);
  }
  return { title, message };
}
