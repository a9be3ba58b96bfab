/** Preview request: the request's changes in the Refactor Preview; applying there commits them. */
import { COMMANDS } from '../platform/ids';
import type { EngineResponse } from '../../core/index';
import { withDryRun } from '../diagnostics/requestFiles';
import { previewRequest } from '../preview/previewRequest';
import type { EditorCommand, EditorDeps } from './editorCommand';
import { requestToRun } from './requestSource';
import { reportWhenSettled } from './runRequest';

/** The preview is the dry run, so a request's own dry_run flag does not apply here. */
function asRealRun(input: unknown): unknown {
  return withDryRun(input, false);
}

export function previewRequestCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.previewRequest,
    async run(argument: unknown): Promise<EngineResponse | undefined> {
      const request = await requestToRun(deps, argument, asRealRun);
      if (!request) {
        return undefined;
      }
      const response = await previewRequest(deps.services, request.tool, request.input);
      return reportWhenSettled(deps, response);
    },
  };
}
