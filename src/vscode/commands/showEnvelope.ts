/** Show envelope: the failed request's full envelope as a read-only JSON document. */
import type * as vscode from 'vscode';
import { COMMANDS } from '../platform/ids';
import type { EngineResponse } from '../../core/index';
import { requestFromArgument, type EditorCommand, type EditorDeps } from './editorCommand';

export function responseJson(response: EngineResponse): string {
  return `${JSON.stringify(response, null, 2)}\n`;
}

/** Opens a response read-only; the name says what it is in the editor tab. */
export function showResponse(deps: EditorDeps, name: string, response: EngineResponse): Promise<vscode.TextEditor> {
  return deps.documents.show(`${name}.json`, responseJson(response));
}

export function showEnvelopeCommand(deps: EditorDeps): EditorCommand {
  return {
    id: COMMANDS.showEnvelope,
    async run(argument: unknown): Promise<vscode.Uri | undefined> {
      const request = requestFromArgument(deps, argument);
      if (!request) {
        return undefined;
      }
      const editor = await showResponse(deps, `envelope-${request.id}-${request.envelope.error_code}`, request.envelope);
      return editor.document.uri;
    },
  };
}
