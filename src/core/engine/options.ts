/** What the adapters pass to the engine: the store, limits, policies and hooks. */
import type { Limits } from '../contract/limits';
import type { FileStore } from '../store/fileStore';
import type { PathCheck } from '../store/paths';
import type { SyntaxChecker, SyntaxCheckPolicy } from '../syntax/syntaxChecker';

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

export interface CancellationSignal {
  readonly isCancellationRequested: boolean;
}

export interface EngineOptions {
  readonly store: FileStore;
  readonly limits?: Partial<Limits>;
  readonly retry?: Partial<RetryPolicy>;
  /** Default: absolute paths only; ".." is PATH_TRAVERSAL; relative is RELATIVE_PATH. */
  readonly checkPath?: PathCheck;
  /**
   * The folder a patch's relative paths name files in (the CLI's --root, the workspace
   * folder, the MCP root). The joined path still goes through checkPath.
   */
  readonly root?: string;
  /**
   * The encoding of a file that has no byte order mark and is not valid UTF-8, when its
   * request names none (the CLI's and the MCP server's --encoding; a file's own `encoding` field wins).
   */
  readonly encoding?: string;
  /** How a path reads in summaries and messages (e.g. workspace-relative). Default: as given. */
  readonly displayPath?: (absolutePath: string) => string;
  readonly cancellation?: CancellationSignal;
  /**
   * How long planning may take (reading, matching, the syntax gate), from the start of
   * each attempt; past it the request is answered CANCELLED and nothing is written. A
   * commit that has begun is never stopped by it. Default: no limit.
   */
  readonly timeLimitMs?: number;
  /** Parses each edited file before anything is written; without one, no file is checked. */
  readonly syntaxChecker?: SyntaxChecker;
  /** What a syntax error the edits bring in does. Default: 'refuse'. */
  readonly syntaxCheck?: SyntaxCheckPolicy;
  /**
   * Told of a throw the engine caught, a bug whose envelope is INTERNAL_ERROR, so the adapter
   * can log what the envelope does not carry (the error's own text stays off the wire).
   */
  readonly onInternalError?: (phase: string, error: unknown) => void;
  /** The id the surface gives this request; an applied request's success carries it as request_id. */
  readonly requestId?: string;
  /** Injected for tests of the backoff; default is a real timer. */
  readonly sleep?: (ms: number) => Promise<void>;
}
