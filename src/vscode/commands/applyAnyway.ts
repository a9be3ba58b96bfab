/**
 * Apply anyway: runs a request refused with SYNTAX_REGRESSION again with the syntax
 * check at 'warn', after a modal confirmation that names the file and the line
 * (multiEdit.diagnostics.confirmApplyAnyway turns the question off).
 */
import * as vscode from 'vscode';
import { type EngineResponse, requestInput } from '../../core/index';
import { COMMANDS } from '../platform/ids';
import { failureFromArgument, type EditorCommand, type EditorDeps } from './editorCommand';
import { runWithProgress } from './runRequest';

export function applyAnywayCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.applyAnyway,
    /** Resolves to the response, or undefined when nothing ran (no such failure, or the user said no). */
    async run(argument: unknown): Promise<EngineResponse | undefined> {
      const failure = failureFromArgument(deps, argument);
      const failed = failure?.request;
      if (!failure || failure.code !== 'SYNTAX_REGRESSION' || !failed?.request) {
        return undefined;
      }
      if (deps.services.settings.current().confirmApplyAnyway && !(await confirmed(failure.targetPath, failed.envelope.context?.syntax_errors?.[0]?.line))) {
        return undefined;
      }
      const request = { tool: failed.tool, input: requestInput(failed.request), ...(failed.origin ? { origin: failed.origin } : {}) };
      return runWithProgress(deps, request, 'quickfix', { syntaxCheck: 'warn' });
    },
  };
}

async function confirmed(targetPath: string | undefined, line: number | undefined): Promise<boolean> {
  const apply = vscode.l10n.t('Apply Anyway');
  const file = targetPath === undefined ? '' : vscode.workspace.asRelativePath(targetPath);
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Apply the request although it leaves {0} with a syntax error?', file),
    {
      modal: true,
      detail: line === undefined
        ? vscode.l10n.t('The file will not parse until it is fixed.')
        : vscode.l10n.t('The file will not parse at line {0} until it is fixed. The request runs again with the syntax check set to warn.', line),
    },
    apply,
  );
  return answer === apply;
}
