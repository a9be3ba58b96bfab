/**
 * Retry this edit with replace_all: re-runs the failed request with that one edit
 * changed, after a modal confirmation that says how many replacements it makes.
 * The setting multiEdit.diagnostics.confirmReplaceAll turns the question off.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../platform/ids';
import { type EngineResponse, type RequestPlan } from '../../core/index';
import { replacementsLabel, timesLabel } from '../platform/counts';
import type { Failure } from '../problems/failure';
import { withReplaceAll } from '../run/requestVariants';
import { pathKey } from '../platform/workspacePaths';
import { failureFromArgument, type EditorCommand, type EditorDeps } from './editorCommand';
import { plannedChanges, reportWhenSettled } from './runRequest';


async function confirmed(deps: EditorDeps, failure: Failure, plan: RequestPlan): Promise<boolean> {
  if (!deps.services.settings.current().confirmReplaceAll) {
    return true;
  }
  const target = failure.targetPath === undefined ? undefined : pathKey(failure.targetPath);
  const file = plan.files.find((planned) => target !== undefined && pathKey(planned.path) === target) ?? plan.files[0];
  const total = plan.files.reduce((sum, planned) => sum + planned.replacements, 0);
  const occurrences = failure.totalMatches ?? 0;
  const replaceAll = vscode.l10n.t('Replace All');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Retry edit {0} with replace_all?', (failure.editIndex ?? 0) + 1),
    {
      modal: true,
      detail: `${vscode.l10n.t('Its old_string occurs {0} in {1}; every occurrence will be replaced.', timesLabel(occurrences), file.displayPath)} `
        + vscode.l10n.t('The request will make {0} in all.', replacementsLabel(total)),
    },
    replaceAll,
  );
  return answer === replaceAll;
}

export function retryWithReplaceAllCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.retryWithReplaceAll,
    /** Resolves to the response, or undefined when nothing ran (no such failure, or the user said no). */
    async run(argument: unknown): Promise<EngineResponse | undefined> {
      const failure = failureFromArgument(deps, argument);
      if (!failure || failure.code !== 'AMBIGUOUS_MATCH' || failure.status !== 'failed' || failure.editIndex === undefined) {
        return undefined;
      }
      const failed = failure.request;
      if (!failed.request) {
        return undefined;
      }
      const input = withReplaceAll(failed.request, failure.fileIndex, failure.editIndex);
      const options = { source: 'quickfix' as const, ...(failed.origin ? { origin: failed.origin } : {}) };
      const planned = await deps.services.runner.plan(failed.tool, input, options);
      if (planned.ok && !(await confirmed(deps, failure, planned.plan))) {
        return undefined;
      }
      if (!planned.ok) {
        return reportWhenSettled(deps, planned.record);
      }
      const record = await deps.services.runner.commit(planned.plan, planned.id, options);
      return reportWhenSettled(deps, record, plannedChanges(planned.plan));
    },
  };
}
