/**
 * What prepareInvocation learned about a tool call, carried to its invoke: the request as the engine
 * read it, and whether the user was asked about targets outside the workspace. VS Code hands the two
 * phases the input separately (each a copy), so a call is known by its tool and its input's JSON.
 * invoke takes what it finds; with nothing prepared (nobody asked), it reads the input itself and
 * nothing outside the workspace counts as confirmed.
 */
import type { ParseResult, ToolName } from '../../core/index';

export interface PreparedCall {
  readonly reading: Promise<ParseResult>;
  /** The question the user accepted named targets outside the workspace: those are allowed for this call. */
  readonly outsideWorkspaceConfirmed: boolean;
}

interface Waiting extends PreparedCall {
  /** Prepared calls of this input not yet invoked (the same call may be prepared twice before either runs). */
  count: number;
}

/** Prepared calls kept at once; a prepared call that is never invoked (the user said no) falls out after this many. */
const MAX_WAITING = 64;

export class PreparedCalls {
  private readonly waiting = new Map<string, Waiting>();

  /** Notes a prepared call; an earlier one of the same input takes this one's facts, which are the latest. */
  prepared(tool: ToolName, input: unknown, call: PreparedCall): void {
    const key = callKey(tool, input);
    const count = (this.waiting.get(key)?.count ?? 0) + 1;
    this.waiting.delete(key);
    this.waiting.set(key, { ...call, count });
    if (this.waiting.size > MAX_WAITING) {
      this.waiting.delete(this.waiting.keys().next().value as string);
    }
  }

  /** What was prepared for this call, once per prepared call; undefined when nothing was. */
  take(tool: ToolName, input: unknown): PreparedCall | undefined {
    const key = callKey(tool, input);
    const found = this.waiting.get(key);
    if (found && --found.count === 0) {
      this.waiting.delete(key);
    }
    return found;
  }
}

function callKey(tool: ToolName, input: unknown): string {
  return `${tool}\n${JSON.stringify(input) ?? ''}`;
}
