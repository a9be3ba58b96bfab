/** Copy envelope: the failed request's envelope JSON to the clipboard. */
import * as vscode from 'vscode';
import { COMMANDS } from '../platform/ids';
import { requestFromArgument, type EditorCommand, type EditorDeps } from './editorCommand';
import { responseJson } from './showEnvelope';

export function copyEnvelopeCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.copyEnvelope,
    async run(argument: unknown): Promise<void> {
      const request = requestFromArgument(deps, argument);
      if (request) {
        await vscode.env.clipboard.writeText(responseJson(request.envelope));
        void vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: copied the {0} envelope.', request.envelope.error_code));
      }
    },
  };
}
