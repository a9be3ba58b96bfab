/**
 * A prompt without a command: the model plans the edits and calls the
 * Multi-Edit tools (TOOL_NAMES) through vscode.lm.invokeTool (so VS Code shows and confirms
 * each call), reads their results, and may try again, for a bounded number of
 * rounds. Each result is rendered as `/apply` renders it.
 */
import * as vscode from 'vscode';
import { CHAT_PARTICIPANT_NAME } from '../../platform/ids';
import { TOOL_LIST, TOOL_NAMES } from '../../../core/index';
import { currentWorkspaceFolders } from '../../platform/workspacePaths';
import { writeResponse } from '../render/writeResponse';
import type { ChatDeps } from '../chatDeps';
import { isTurnMetadata, type ConversationTurn, type ToolCallRecord } from '../turnMetadata';
import { renderRecap, type RecapEntry } from './recap';
import { escapeMarkdown } from '../render/markdownText';
import { splitRecordId } from '../../tools/recordIdPart';

/** Model turns that may call tools; a conversation that wants more ends with a "Continue" follow-up. */
const MAX_ROUNDS = 5;
/** Text of each attached file given to the model, at most. */
const MAX_REFERENCE_CHARS = 100_000;


// Not translated: read by the model, its instructions stay in the language of the tools' descriptions.
function instructions(): string {
  const folders = currentWorkspaceFolders().map((folder) => folder.path);
  return [
    'You change files in the user\'s workspace with the multi_edit tool (one file), multi_edit_files (several files that must change together) or multi_edit_patch (a patch that may also add, delete and move files).',
    'Give absolute file paths. old_string must be copied exactly from the file, whitespace included, and occur once unless replace_all is true.',
    'When a tool result has "success": false, nothing was written: read error_code, recovery_hints and context.snippet, correct the edits and call the tool again.',
    'If next_action.action is ask_user or stop, do not retry: explain what the user must decide. Keep answers short.',
    folders.length > 0 ? `Workspace folders: ${folders.join(', ')}` : 'No workspace folder is open.',
  ].join('\n');
}

/** Earlier turns with this participant: prompts, and for request turns the response the model would have seen. */
function historyMessages(context: vscode.ChatContext): vscode.LanguageModelChatMessage[] {
  return context.history.flatMap((turn) => {
    if (turn instanceof vscode.ChatRequestTurn) {
      return [vscode.LanguageModelChatMessage.User(turn.command ? `/${turn.command} ${turn.prompt}` : turn.prompt)];
    }
    const metadata: unknown = turn.result.metadata;
    const shown = turn.response.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : '')).join('');
    const text = isTurnMetadata(metadata) && metadata.kind === 'request' ? metadata.modelText : shown;
    return text.trim() === '' ? [] : [vscode.LanguageModelChatMessage.Assistant(text)];
  });
}

/** The text of the files attached to the prompt (#file, selections), bounded. */
async function referenceMessages(request: vscode.ChatRequest): Promise<vscode.LanguageModelChatMessage[]> {
  const messages: vscode.LanguageModelChatMessage[] = [];
  for (const reference of request.references) {
    const value = reference.value;
    const uri = value instanceof vscode.Uri ? value : value instanceof vscode.Location ? value.uri : undefined;
    if (!uri) {
      continue;
    }
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      const text = document.getText().slice(0, MAX_REFERENCE_CHARS);
      // Not translated: read by the model.
      messages.push(vscode.LanguageModelChatMessage.User(`Attached file ${uri.fsPath}:\n${text}`));
    } catch {
      // Not a text document (a folder, an image): the model gets the prompt without it.
    }
  }
  return messages;
}

interface ToolCallOutcome extends RecapEntry {
  /** What the model gets back. */
  readonly part: vscode.LanguageModelToolResultPart;
}

/** Runs one tool call through VS Code, renders its result, and returns it for the model and the history. */
async function runToolCall(
  deps: ChatDeps,
  call: vscode.LanguageModelToolCallPart,
  round: number,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<ToolCallOutcome> {
  // Not translated: a tool result, read by the model.
  const notRun = (text: string): ToolCallOutcome => ({
    part: new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(text)]),
    call: { round, tool: call.name, success: false },
  });
  if (!(TOOL_NAMES as readonly string[]).includes(call.name)) {
    // Not translated: read by the model.
    return notRun(`Unknown tool ${call.name}: use ${TOOL_LIST}.`);
  }
  let result: vscode.LanguageModelToolResult;
  try {
    result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    stream.markdown(`${vscode.l10n.t('The {0} call did not run: {1}', call.name, escapeMarkdown(reason))}\n\n`);
    // Not translated: read by the model.
    return notRun(`The tool call did not run: ${reason}`);
  }
  // The result names the record of this very call, however many calls ran meanwhile; the model reads the rest.
  const { parts, recordId } = splitRecordId(result.content, textOfPart);
  const toolRecord = recordId === undefined ? undefined : deps.services.runner.recordById(recordId);
  const text = parts.map((part) => textOfPart(part) ?? '').join('');
  const part = new vscode.LanguageModelToolResultPart(call.callId, [...parts]);
  if (!toolRecord) {
    return { part, call: { round, tool: call.name, success: false } };
  }
  const { response } = toolRecord;
  await writeResponse(deps, stream, response, toolRecord);
  const record: ToolCallRecord = {
    round, tool: call.name, success: response.success, ...(response.success ? {} : { errorCode: response.error_code }), modelText: text, recordId: toolRecord.id,
  };
  return { part, call: record, response };
}

function textOfPart(part: unknown): string | undefined {
  return part instanceof vscode.LanguageModelTextPart ? part.value : undefined;
}

async function chatModel(request: vscode.ChatRequest): Promise<vscode.LanguageModelChat | undefined> {
  // VS Code fills request.model with the model picked in the chat view; a host without a picker may not.
  const picked: vscode.LanguageModelChat | undefined = request.model;
  return picked ?? (await vscode.lm.selectChatModels())[0];
}

function noModel(reason: string): string {
  return `${escapeMarkdown(reason)}\n\n`
    + vscode.l10n.t('Without a model, {0} still runs a request given as JSON, and {1} shows its diff without writing anything.',
      `\`@${CHAT_PARTICIPANT_NAME} /apply\``, `\`@${CHAT_PARTICIPANT_NAME} /preview\``);
}

/** Ends the turn: the recap, which stays in view when VS Code folds the turn's steps, and the metadata. */
function endTurn(stream: vscode.ChatResponseStream, stoppedAtRoundLimit: boolean, entries: readonly RecapEntry[]): vscode.ChatResult {
  const recap = renderRecap(entries);
  if (recap !== '') {
    stream.markdown(`\n\n${recap}`);
  }
  const metadata: ConversationTurn = { kind: 'conversation', stoppedAtRoundLimit, calls: entries.map((entry) => entry.call) };
  return { metadata };
}

/**
 * The tools offered in a round. When the prompt references some of ours (#multiEdit), the first
 * round offers only those and requires a call, so the model uses what the user named.
 */
function toolsForRound(request: vscode.ChatRequest, round: number): { tools: vscode.LanguageModelChatTool[]; toolMode: vscode.LanguageModelChatToolMode } {
  const ours = vscode.lm.tools.filter((tool) => (TOOL_NAMES as readonly string[]).includes(tool.name));
  const referenced = ours.filter((tool) => request.toolReferences.some((reference) => reference.name === tool.name));
  if (round === 0 && referenced.length > 0) {
    return { tools: referenced, toolMode: vscode.LanguageModelChatToolMode.Required };
  }
  return { tools: ours, toolMode: vscode.LanguageModelChatToolMode.Auto };
}

export async function converse(
  deps: ChatDeps,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const model = await chatModel(request);
  if (!model) {
    stream.markdown(noModel(vscode.l10n.t('No language model is available.')));
    return {};
  }
  const calls: RecapEntry[] = [];
  const messages = [
    vscode.LanguageModelChatMessage.User(instructions()),
    ...historyMessages(context),
    ...(await referenceMessages(request)),
    vscode.LanguageModelChatMessage.User(request.prompt),
  ];
  for (let round = 0; round < MAX_ROUNDS && !token.isCancellationRequested; round++) {
    const text: string[] = [];
    const toolCalls: vscode.LanguageModelToolCallPart[] = [];
    try {
      const response = await model.sendRequest(messages, { ...toolsForRound(request, round), justification: vscode.l10n.t('Multi-Edit asks the model to plan exact edits for your request.') }, token);
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          stream.markdown(part.value);
          text.push(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          toolCalls.push(part);
        }
      }
    } catch (error) {
      if (error instanceof vscode.LanguageModelError) {
        stream.markdown(noModel(vscode.l10n.t('The language model {0} cannot be used ({1}): {2}', model.name, error.code, error.message)));
        return {};
      }
      throw error;
    }
    if (toolCalls.length === 0) {
      return endTurn(stream, false, calls);
    }
    stream.markdown('\n\n');
    messages.push(vscode.LanguageModelChatMessage.Assistant([...(text.length > 0 ? [new vscode.LanguageModelTextPart(text.join(''))] : []), ...toolCalls]));
    const results: vscode.LanguageModelToolResultPart[] = [];
    for (const call of toolCalls) {
      const outcome = await runToolCall(deps, call, round + 1, request, stream, token);
      results.push(outcome.part);
      calls.push(outcome);
    }
    messages.push(vscode.LanguageModelChatMessage.User(results));
  }
  if (token.isCancellationRequested) {
    return endTurn(stream, false, calls);
  }
  stream.markdown(vscode.l10n.t('Stopped after {0} rounds of tool calls; the last results are above.', MAX_ROUNDS));
  return endTurn(stream, true, calls);
}
