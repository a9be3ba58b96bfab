/**
 * What a conversation leaves in view, and what `/explain` says. VS Code 1.139 folds a finished
 * turn's progress (each tool call and what was written between them) under "Completed N steps", so
 * an earlier failure and how the model recovered would vanish with it; the recap, written last,
 * keeps one line per tool call. No vscode import.
 */
import type { EngineResponse, ErrorEnvelope, NextAction } from '../../../core/index';
import type { ToolCallRecord } from '../turnMetadata';
import { renderResponse, type ChatPart } from '../render/responseParts';
import { escapeMarkdown, inlineCode } from '../render/markdownText';
import { parseToolText } from '../slashCommands/promptRequest';
import { localized } from '../../platform/localized';

function nextStep(action: NextAction): string {
  switch (action) {
    case 'fix_and_resubmit':
      return localized('Correct the failing edits and send the whole request again; nothing was written.');
    case 'reread_and_retry':
      return localized('The file changed after the request was planned: read it again, then send the request again.');
    case 'retry_later':
      return localized('The file was busy: send the request again in a moment.');
    case 'ask_user':
      return localized('This needs your decision: a model should not retry it on its own.');
    case 'stop':
      return localized('This request cannot succeed as written: change what it asks for.');
  }
}

/** A tool call of this turn, with the response it got; absent when the call did not run. */
export interface RecapEntry {
  readonly call: ToolCallRecord;
  readonly response?: EngineResponse;
}

function outcomeOf({ response }: RecapEntry): string {
  if (response === undefined) {
    return localized('did not run');
  }
  if (response.success) {
    return escapeMarkdown(response.summary);
  }
  const cause = response.diagnosis ? ` (${inlineCode(response.diagnosis.kind)} ${escapeMarkdown(response.diagnosis.detail)})` : '';
  return `${inlineCode(response.error_code)} ${escapeMarkdown(response.message)}${cause}`;
}

/** One line per tool call; empty when every call succeeded, since the last result is in view anyway. */
export function renderRecap(entries: readonly RecapEntry[]): string {
  if (entries.every((entry) => entry.call.success)) {
    return '';
  }
  const lines = entries.map((entry) => `- ${localized('Round {0}', entry.call.round)} · ${inlineCode(entry.call.tool)} · ${outcomeOf(entry)}\n`);
  return `**${localized('Tool calls in this turn')}**\n\n${lines.join('')}\n`;
}

/** The latest failure among earlier turns' texts (newest last), as the model read it. */
export function latestFailure(modelTexts: readonly string[]): ErrorEnvelope | undefined {
  for (const text of [...modelTexts].reverse()) {
    const response = parseToolText(text);
    if (response && !response.success) {
      return response;
    }
  }
  return undefined;
}

/** `/explain`: the failure in full, and what to do next. */
export function renderExplanation(envelope: ErrorEnvelope): ChatPart[] {
  return [
    { kind: 'markdown', text: `**${localized('The last failure in this chat')}**\n\n` },
    ...renderResponse(envelope),
    { kind: 'markdown', text: `**${localized('Next step:')}** ${nextStep(envelope.next_action.action)}\n` },
  ];
}
