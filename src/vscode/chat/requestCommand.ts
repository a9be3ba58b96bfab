/**
 * `/apply` and `/preview`: the request JSON in the prompt runs through the
 * runner, with no language model involved, and its response is rendered in the
 * chat. A failure also becomes diagnostics (the runner publishes every outcome),
 * and its buttons run the quick fixes of those diagnostics.
 */
import type * as vscode from 'vscode';
import { type EngineResponse, formatForModel, plural, toolForRequest, type ToolName } from '../../core/index';
import { CHAT_COMMANDS, CHAT_PARTICIPANT_NAME, COMMANDS } from '../platform/ids';
import { withoutSchemaKey } from '../commands/requestSource';
import { withDryRun } from '../diagnostics/requestFiles';
import { summarizeRequest } from '../tools/requestSummary';
import { chatButtons } from './chatButtons';
import type { RequestCommand, RequestTurn } from './chatFollowups';
import { renderResponse } from './chatRendering';
import { writeButtons, writeParts } from './chatStream';
import type { ChatDeps } from './chatDeps';
import { codeBlock, escapeMarkdown, inlineCode } from './markdownText';
import { parseRequestPrompt } from './promptRequest';

const EXAMPLE_REQUEST = {
  file_path: '/absolute/path/to/file.ts',
  edits: [{ old_string: 'const retries = 3;', new_string: 'const retries = 5;' }],
};

function usage(command: RequestCommand, problem: string): string {
  return `${escapeMarkdown(problem)}\n\n`
    + `Put the request after ${inlineCode(`@${CHAT_PARTICIPANT_NAME} /${command}`)}, as bare JSON or in a ${inlineCode('```json')} block. `
    + 'A request with a `files` list runs as `multi_edit_files`:\n\n'
    + codeBlock(JSON.stringify(EXAMPLE_REQUEST, null, 2), 'json');
}

function progressMessage(command: RequestCommand, tool: ToolName, input: unknown): string {
  const request = summarizeRequest(tool, input);
  const scope = `${plural(request.totalEdits, 'edit')} in ${plural(request.files.length, 'file')}`;
  return command === CHAT_COMMANDS.preview ? `Checking ${scope} (dry run)` : `Applying ${scope}`;
}

async function writeResponse(deps: ChatDeps, stream: vscode.ChatResponseStream, input: unknown, response: EngineResponse): Promise<void> {
  writeParts(stream, renderResponse(response));
  if (response.success) {
    if (response.dry_run) {
      stream.button({ title: 'Review in Refactor Preview', command: COMMANDS.previewRequest, arguments: [withDryRun(input, false)] });
    }
    return;
  }
  // The buttons name failures by id: wait until the diagnostics hold this outcome.
  await deps.feed.settled();
  writeButtons(stream, chatButtons(deps.feed.failures.failuresOfInput(input), response));
}

export async function runRequestCommand(
  deps: ChatDeps,
  command: RequestCommand,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const parsed = parseRequestPrompt(request.prompt);
  if (!parsed.ok) {
    stream.markdown(usage(command, parsed.problem));
    return {};
  }
  const given = withoutSchemaKey(parsed.input);
  const input = command === CHAT_COMMANDS.preview ? withDryRun(given, true) : given;
  const tool = toolForRequest(input);
  stream.progress(progressMessage(command, tool, input));
  const response = await deps.services.runner.run(tool, input, { source: 'chat', token });
  await writeResponse(deps, stream, input, response);
  const metadata: RequestTurn = {
    kind: 'request',
    command,
    requestJson: JSON.stringify(given),
    success: response.success,
    dryRun: response.dry_run === true,
    ...(response.success ? {} : { nextAction: response.next_action.action }),
    modelText: formatForModel(response),
  };
  return { metadata };
}
