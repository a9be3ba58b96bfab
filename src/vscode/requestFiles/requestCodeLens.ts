/**
 * CodeLens above the request in a *.multiedit.json file: Apply and Preview, and once it has run
 * here, its last outcome ("Applied 3 edits", or the error code), which opens the problems.
 */
import * as vscode from 'vscode';
import { COMMANDS, PATCH_FILE_GLOB, REQUEST_FILE_GLOB } from '../platform/ids';
import { NearMissActions } from './nearMissActions';
import type { RequestFileMarkers } from './requestFileMarkers';

export class RequestCodeLens implements vscode.CodeLensProvider {
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(private readonly markers: RequestFileMarkers) {
    this.onDidChangeCodeLenses = (listener, thisArgs, disposables) => markers.onDidChange(() => listener.call(thisArgs), undefined, disposables);
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const opening = document.getText().search(/\S/);
    const line = opening === -1 ? 0 : document.positionAt(opening).line;
    const range = document.lineAt(line).range;
    const lenses = [
      new vscode.CodeLens(range, { title: `$(play) ${vscode.l10n.t('Apply')}`, tooltip: vscode.l10n.t('Multi-Edit: apply this request'), command: COMMANDS.applyRequest, arguments: [document.uri] }),
      new vscode.CodeLens(range, { title: `$(diff) ${vscode.l10n.t('Preview')}`, tooltip: vscode.l10n.t('Multi-Edit: preview this request in the Refactor Preview'), command: COMMANDS.previewRequest, arguments: [document.uri] }),
    ];
    const last = this.markers.lastRecord(document.uri)?.response;
    if (last) {
      const title = last.success ? `$(check) ${last.summary}` : `$(error) ${vscode.l10n.t('Last run: {0}', last.error_code)}`;
      const command = last.success ? COMMANDS.showLastEnvelope : 'workbench.actions.view.problems';
      lenses.push(new vscode.CodeLens(range, { title, command }));
    }
    return lenses;
  }
}

export function registerRequestFiles(context: vscode.ExtensionContext, markers: RequestFileMarkers): void {
  context.subscriptions.push(
    markers,
    vscode.languages.registerCodeLensProvider([{ pattern: `**/${REQUEST_FILE_GLOB}` }, { pattern: `**/${PATCH_FILE_GLOB}` }], new RequestCodeLens(markers)),
    vscode.languages.registerCodeActionsProvider({ pattern: `**/${REQUEST_FILE_GLOB}` }, new NearMissActions(markers), NearMissActions.metadata),
  );
}
