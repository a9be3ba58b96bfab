/** Apply request: runs a request from the editor, a request file or another extension. */
import { COMMANDS } from '../../core/ids';
import type { EngineResponse } from '../../core/schemas';
import type { EditorCommand, EditorDeps } from './editorCommand';
import { resolveRequest } from './requestSource';
import { runWithProgress } from './runRequest';

export function applyRequestCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.applyRequest,
    /** Resolves to the response, or undefined when there was no request to run. */
    async run(argument: unknown): Promise<EngineResponse | undefined> {
      const request = await resolveRequest(argument);
      if (!request) {
        return undefined;
      }
      if (request.origin) {
        deps.feed.failures.rememberOrigin(request.input, request.origin);
      }
      return runWithProgress(deps, request.tool, request.input, 'command');
    },
  };
}
