/** Preview request: the request's changes in the Refactor Preview; applying there commits them. */
import { COMMANDS } from '../../core/ids';
import type { EngineResponse } from '../../core/schemas';
import { isRecord } from '../diagnostics/requestFiles';
import { previewRequest } from '../preview/previewRequest';
import type { EditorCommand, EditorDeps } from './editorCommand';
import { resolveRequest } from './requestSource';
import { reportResponse } from './runRequest';

/** The preview is the dry run, so a request's own dry_run flag does not apply here. */
function asRealRun(input: unknown): unknown {
  if (!isRecord(input) || !('dry_run' in input)) {
    return input;
  }
  const request: Record<string, unknown> = { ...input };
  delete request.dry_run;
  return request;
}

export function previewRequestCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.previewRequest,
    async run(argument: unknown): Promise<EngineResponse | undefined> {
      const request = await resolveRequest(argument);
      if (!request) {
        return undefined;
      }
      const input = asRealRun(request.input);
      if (request.origin) {
        deps.feed.failures.rememberOrigin(input, request.origin);
      }
      const response = await previewRequest(deps.services, request.tool, input);
      await deps.feed.settled();
      reportResponse(deps, response);
      return response;
    },
  };
}
