/** Re-run the request: the failed request again, as it was given, against the files as they are now. */
import { COMMANDS } from '../platform/ids';
import type { EngineResponse } from '../../core/index';
import { requestFromArgument, type EditorCommand, type EditorDeps } from './editorCommand';
import { runWithProgress } from './runRequest';

export function rerunRequestCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.rerunRequest,
    async run(argument: unknown): Promise<EngineResponse | undefined> {
      const request = requestFromArgument(deps, argument);
      return request && runWithProgress(deps, request.tool, request.input, 'quickfix');
    },
  };
}
