/** Show last envelope: the response of the most recent request from any surface, read-only. */
import * as vscode from 'vscode';
import { COMMANDS } from '../platform/ids';
import type { EditorCommand, EditorDeps } from './editorCommand';
import { showResponse } from './showEnvelope';

export function showLastEnvelopeCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.showLastEnvelope,
    async run(): Promise<vscode.Uri | undefined> {
      const last = deps.services.bus.lastOutcome;
      if (!last) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: no request has finished yet.'));
        return undefined;
      }
      const editor = await showResponse(deps, 'last-response', last.response);
      return editor.document.uri;
    },
  };
}
