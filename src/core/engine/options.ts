/** What the adapters pass to the engine: the store, limits, policies and hooks. */
import type { ErrorCode } from '../contract/errorCodes';
import type { FileStore } from '../store/fileStore';
import type { Warning } from '../contract/schemas';
import type { InsideIndentationPolicy, InsideTokenPolicy } from '../matching/match';

export type { InsideIndentationPolicy, InsideTokenPolicy } from '../matching/match';

export interface Limits {
  /** Lines shown before and after the closest partial match (snippet is 2n+1 lines). */
  readonly contextLines: number;
  /** Ambiguous match locations reported in detail; total_matches is never capped. */
  readonly maxMatchLocations: number;
  /** Files larger than this get FILE_TOO_LARGE. */
  readonly maxFileBytes: number;
  /** The serialised envelope stays within this many bytes by dropping detail, never fields. */
  readonly maxEnvelopeBytes: number;
  /** Snippet lines longer than this are clipped. */
  readonly maxSnippetLineChars: number;
  /** The diffs of one success response stay within this many bytes, clipped at hunk boundaries. */
  readonly maxDiffBytes: number;
  /**
   * A match that starts inside a line's indentation (old_string indented less than the
   * line): 'warn' applies it with a warning; 'refuseMultiline' refuses it when
   * new_string spans lines (they would land mis-indented) and warns otherwise; 'refuse' always refuses.
   */
  readonly insideIndentation: InsideIndentationPolicy;
  /**
   * A match whose first or last character falls strictly inside an identifier or a
   * number: 'warn' applies it with a MATCH_INSIDE_TOKEN warning; 'refuseSuspicious'
   * refuses it when new_string does not continue the token at that end (it ends or
   * starts with another kind of character, or already holds the token's rest) and
   * warns otherwise; 'refuse' always refuses it. replace_all edits are only warned.
   */
  readonly insideToken: InsideTokenPolicy;
}

export const DEFAULT_LIMITS: Limits = {
  contextLines: 6,
  maxMatchLocations: 5,
  maxFileBytes: 32 * 1024 * 1024,
  maxEnvelopeBytes: 32 * 1024,
  maxSnippetLineChars: 240,
  maxDiffBytes: 64 * 1024,
  insideIndentation: 'refuseMultiline',
  insideToken: 'refuseSuspicious',
};

/** Backoff for FILE_BUSY: from initialDelayMs, doubling, capped at maxDelayMs. */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly maxTotalMs: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 5,
  maxTotalMs: 10_000,
  initialDelayMs: 100,
  maxDelayMs: 5_000,
};

export type PathCheckResult =
  | { readonly ok: true; readonly path: string; readonly warning?: Warning }
  | { readonly ok: false; readonly code: ErrorCode; readonly detail: string; readonly hints?: readonly string[] };

/** Resolves and vets a requested path before anything is read. */
export type PathCheck = (requestedPath: string) => PathCheckResult | Promise<PathCheckResult>;

export interface CancellationSignal {
  readonly isCancellationRequested: boolean;
}

export interface EngineOptions {
  readonly store: FileStore;
  readonly limits?: Partial<Limits>;
  readonly retry?: Partial<RetryPolicy>;
  /** Default: absolute paths only; ".." is PATH_TRAVERSAL; relative is RELATIVE_PATH. */
  readonly checkPath?: PathCheck;
  /** How a path reads in summaries and messages (e.g. workspace-relative). Default: as given. */
  readonly displayPath?: (absolutePath: string) => string;
  readonly cancellation?: CancellationSignal;
  /** Injected for tests of the backoff; default is a real timer. */
  readonly sleep?: (ms: number) => Promise<void>;
}
