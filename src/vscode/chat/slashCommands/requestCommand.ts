/**
 * `/apply` and `/preview`: the request JSON in the prompt runs through the
 * runner, with no language model involved, and its response is rendered in the
 * chat. A failure also becomes diagnostics (the runner publishes every outcome),
 * and its buttons run the quick fixes of those diagnostics.
 */
import type * as vscode from 'vscode';
import { formatForModel, parseRequest, plural, requestInput, toolForRequest } from '../../../core/index';
import { withoutSchemaKey } from '../../commands/requestSource';
import { CHAT_COMMANDS, CHAT_PARTICIPANT_NAME, COMMANDS } from '../../platform/ids';
import type { RequestRecord } from '../../run/requestRecord';
import { summarizeRequest } from '../../run/requestSummary';
import { writeResponse } from '../render/writeResponse';
import type { RequestCommand, RequestTurn } from '../turnMetadata';
import type { ChatDeps } from '../chatDeps';
import { codeBlock, escapeMarkdown, inlineCode } from '../render/markdownText';
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

/** The progress line, from the engine's reading of the request; a request that does not parse is only checked. */
async function progressMessage(command: RequestCommand, input: unknown): Promise<string> {
  const parsed = await parseRequest(toolForRequest(input), input);
  if (!parsed.ok) {
    return 'Checking the request';
  }
  const request = summarizeRequest(parsed.request);
  const scope = `${plural(request.totalEdits, 'edit')} in ${plural(request.files.length, 'file')}`;
  return command === CHAT_COMMANDS.preview ? `Checking ${scope} (dry run)` : `Applying ${scope}`;
}

async function writeRecord(deps: ChatDeps, stream: vscode.ChatResponseStream, record: RequestRecord): Promise<void> {
  const { response } = record;
  await writeResponse(deps, stream, response, record);
  if (response.success && response.dry_run && record.request) {
    // The preview command shows the request as a real run in the Refactor Preview.
    stream.button({ title: 'Review in Refactor Preview', command: COMMANDS.previewRequest, arguments: [requestInput(record.request)] });
  }
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
  const tool = toolForRequest(given);
  stream.progress(await progressMessage(command, given));
  const options = { source: 'chat' as const, token };
  const record = command === CHAT_COMMANDS.preview
    ? await deps.services.runner.dryRun(tool, given, options)
    : await deps.services.runner.run(tool, given, options);
  const { response } = record;
  await writeRecord(deps, stream, record);
  const metadata: RequestTurn = {
    kind: 'request',
    command,
    ...(record.request ? { request: requestInput(record.request) } : {}),
    success: response.success,
    dryRun: response.dry_run === true,
    ...(response.success ? {} : { nextAction: response.next_action.action }),
    modelText: formatForModel(response),
  };
  return { metadata };
}
