/** Quick fixes for Multi-Edit's own diagnostics, and nothing else. */
import * as vscode from 'vscode';
import { failureRef } from './failure';
import type { FailureRegistry } from './failureRegistry';
import { quickFixesFor } from './quickFixes';

export class FailureCodeActions implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = {
    providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
  };

  constructor(private readonly failures: FailureRegistry) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    const shownForRequest = new Set<string>();
    for (const diagnostic of context.diagnostics) {
      const failure = this.failures.failureFor(document.uri, diagnostic);
      if (!failure) {
        continue;
      }
      for (const fix of quickFixesFor(failure)) {
        const requestKey = `${failure.request.id}:${fix.command}`;
        if (fix.scope === 'request' && shownForRequest.has(requestKey)) {
          continue;
        }
        shownForRequest.add(requestKey);
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [diagnostic];
        action.isPreferred = fix.preferred;
        action.command = { command: fix.command, title: fix.title, arguments: [failureRef(failure)] };
        actions.push(action);
      }
    }
    return actions;
  }
}

export function registerFailureCodeActions(context: vscode.ExtensionContext, failures: FailureRegistry): void {
  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider(
      [{ scheme: 'file' }, { scheme: 'untitled' }],
      new FailureCodeActions(failures),
      FailureCodeActions.metadata,
    ),
  );
}
