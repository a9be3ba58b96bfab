/**
 * `/apply` and `/preview`: the request JSON in the prompt runs through the
 * runner, with no language model involved, and its response is rendered in the
 * chat. A failure also becomes diagnostics (the runner publishes every outcome),
 * and its buttons run the quick fixes of those diagnostics.
 */
import * as vscode from 'vscode';
import { formatForModel, type ParseResult, requestInput, toolForRequest } from '../../../core/index';
import { withoutSchemaKey } from '../../commands/requestSource';
import { CHAT_COMMANDS, CHAT_PARTICIPANT_NAME, COMMANDS } from '../../platform/ids';
import type { RequestRecord } from '../../run/requestRecord';
import { summarizeRequest } from '../../run/requestSummary';
import { writeResponse } from '../render/writeResponse';
import type { RequestCommand, RequestTurn } from '../turnMetadata';
import type { ChatDeps } from '../chatDeps';
import { codeBlock, escapeMarkdown, inlineCode } from '../render/markdownText';
import { editsLabel, filesLabel } from '../../platform/counts';
import { parseRequestPrompt } from './promptRequest';

// Not translated: code, as a request holds it.
const EXAMPLE_REQUEST = {
  file_path: '/absolute/path/to/file.ts',
  edits: [{ old_string: 'const retries = 3;', new_string: 'const retries = 5;' }],
};

function usage(command: RequestCommand, problem: string): string {
  return `${escapeMarkdown(problem)}\n\n`
    + `${vscode.l10n.t('Put the request after {0}, as bare JSON or in a {1} block.', inlineCode(`@${CHAT_PARTICIPANT_NAME} /${command}`), inlineCode('```json'))} `
    + `${vscode.l10n.t('A request with a {0} list runs as {1}:', '`files`', '`multi_edit_files`')}\n\n`
    + codeBlock(JSON.stringify(EXAMPLE_REQUEST, null, 2), 'json');
}

/** The progress line, from the engine's reading of the request; a request that does not parse is only checked. */
function progressMessage(command: RequestCommand, parsed: ParseResult): string {
  if (!parsed.ok) {
    return vscode.l10n.t('Checking the request');
  }
  const request = summarizeRequest(parsed.request);
  const edits = editsLabel(request.totalEdits);
  const files = filesLabel(request.files.length);
  return command === CHAT_COMMANDS.preview ? vscode.l10n.t('Checking {0} in {1} (dry run)', edits, files) : vscode.l10n.t('Applying {0} in {1}', edits, files);
}

async function writeRecord(deps: ChatDeps, stream: vscode.ChatResponseStream, record: RequestRecord): Promise<void> {
  const { response } = record;
  await writeResponse(deps, stream, response, record);
  if (response.success && response.dry_run && record.request) {
    // The preview command shows the request as a real run in the Refactor Preview.
    stream.button({ title: vscode.l10n.t('Review in Refactor Preview'), command: COMMANDS.previewRequest, arguments: [requestInput(record.request)] });
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
    const problem = parsed.jsonError === undefined
      ? vscode.l10n.t('The prompt holds no request.')
      : vscode.l10n.t('The request is not valid JSON: {0}.', parsed.jsonError);
    stream.markdown(usage(command, problem));
    return {};
  }
  const given = withoutSchemaKey(parsed.input);
  const tool = toolForRequest(given);
  // Read once: the progress line names what the run then runs.
  const reading = deps.services.runner.read(tool, given);
  stream.progress(progressMessage(command, await reading));
  const options = { source: 'chat' as const, token };
  const record = command === CHAT_COMMANDS.preview
    ? await deps.services.runner.dryRun(tool, given, options, reading)
    : await deps.services.runner.run(tool, given, options, reading);
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
