/** Registers every editor command: the palette commands and the ones quick fixes run. */
import * as vscode from 'vscode';
import { applyAnywayCommand } from './applyAnyway';
import { applyRequestCommand } from './applyRequest';
import { clearDiagnosticsCommand } from './clearDiagnostics';
import { compareWithFileCommand } from './compareWithFile';
import { copyEnvelopeCommand } from './copyEnvelope';
import { copyHintsCommand } from './copyHints';
import { dismissDiagnosticCommand } from './dismissDiagnostic';
import type { EditorDeps } from './editorCommand';
import { isFailureRef } from '../problems/failure';
import { openFailedRequestCommand } from './openFailedRequest';
import { peekMatchesCommand } from './peekMatches';
import { previewRequestCommand } from './previewRequest';
import { rerunRequestCommand } from './rerunRequest';
import { retryWithReplaceAllCommand } from './retryWithReplaceAll';
import { showEnvelopeCommand } from './showEnvelope';
import { showLastEnvelopeCommand } from './showLastEnvelope';
import { showRequestHistoryCommand } from './showRequestHistory';
import { undoLastRequestCommand } from './undoLastRequest';
import { useNearMatchCommand } from './useNearMatch';

/** `onFailureAction` hears of each command run on a shown problem (a quick fix, a hover or notification link). */
export function registerEditorCommands(context: vscode.ExtensionContext, deps: EditorDeps, onFailureAction?: () => void): void {
  const commands = [
    applyRequestCommand, previewRequestCommand, showLastEnvelopeCommand, clearDiagnosticsCommand, peekMatchesCommand,
    retryWithReplaceAllCommand, openFailedRequestCommand, showEnvelopeCommand, copyEnvelopeCommand, copyHintsCommand,
    rerunRequestCommand, dismissDiagnosticCommand, compareWithFileCommand, undoLastRequestCommand, showRequestHistoryCommand,
    useNearMatchCommand, applyAnywayCommand,
  ].map((create) => create(deps));
  for (const command of commands) {
    context.subscriptions.push(vscode.commands.registerCommand(command.id, (...args: unknown[]) => {
      if (isFailureRef(args[0])) {
        onFailureAction?.();
      }
      return command.run(...args);
    }));
  }
}
