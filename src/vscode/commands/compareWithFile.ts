/**
 * Compare with the file: a diff editor of the failed edit's old_string (left) against the
 * file's text where it came closest (right), whitespace made visible on both sides, so a
 * tab against spaces or a trailing space shows as a change.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../platform/ids';
import { nearMissComparisonOf, visibleWhitespace } from '../problems/nearMissComparison';
import { failureFromArgument, type EditorCommand, type EditorDeps } from './editorCommand';

export function compareWithFileCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.compareWithFile,
    async run(argument: unknown): Promise<void> {
      const failure = failureFromArgument(deps, argument);
      const document = failure?.placement && await vscode.workspace.openTextDocument(failure.placement.uri);
      const nearMiss = failure && document ? nearMissComparisonOf(failure, document) : undefined;
      if (!failure || !nearMiss) {
        if (failure) {
          void vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: only an old_string that was not found can be compared with the file.'));
        }
        return;
      }
      // Plain text: with whitespace drawn as symbols the code is no longer valid in its language.
      const name = `${failure.request.id}-edit-${(failure.editIndex ?? 0) + 1}`;
      const expected = deps.documents.put(`compare/${name}/old_string.txt`, visibleWhitespace(nearMiss.oldString));
      const actual = deps.documents.put(`compare/${name}/file-text.txt`, visibleWhitespace(nearMiss.fileText));
      const file = vscode.workspace.asRelativePath(nearMiss.uri);
      const title = vscode.l10n.t('old_string ↔ {0}, line {1} (· space, → tab)', file, nearMiss.firstLine + 1);
      await vscode.commands.executeCommand('vscode.diff', expected, actual, title, { preview: true });
    },
  };
}
