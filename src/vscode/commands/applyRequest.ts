/** Apply request: runs a request from the editor, a request file or another extension. */
import type { EngineResponse } from '../../core/index';
import { COMMANDS } from '../platform/ids';
import type { EditorCommand, EditorDeps } from './editorCommand';
import { requestToRun } from './requestSource';
import { runWithProgress } from './runRequest';

export function applyRequestCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.applyRequest,
    /** Resolves to the response, or undefined when there was no request to run. */
    async run(argument: unknown): Promise<EngineResponse | undefined> {
      const request = await requestToRun(argument);
      return request && runWithProgress(deps, request, 'command');
    },
  };
}
