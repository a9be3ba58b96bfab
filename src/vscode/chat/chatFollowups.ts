/**
 * What a chat turn leaves behind (ChatResult.metadata) and the follow-ups it
 * earns. A follow-up is offered only where it can help: running a request again
 * helps when the files changed or were busy, not when an edit itself is wrong.
 * No vscode import.
 */
import type { MultiEditFilesRequest, MultiEditRequest, NextAction } from '../../core/index';
import { CHAT_COMMANDS } from '../platform/ids';

export type RequestCommand = (typeof CHAT_COMMANDS)[keyof typeof CHAT_COMMANDS];

/** The metadata of a `/apply` or `/preview` turn. */
export interface RequestTurn {
  readonly kind: 'request';
  readonly command: RequestCommand;
  /** The request as the engine read it, in its wire form; absent when it did not parse. */
  readonly request?: MultiEditRequest | MultiEditFilesRequest;
  readonly success: boolean;
  readonly dryRun: boolean;
  readonly nextAction?: NextAction;
  /** The response as a model reads it (summary line, then JSON), for later turns' history. */
  readonly modelText: string;
}

/** The metadata of a conversation with the model. */
export interface ConversationTurn {
  readonly kind: 'conversation';
  /** The model still wanted tools when the round limit stopped it. */
  readonly stoppedAtRoundLimit: boolean;
}

export type TurnMetadata = RequestTurn | ConversationTurn;

/** Structurally a vscode.ChatFollowup (it goes to the same participant). */
export interface Followup {
  readonly prompt: string;
  readonly label: string;
  readonly command?: string;
}

export const FIX_PROMPT = 'Fix the failing edits of that request, using its hints and the file text it shows, and apply the corrected request.';
export const CONTINUE_PROMPT = 'Continue where you stopped.';

/** Errors that running the same request again can clear: the file changed under it, or was busy. */
const RUN_AGAIN: ReadonlySet<NextAction> = new Set<NextAction>(['reread_and_retry', 'retry_later']);

export function isTurnMetadata(value: unknown): value is TurnMetadata {
  const kind = (value as Partial<TurnMetadata> | undefined)?.kind;
  return kind === 'request' || kind === 'conversation';
}

function requestFollowups(turn: RequestTurn): Followup[] {
  const { request } = turn;
  if (turn.success) {
    if (!turn.dryRun || !request) {
      return [];
    }
    const realRun = { ...request };
    delete realRun.dry_run;
    return [{ command: CHAT_COMMANDS.apply, prompt: JSON.stringify(realRun), label: 'Apply these edits' }];
  }
  if (request && turn.nextAction !== undefined && RUN_AGAIN.has(turn.nextAction)) {
    const again = turn.command === CHAT_COMMANDS.apply ? 'Apply the request again' : 'Preview the request again';
    return [{ command: turn.command, prompt: JSON.stringify(request), label: again }];
  }
  return turn.nextAction === 'fix_and_resubmit' ? [{ prompt: FIX_PROMPT, label: 'Ask the model to fix the failing edits' }] : [];
}

export function followupsFor(metadata: unknown): Followup[] {
  if (!isTurnMetadata(metadata)) {
    return [];
  }
  if (metadata.kind === 'request') {
    return requestFollowups(metadata);
  }
  return metadata.stoppedAtRoundLimit ? [{ prompt: CONTINUE_PROMPT, label: 'Continue' }] : [];
}
