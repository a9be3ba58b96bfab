/** Copy hints: the failure's recovery hints, one per line, to the clipboard. */
import * as vscode from 'vscode';
import { COMMANDS } from '../platform/ids';
import { failureFromArgument, type EditorCommand, type EditorDeps } from './editorCommand';

export function copyHintsCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.copyHints,
    async run(argument: unknown): Promise<void> {
      const failure = failureFromArgument(deps, argument);
      if (failure) {
        const hints = failure.hints.length > 0 ? failure.hints : failure.request.envelope.recovery_hints;
        await vscode.env.clipboard.writeText(hints.join('\n'));
        void vscode.window.showInformationMessage(hints.length === 1 ? vscode.l10n.t('Multi-Edit: copied 1 recovery hint.') : vscode.l10n.t('Multi-Edit: copied {0} recovery hints.', hints.length));
      }
    },
  };
}
