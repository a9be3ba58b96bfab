/**
 * Writes a finished request's response into a chat turn, for `/apply`, `/preview` and every tool
 * call of a conversation. A failure waits for the diagnostics first: they locate the line that
 * differs (the anchor) and hold the failures its buttons act on.
 */
import type * as vscode from 'vscode';
import type { EngineResponse } from '../../../core/index';
import type { Failure } from '../../problems/failure';
import type { RequestRecord } from '../../run/requestRecord';
import { chatButtons, leadingFailure } from './buttons';
import type { ChatDeps } from '../chatDeps';
import type { AnchorTarget } from './responseParts';
import { renderResponse } from './responseParts';
import { writeButtons, writeParts } from './stream';

/** Where the diagnostics placed a failure: the line that differs, 1-based. */
function differingLine(failure: Failure | undefined): AnchorTarget | undefined {
  const start = failure?.diagnostic?.range.start;
  if (failure?.targetPath === undefined || start === undefined) {
    return undefined;
  }
  return { path: failure.targetPath, startLine: start.line + 1, column: start.character + 1 };
}

/** `record` is the request that produced `response`, when it is known. */
export async function writeResponse(deps: ChatDeps, stream: vscode.ChatResponseStream, response: EngineResponse, record: RequestRecord | undefined): Promise<void> {
  if (response.success || record === undefined) {
    writeParts(stream, renderResponse(response));
    return;
  }
  await deps.feed.settled();
  const failures = deps.feed.failures.failuresOfRequest(record.id);
  writeParts(stream, renderResponse(response, differingLine(leadingFailure(failures, response))));
  writeButtons(stream, chatButtons(failures, response));
}
