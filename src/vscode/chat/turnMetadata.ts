/**
 * What a chat turn leaves behind (ChatResult.metadata) and the follow-ups it
 * earns. A follow-up is offered only where it can help: running a request again
 * helps when the files changed or were busy, not when an edit itself is wrong.
 * No vscode import.
 */
import type { ErrorCode, NextAction, RequestInput } from '../../core/index';
import { CHAT_COMMANDS } from '../platform/ids';
import { localized } from '../platform/localized';

/** The commands that run the request JSON in the prompt. */
export type RequestCommand = typeof CHAT_COMMANDS.apply | typeof CHAT_COMMANDS.preview;

/** The metadata of a `/apply` or `/preview` turn. */
export interface RequestTurn {
  readonly kind: 'request';
  readonly command: RequestCommand;
  /** The request as the engine read it, in its wire form; absent when it did not parse. */
  readonly request?: RequestInput;
  readonly success: boolean;
  readonly dryRun: boolean;
  readonly nextAction?: NextAction;
  /** The response as a model reads it (summary line, then JSON), for later turns' history. */
  readonly modelText: string;
}

/** One tool call of a conversation, as the turn's history keeps it. */
export interface ToolCallRecord {
  /** 1-based. */
  readonly round: number;
  readonly tool: string;
  readonly success: boolean;
  readonly errorCode?: ErrorCode;
  /** The response as the model read it (summary line, then JSON); absent when the call did not run. */
  readonly modelText?: string;
  /** The id of the request the call ran, as the Multi-Edit log names it (#id); absent when the call did not run. */
  readonly recordId?: number;
}

/** The metadata of a conversation with the model. */
export interface ConversationTurn {
  readonly kind: 'conversation';
  /** The model still wanted tools when the round limit stopped it. */
  readonly stoppedAtRoundLimit: boolean;
  /** Every tool call, in order, so follow-ups and `/explain` can use them. */
  readonly calls: readonly ToolCallRecord[];
}

export type TurnMetadata = RequestTurn | ConversationTurn;

/** Structurally a vscode.ChatFollowup (it goes to the same participant). */
export interface Followup {
  readonly prompt: string;
  readonly label: string;
  readonly command?: string;
}

// Not translated: read by the model, the prompts a follow-up sends stay in the language of the tools' descriptions.
export const FIX_PROMPT = 'Fix the failing edits of that request, using its hints and the file text it shows, and apply the corrected request.';
// Not translated: read by the model.
export const CONTINUE_PROMPT = 'Continue where you stopped.';
const explainFollowup = (): Followup => ({ command: CHAT_COMMANDS.explain, prompt: '', label: localized('Explain the failure') });

/** Errors that running the same request again can clear: the file changed under it, or was busy. */
const RUN_AGAIN: ReadonlySet<NextAction> = new Set<NextAction>(['reread_and_retry', 'retry_later']);

export function isTurnMetadata(value: unknown): value is TurnMetadata {
  const metadata = value as Partial<RequestTurn> | Partial<ConversationTurn> | undefined;
  return metadata?.kind === 'request' || (metadata?.kind === 'conversation' && Array.isArray(metadata.calls));
}

function requestFollowups(turn: RequestTurn): Followup[] {
  const { request } = turn;
  if (turn.success) {
    if (!turn.dryRun || !request) {
      return [];
    }
    const realRun = { ...request };
    delete realRun.dry_run;
    return [{ command: CHAT_COMMANDS.apply, prompt: JSON.stringify(realRun), label: localized('Apply these edits') }];
  }
  if (request && turn.nextAction !== undefined && RUN_AGAIN.has(turn.nextAction)) {
    const again = turn.command === CHAT_COMMANDS.apply ? localized('Apply the request again') : localized('Preview the request again');
    return [{ command: turn.command, prompt: JSON.stringify(request), label: again }];
  }
  return turn.nextAction === 'fix_and_resubmit' ? [{ prompt: FIX_PROMPT, label: localized('Ask the model to fix the failing edits') }] : [];
}

function conversationFollowups(turn: ConversationTurn): Followup[] {
  const followups = turn.stoppedAtRoundLimit ? [{ prompt: CONTINUE_PROMPT, label: 'Continue' }] : [];
  const last = turn.calls.at(-1);
  return last !== undefined && !last.success ? [...followups, explainFollowup()] : followups;
}

export function followupsFor(metadata: unknown): Followup[] {
  if (!isTurnMetadata(metadata)) {
    return [];
  }
  if (metadata.kind === 'request') {
    return requestFollowups(metadata);
  }
  return conversationFollowups(metadata);
}
