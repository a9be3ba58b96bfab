/** Undo Last Request: takes back the last request that changed files, once its notification is gone. */
import * as vscode from 'vscode';
import { COMMANDS } from '../platform/ids';
import type { UndoOutcome } from '../run/lastEdit';
import type { EditorCommand, EditorDeps } from './editorCommand';

export function undoLastRequestCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.undoLastRequest,
    async run(): Promise<UndoOutcome> {
      // The request_id it has in the request history: an undo here marks it undone there too (lastEdit.ts).
      const historyId = deps.services.lastEdit.historyId;
      const outcome = await deps.services.lastEdit.undo();
      if (outcome === 'nothing') {
        void vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: no request to undo; the last one that changed files was undone already, or none did.'));
      } else if (outcome === 'changed') {
        void vscode.window.showWarningMessage(vscode.l10n.t('Multi-Edit: the files changed after the last request, so it was not undone; use Undo in the editor.'));
      }
      deps.services.log.info(`Undo Last Request: ${outcome}${historyId !== undefined ? ` (request ${historyId})` : ''}`);
      return outcome;
    },
  };
}
