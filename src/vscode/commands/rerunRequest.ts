/** Re-run the request: the failed request again, as the engine parsed it, against the files as they are now. */
import * as vscode from 'vscode';
import { type EngineResponse, requestInput } from '../../core/index';
import { COMMANDS } from '../platform/ids';
import type { FailedRequest } from '../problems/failure';
import { requestFromArgument, type EditorCommand, type EditorDeps } from './editorCommand';
import { requestToRun, type RequestToRun } from './requestSource';
import { runWithProgress } from './runRequest';

/** A request that did not parse runs again from its file, which may have been fixed since; otherwise there is nothing to run. */
async function again(failed: FailedRequest): Promise<RequestToRun | undefined> {
  if (failed.request) {
    return { tool: failed.tool, input: requestInput(failed.request), ...(failed.origin ? { origin: failed.origin } : {}) };
  }
  if (failed.origin) {
    return requestToRun(failed.origin.uri);
  }
  void vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: that request did not fit the schema ({0}), so it cannot run again as it was; send it again corrected.', failed.envelope.error_code));
  return undefined;
}

export function rerunRequestCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.rerunRequest,
    async run(argument: unknown): Promise<EngineResponse | undefined> {
      const failed = requestFromArgument(deps, argument);
      const request = failed && await again(failed);
      return request && runWithProgress(deps, request, 'quickfix');
    },
  };
}
