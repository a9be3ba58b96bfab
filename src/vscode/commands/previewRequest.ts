/** Preview request: the request's changes in the Refactor Preview; applying there commits them. */
import type { EngineResponse } from '../../core/index';
import { COMMANDS } from '../platform/ids';
import { reviewInRefactorPreview } from '../preview/previewReview';
import type { EditorCommand, EditorDeps } from './editorCommand';
import { requestToRun } from './requestSource';
import { plannedChanges, reportWhenSettled } from './runRequest';

export function previewRequestCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.previewRequest,
    async run(argument: unknown): Promise<EngineResponse | undefined> {
      const request = await requestToRun(argument);
      if (!request) {
        return undefined;
      }
      const { record, plan } = await deps.services.runner.runReviewed(request.tool, request.input, { source: 'command', ...(request.origin ? { origin: request.origin } : {}) }, reviewInRefactorPreview);
      return reportWhenSettled(deps, record, plan ? plannedChanges(plan) : []);
    },
  };
}
