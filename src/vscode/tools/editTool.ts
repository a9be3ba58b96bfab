/**
 * What both language-model tools share: the invocation message and confirmation
 * (prepareInvocation), and an invoke that runs the request through the runner and
 * returns the response as one text part. Failures are returned, never thrown:
 * Copilot keeps only the message of a thrown error, and the envelope is the point.
 */
import * as vscode from 'vscode';
import { formatForModel, plural } from '../../core/format';
import type { ToolName } from '../../core/ids';
import { absoluteTarget } from '../diagnostics/targetPaths';
import { isOutsideWorkspace, resolveRequestedPath } from '../../shared/pathPolicy';
import { displayPath, pathPolicyConfig } from '../requestRunner';
import type { Services } from '../services';
import type { MultiEditSettings } from '../settings';
import { summarizeRequest, type RequestedFile, type RequestSummary } from './requestSummary';

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

  constructor(protected readonly services: Services) {}

  /** The progress line shown while the tool runs. */
  protected abstract invocationMessage(request: RequestSummary): string;

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const settings = this.services.settings.current();
    const request = summarizeRequest(this.name, options.input);
    const outside = this.outsideTargets(settings, request);
    const reason = confirmationReason(settings, outside.size);
    const prepared: vscode.PreparedToolInvocation = { invocationMessage: this.invocationMessage(request) };
    if (reason === undefined) {
      return prepared;
    }
    return { ...prepared, confirmationMessages: confirmationMessages(request, outside, reason) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const settings = this.services.settings.current();
    const request = summarizeRequest(this.name, options.input);
    const outside = this.outsideTargets(settings, request);
    // VS Code only calls invoke after the user accepted the confirmation that
    // prepareInvocation asked for, so targets it listed are allowed for this call.
    const outsideWorkspaceConfirmed = outside.size > 0 && confirmationReason(settings, outside.size) !== undefined;
    const response = await this.services.runner.run(this.name, options.input, { source: 'tool', token, outsideWorkspaceConfirmed });
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(formatForModel(response))]);
  }

  /** The requested paths that resolve to a place outside every workspace folder. */
  private outsideTargets(settings: MultiEditSettings, request: RequestSummary): Set<string> {
    const config = pathPolicyConfig(settings);
    const outside = new Set<string>();
    for (const file of request.files) {
      const resolved = resolveRequestedPath(file.filePath, config.folders);
      if (resolved.ok && isOutsideWorkspace(resolved.path, config)) {
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

function confirmationMessages(request: RequestSummary, outside: ReadonlySet<string>, reason: Exclude<ConfirmationReason, undefined>): vscode.LanguageModelToolConfirmationMessages {
  const title = reason === 'outsideWorkspace'
    ? `Edit ${plural(outside.size, 'file')} outside the workspace?`
    : `Apply ${plural(request.totalEdits, 'edit')} with Multi-Edit?`;
  const message = new vscode.MarkdownString();
  const action = request.dryRun ? 'check (dry run: nothing is written)' : 'apply';
  message.appendMarkdown(`Multi-Edit will ${action} **${plural(request.totalEdits, 'edit')}** in **${plural(request.files.length, 'file')}**:\n\n`);
  for (const file of request.files) {
    message.appendMarkdown('- ');
    message.appendText(outside.has(file.filePath) ? file.filePath : describeTarget(file));
    message.appendMarkdown(` (${plural(file.edits, 'edit')})${outside.has(file.filePath) ? ' **outside the workspace**' : ''}\n`);
  }
  if (reason === 'outsideWorkspace') {
    message.appendMarkdown('\nContinue allows these files for this request only; the setting `multiEdit.allowOutsideWorkspace` allows them always.');
  }
  return { title, message };
}
