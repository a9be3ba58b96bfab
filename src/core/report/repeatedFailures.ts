/**
 * The loop breaker. An agent that sends the same failing request again gets the same
 * envelope, and many send it again and again. A session (the MCP server's process, the
 * language-model tools of one window) keeps a count per request and outcome: from the
 * second identical failure on, next_action escalates and says it is a repeat. The CLI
 * has no session and never uses this.
 */
import type { EngineResponse, ErrorEnvelope } from '../contract/schemas';
import { ordinal } from '../contract/format';

/** Requests remembered at most; the oldest is forgotten first. */
const MAX_REMEMBERED = 64;

export class RepeatedFailures {
  private readonly counts = new Map<string, number>();

  /** The response as it goes back: a failure seen before in this session escalates. */
  note(tool: string, input: unknown, response: EngineResponse): EngineResponse {
    if (response.success) {
      return response;
    }
    const key = failureKey(tool, input, response);
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.delete(key);
    this.counts.set(key, count);
    if (this.counts.size > MAX_REMEMBERED) {
      this.counts.delete(this.counts.keys().next().value as string);
    }
    return count < 2 ? response : escalated(response, count);
  }
}

/** The same request (tool and arguments) failing the same way (code, place and cause). */
function failureKey(tool: string, input: unknown, envelope: ErrorEnvelope): string {
  return JSON.stringify([tool, input, envelope.error_code, envelope.file_index, envelope.edit_index, envelope.diagnosis?.kind]);
}

/** Lines of the file a repeat should re-read: the snippet's, else none named. */
function linesToReread(envelope: ErrorEnvelope): string {
  const context = envelope.context;
  const where = envelope.file_path ?? 'the file';
  if (context?.start_line !== undefined && context.snippet !== undefined) {
    const last = context.start_line + context.snippet.split('\n').length - 1;
    return `lines ${context.start_line}-${last} of ${where}`;
  }
  return where;
}

function escalated(envelope: ErrorEnvelope, count: number): ErrorEnvelope {
  const stop = count >= 3 || !envelope.retryable;
  const repeat = `This is the ${ordinal(count)} time this same request failed the same way in this session; sending it again unchanged will fail again`;
  const hint = stop
    ? `${repeat}. Stop retrying it: tell the user which edit failed and why, and ask how to go on`
    : `${repeat}. Re-read ${linesToReread(envelope)}, rebuild old_string from the file's text as it is now, or narrow the edit to the lines that change`;
  return {
    ...envelope,
    recovery_hints: [hint, ...envelope.recovery_hints],
    next_action: { ...envelope.next_action, action: stop ? 'stop' : 'reread_and_retry', repeated: count },
    summary: `Repeated (${ordinal(count)} time): ${envelope.summary}`,
  };
}
