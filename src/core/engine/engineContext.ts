/** EngineOptions with every default filled in, as the engine's modules use them. */
import type { FileStore } from '../store/fileStore';
import { DEFAULT_LIMITS, type Limits } from '../contract/limits';
import type { PathCheck } from '../store/paths';
import type { EngineOptions, RetryPolicy } from './options';
import { defaultPathCheck, underRoot } from '../store/paths';
import { portablePathProblem } from '../store/portableNames';
import type { SyntaxChecker } from '../syntax/syntaxChecker';
import { realSleep, retryPolicyOf, withDefaults, type Sleep } from './retry';
import type { YieldPoint } from '../matching/match';

export interface EngineContext {
  readonly store: FileStore;
  readonly limits: Limits;
  readonly retry: RetryPolicy;
  readonly sleep: Sleep;
  readonly checkPath: PathCheck;
  readonly displayPath: (path: string) => string;
  /** A patch's path under the root; absolute paths (and every path when there is no root) as they are. */
  readonly underRoot: (path: string) => string;
  /** The caller cancelled (a signal, the editor's token). The store reads this while it commits. */
  readonly isCancelled: () => boolean;
  /** Planning stops: the caller cancelled, or the time limit passed (which never stops a commit once begun). */
  readonly planningStopped: () => boolean;
  /** Why planning stopped, for the CANCELLED envelope. */
  readonly stopMessage: () => string;
  /** Between edits: lets the event loop run every few milliseconds, and says whether to go on. */
  readonly yieldPoint: YieldPoint;
  /** The encoding a file is read in when it has no BOM, is not UTF-8 and its request names none. */
  readonly encoding?: string;
  /** The id an applied request's success carries (request_id). */
  readonly requestId?: string;
  /** Absent when the gate is off or no checker was given. */
  readonly syntax?: { readonly checker: SyntaxChecker; readonly policy: 'refuse' | 'warn' };
}

/** Planning gives the event loop a turn at least this often. */
const SLICE_MS = 20;

export function engineContext(options: EngineOptions): EngineContext {
  const displayPath = options.displayPath;
  const isCancelled = (): boolean => options.cancellation?.isCancellationRequested === true;
  const deadline = options.timeLimitMs !== undefined ? Date.now() + options.timeLimitMs : undefined;
  const outOfTime = (): boolean => deadline !== undefined && Date.now() > deadline;
  const planningStopped = (): boolean => isCancelled() || outOfTime();
  let sliceStart = Date.now();
  const yieldPoint: YieldPoint = () => {
    if (Date.now() - sliceStart < SLICE_MS) {
      return !planningStopped();
    }
    return new Promise((resolve) => {
      setTimeout(() => {
        sliceStart = Date.now();
        resolve(!planningStopped());
      }, 0);
    });
  };
  return {
    store: options.store,
    limits: withDefaults(DEFAULT_LIMITS, options.limits),
    retry: retryPolicyOf(options.retry),
    sleep: options.sleep ?? realSleep,
    checkPath: withPortableNames(options.checkPath ?? ((path) => defaultPathCheck(path)), options.root),
    displayPath: displayPath ? (path) => displayPath(path) : (path) => path,
    underRoot: (path) => underRoot(options.root, path),
    isCancelled,
    planningStopped,
    stopMessage: () => (!isCancelled() && outOfTime()
      ? `planning took longer than the time limit of ${formatSeconds(options.timeLimitMs ?? 0)}`
      : 'the request was cancelled'),
    yieldPoint,
    ...(options.encoding !== undefined ? { encoding: options.encoding } : {}),
    ...(options.requestId !== undefined ? { requestId: options.requestId } : {}),
    ...syntaxGate(options),
  };
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(3).replace(/0+$/, '')} s`;
}

function syntaxGate(options: EngineOptions): Pick<EngineContext, 'syntax'> {
  const policy = options.syntaxCheck ?? 'refuse';
  return options.syntaxChecker && policy !== 'off' ? { syntax: { checker: options.syntaxChecker, policy } } : {};
}

/**
 * The adapter's path check, then the names no target may have on any system
 * (portableNames.ts): every surface and every path the engine checks gets the rule.
 */
function withPortableNames(checkPath: PathCheck, root: string | undefined): PathCheck {
  return async (requested) => {
    const result = await checkPath(requested);
    if (!result.ok) {
      return result;
    }
    const problem = portablePathProblem(requested, root);
    return problem === undefined
      ? result
      : { ok: false, code: 'VALIDATION_FAILED', detail: `${problem}; such names are refused on every system`, hints: ['Choose a name without a Windows device name, a colon, or a trailing dot or space'] };
  };
}
