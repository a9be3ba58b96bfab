/** Quick fixes on a near miss marked in a request file: "Use the file's text for old_string", or "Remove this edit". */
import * as vscode from 'vscode';
import { COMMANDS } from '../platform/ids';
import type { RequestFileMarkers } from './requestFileMarkers';

export class NearMissActions implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly markers: RequestFileMarkers) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    return this.markers.fixesAt(document, range).map(({ fix, range: markerAt }) => {
      const title = fix.kind === 'removeEdit' ? vscode.l10n.t('Remove this edit') : vscode.l10n.t('Use the file\'s text for old_string');
      const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      action.diagnostics = context.diagnostics.filter((diagnostic) => diagnostic.range.isEqual(markerAt));
      action.isPreferred = true;
      action.command = { command: COMMANDS.useNearMatch, title, arguments: [{ uri: document.uri.toString(), fix }] };
      return action;
    });
  }
}
