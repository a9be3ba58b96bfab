/**
 * The near-miss fix of a request file: writes old_string from the file's own text at the near match
 * (or removes an edit already applied), shows the request before and after in a diff, and on the
 * person's word saves it and applies the request again.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../platform/ids';
import { isNearMissFix, type NearMissFix, requestWithFix } from '../requestFiles/nearMissFix';
import type { EditorCommand, EditorDeps } from './editorCommand';

interface NearMissArgument {
  readonly uri: string;
  readonly fix: NearMissFix;
}

function isNearMissArgument(value: unknown): value is NearMissArgument {
  const argument = value as Partial<NearMissArgument> | undefined;
  return typeof argument === 'object' && argument !== null && typeof argument.uri === 'string' && isNearMissFix(argument.fix);
}

/** The file's text at the near match, as the editor holds it (unsaved changes included). */
async function nearMatchText(fix: Extract<NearMissFix, { kind: 'useFileText' }>): Promise<string> {
  const target = await vscode.workspace.openTextDocument(vscode.Uri.file(fix.filePath));
  const { start_line: startLine, start_column: startColumn, end_line: endLine, end_column: endColumn } = fix.nearMatch;
  return target.getText(new vscode.Range(startLine - 1, startColumn - 1, endLine - 1, endColumn - 1));
}


export function useNearMatchCommand(deps: EditorDeps): EditorCommand {
  let proposals = 0;
  return {
    id: COMMANDS.useNearMatch,
    /** Resolves to the response of the request run again, or undefined when nothing ran. */
    async run(argument: unknown): Promise<unknown> {
      if (!isNearMissArgument(argument)) {
        return undefined;
      }
      const { fix } = argument;
      const request = await vscode.workspace.openTextDocument(vscode.Uri.parse(argument.uri));
      const before = request.getText();
      const nearText = fix.kind === 'useFileText' ? await nearMatchText(fix) : '';
      const after = requestWithFix(before, fix, nearText, request.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
      const name = path.basename(request.uri.fsPath);
      const proposed = deps.documents.put(`proposed-${++proposals}/${name}`, after);
      await vscode.commands.executeCommand('vscode.diff', request.uri, proposed, vscode.l10n.t('{0} (now ↔ fixed)', name), { preview: true });
      const applyAgain = vscode.l10n.t('Save and Apply Again');
      const question = fix.kind === 'removeEdit'
        ? vscode.l10n.t('Remove this edit from the request, then apply the request again?')
        : vscode.l10n.t('Write the file\'s text into old_string, then apply the request again?');
      const answer = await vscode.window.showInformationMessage(question, { modal: true, detail: vscode.l10n.t('The diff shows the request now and as it would be.') }, applyAgain);
      if (answer !== applyAgain || request.getText() !== before) {
        return undefined;
      }
      const edit = new vscode.WorkspaceEdit();
      edit.replace(request.uri, new vscode.Range(request.positionAt(0), request.positionAt(before.length)), after);
      await vscode.workspace.applyEdit(edit);
      await request.save();
      return vscode.commands.executeCommand(COMMANDS.applyRequest, request.uri);
    },
  };
}
