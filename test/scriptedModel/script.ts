/**
 * The scripted language model's mind: given the conversation so far, the reply its script says.
 * No vscode import: the extension (extension.ts) turns VS Code's messages into `Message`s, and the
 * unit tests run this in Node.
 *
 * A script is a list of entries. The entry whose `prompt` occurs in the conversation's latest user
 * prompt answers; its `rounds[n]` is the reply after n rounds of tool results (past the end, the
 * last one again). So the model keeps no state between requests: the same conversation always
 * gets the same reply.
 */

/** The vendor the extension registers its model under (package.json names it too). */
export const SCRIPTED_MODEL_VENDOR = 'multi-edit-script';
export const SCRIPTED_MODEL_EXTENSION_ID = 'multi-edit-test.scripted-model';

export type MessagePart =
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: unknown }
  | { readonly kind: 'toolResult'; readonly callId: string; readonly text: string };

export interface Message {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly MessagePart[];
}

/**
 * A tool call the script names: `input` as given, or, with `fixFromLastResult`, the model's
 * previous call to that tool corrected from the failure it got back. The correction copies each
 * failing edit's old_string from the result's context.snippet (the lines that equal it but for
 * their whitespace) and re-indents new_string the same way, as a careful model would.
 */
export type ScriptedToolCall =
  | { readonly name: string; readonly input: unknown }
  | { readonly name: string; readonly fixFromLastResult: true };

export interface ScriptedReply {
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Milliseconds to think before replying; a cancelled request stops waiting. */
  readonly delayMs?: number;
}

export interface ScriptEntry {
  /** Text the latest user prompt contains. */
  readonly prompt: string;
  readonly rounds: readonly ScriptedReply[];
}

export type Script = readonly ScriptEntry[];

/** A request as the model received it, kept for tests to check what it was shown. */
export interface ReceivedRequest {
  readonly messages: readonly Message[];
  /** The tools the caller offered. */
  readonly toolNames: readonly string[];
  readonly toolMode: 'auto' | 'required';
  /** Set when the request was cancelled while the model was thinking. */
  cancelled: boolean;
}

/** What the extension's activate() returns. */
export interface ScriptedModelApi {
  readonly requests: ReceivedRequest[];
}

/** What the model sends back: text, then tool calls with their inputs resolved. */
export interface Reply {
  readonly text: string;
  readonly toolCalls: readonly { readonly name: string; readonly input: unknown }[];
  readonly delayMs: number;
}

/** Text of a user message that is a prompt, not tool results. */
function promptText(message: Message): string | undefined {
  if (message.role !== 'user' || message.parts.some((part) => part.kind === 'toolResult')) {
    return undefined;
  }
  return message.parts.map((part) => (part.kind === 'text' ? part.value : '')).join('');
}

/** The messages after the latest prompt, and that prompt. */
function currentTurn(messages: readonly Message[]): { readonly prompt: string; readonly since: readonly Message[] } {
  for (let index = messages.length - 1; index >= 0; index--) {
    const prompt = promptText(messages[index]);
    if (prompt !== undefined) {
      return { prompt, since: messages.slice(index + 1) };
    }
  }
  return { prompt: '', since: messages };
}

interface ToolExchange {
  readonly name: string;
  readonly input: unknown;
  readonly resultText: string | undefined;
}

/** Every tool call of the turn with the text of its result, oldest first. */
function exchanges(since: readonly Message[]): ToolExchange[] {
  const results = new Map<string, string>();
  for (const part of since.flatMap((message) => message.parts)) {
    if (part.kind === 'toolResult') {
      results.set(part.callId, part.text);
    }
  }
  return since.flatMap((message) => message.parts).flatMap((part) => (
    part.kind === 'toolCall' ? [{ name: part.name, input: part.input, resultText: results.get(part.callId) }] : []
  ));
}

interface Edit {
  readonly old_string: string;
  readonly new_string: string;
  readonly replace_all?: boolean;
}

interface FailureContext {
  readonly snippet?: string;
}

interface EditFailure {
  readonly edit_index: number;
  readonly file_index?: number;
  readonly status: string;
  readonly context?: FailureContext;
}

interface Envelope {
  readonly success: boolean;
  readonly edit_index?: number;
  readonly file_index?: number;
  readonly context?: FailureContext;
  readonly edit_status?: readonly EditFailure[];
}

/** The JSON after a Multi-Edit result's summary line; undefined when the text is not one. */
function readEnvelope(text: string | undefined): Envelope | undefined {
  const newline = text?.indexOf('\n') ?? -1;
  if (text === undefined || newline === -1) {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(text.slice(newline + 1));
    return typeof parsed === 'object' && parsed !== null && 'success' in parsed ? parsed as Envelope : undefined;
  } catch {
    return undefined;
  }
}

function leadingWhitespace(line: string): string {
  return /^\s*/.exec(line)?.[0] ?? '';
}

/** The snippet lines that equal `old`'s lines but for leading and trailing whitespace. */
function matchingLines(snippet: string, old: string): string[] | undefined {
  const wanted = old.split('\n').map((line) => line.trim());
  const lines = snippet.split('\n');
  for (let start = 0; start + wanted.length <= lines.length; start++) {
    const candidate = lines.slice(start, start + wanted.length);
    if (candidate.every((line, index) => line.trim() === wanted[index])) {
      return candidate;
    }
  }
  return undefined;
}

/** The edit with old_string copied from the snippet and new_string indented the same way. */
function correctedEdit(edit: Edit, snippet: string | undefined): Edit {
  const found = snippet === undefined ? undefined : matchingLines(snippet, edit.old_string);
  if (!found) {
    return edit;
  }
  const newLines = edit.new_string.split('\n');
  const oldLines = edit.old_string.split('\n');
  const reindented = newLines.length === oldLines.length
    ? newLines.map((line, index) => leadingWhitespace(found[index]) + line.slice(leadingWhitespace(oldLines[index]).length)).join('\n')
    : edit.new_string;
  return { ...edit, old_string: found.join('\n'), new_string: reindented };
}

/** Each failed edit's snippet, keyed "file/edit". */
function snippetsOf(envelope: Envelope): Map<string, string | undefined> {
  const snippets = new Map<string, string | undefined>();
  for (const status of envelope.edit_status ?? []) {
    if (status.status === 'failed') {
      const primary = status.edit_index === envelope.edit_index && (status.file_index ?? 0) === (envelope.file_index ?? 0);
      snippets.set(`${status.file_index ?? 0}/${status.edit_index}`, status.context?.snippet ?? (primary ? envelope.context?.snippet : undefined));
    }
  }
  return snippets;
}

function fixEdits(edits: readonly Edit[], fileIndex: number, snippets: Map<string, string | undefined>): Edit[] {
  return edits.map((edit, editIndex) => {
    const key = `${fileIndex}/${editIndex}`;
    return snippets.has(key) ? correctedEdit(edit, snippets.get(key)) : edit;
  });
}

interface SingleInput {
  readonly edits: readonly Edit[];
}

interface FilesInput {
  readonly files: readonly { readonly edits: readonly Edit[] }[];
}

function fixInput(input: unknown, envelope: Envelope): unknown {
  const snippets = snippetsOf(envelope);
  if (typeof input === 'object' && input !== null && 'files' in input) {
    const files = (input as FilesInput).files.map((file, fileIndex) => ({ ...file, edits: fixEdits(file.edits, fileIndex, snippets) }));
    return { ...input, files };
  }
  return { ...(input as SingleInput), edits: fixEdits((input as SingleInput).edits, 0, snippets) };
}

/** A correction of the last call to `name`; a text explaining why when there is none to make. */
function fixFromLastResult(name: string, turn: readonly ToolExchange[]): { readonly input: unknown } | { readonly problem: string } {
  const last = [...turn].reverse().find((exchange) => exchange.name === name) ?? turn[turn.length - 1];
  if (!last) {
    return { problem: `There is no earlier ${name} call to correct.` };
  }
  const envelope = readEnvelope(last.resultText);
  if (!envelope) {
    const firstLine = (last.resultText ?? '').split('\n')[0];
    return { problem: `I could not read the last tool result as a Multi-Edit response: ${firstLine}` };
  }
  if (envelope.success) {
    return { problem: 'The last call succeeded; there is nothing to correct.' };
  }
  return { input: fixInput(last.input, envelope) };
}

/** The reply the script gives to `messages`. */
export function replyTo(script: Script, messages: readonly Message[]): Reply {
  const { prompt, since } = currentTurn(messages);
  const entry = script.find((candidate) => prompt.includes(candidate.prompt));
  if (!entry) {
    return { text: `The script has no entry for the prompt "${prompt}".`, toolCalls: [], delayMs: 0 };
  }
  const turn = exchanges(since);
  const round = since.filter((message) => message.parts.some((part) => part.kind === 'toolResult')).length;
  const step = entry.rounds[Math.min(round, entry.rounds.length - 1)];
  const texts = step.text === undefined ? [] : [step.text];
  const toolCalls: { name: string; input: unknown }[] = [];
  for (const call of step.toolCalls ?? []) {
    if ('input' in call) {
      toolCalls.push({ name: call.name, input: call.input });
      continue;
    }
    const fixed = fixFromLastResult(call.name, turn);
    if ('input' in fixed) {
      toolCalls.push({ name: call.name, input: fixed.input });
    } else {
      texts.push(fixed.problem);
    }
  }
  return { text: texts.join('\n\n'), toolCalls, delayMs: step.delayMs ?? 0 };
}
