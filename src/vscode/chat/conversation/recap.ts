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

const NEXT_STEP: Record<NextAction, string> = {
  fix_and_resubmit: 'Correct the failing edits and send the whole request again; nothing was written.',
  reread_and_retry: 'The file changed after the request was planned: read it again, then send the request again.',
  retry_later: 'The file was busy: send the request again in a moment.',
  ask_user: 'This needs your decision: a model should not retry it on its own.',
  stop: 'This request cannot succeed as written: change what it asks for.',
};

function outcomeOf(call: ToolCallRecord): string {
  const response: EngineResponse | undefined = call.modelText === undefined ? undefined : parseToolText(call.modelText);
  if (response === undefined) {
    return 'did not run';
  }
  if (response.success) {
    return escapeMarkdown(response.summary);
  }
  const cause = response.diagnosis ? ` (${inlineCode(response.diagnosis.kind)} ${escapeMarkdown(response.diagnosis.detail)})` : '';
  return `${inlineCode(response.error_code)} ${escapeMarkdown(response.message)}${cause}`;
}

/** One line per tool call; empty when every call succeeded, since the last result is in view anyway. */
export function renderRecap(calls: readonly ToolCallRecord[]): string {
  if (calls.every((call) => call.success)) {
    return '';
  }
  const lines = calls.map((call) => `- Round ${call.round} · ${inlineCode(call.tool)} · ${outcomeOf(call)}\n`);
  return `**Tool calls in this turn**\n\n${lines.join('')}\n`;
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
    { kind: 'markdown', text: '**The last failure in this chat**\n\n' },
    ...renderResponse(envelope),
    { kind: 'markdown', text: `**Next step:** ${NEXT_STEP[envelope.next_action.action]}\n` },
  ];
}
