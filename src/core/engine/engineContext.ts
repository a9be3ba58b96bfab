/** EngineOptions with every default filled in, as the engine's modules use them. */
import type { FileStore } from '../store/fileStore';
import { DEFAULT_LIMITS, type Limits } from '../contract/limits';
import type { PathCheck } from '../store/paths';
import type { EngineOptions, RetryPolicy } from './options';
import { defaultPathCheck, underRoot } from '../store/paths';
import type { SyntaxChecker } from '../syntax/syntaxChecker';
import { realSleep, retryPolicyOf, withDefaults, type Sleep } from './retry';

export interface EngineContext {
  readonly store: FileStore;
  readonly limits: Limits;
  readonly retry: RetryPolicy;
  readonly sleep: Sleep;
  readonly checkPath: PathCheck;
  readonly displayPath: (path: string) => string;
  /** A patch's path under the root; absolute paths (and every path when there is no root) as they are. */
  readonly underRoot: (path: string) => string;
  readonly isCancelled: () => boolean;
  /** The id an applied request's success carries (request_id). */
  readonly requestId?: string;
  /** Absent when the gate is off or no checker was given. */
  readonly syntax?: { readonly checker: SyntaxChecker; readonly policy: 'refuse' | 'warn' };
}

export function engineContext(options: EngineOptions): EngineContext {
  const displayPath = options.displayPath;
  return {
    store: options.store,
    limits: withDefaults(DEFAULT_LIMITS, options.limits),
    retry: retryPolicyOf(options.retry),
    sleep: options.sleep ?? realSleep,
    checkPath: options.checkPath ?? ((path) => defaultPathCheck(path)),
    displayPath: displayPath ? (path) => displayPath(path) : (path) => path,
    underRoot: (path) => underRoot(options.root, path),
    isCancelled: () => options.cancellation?.isCancellationRequested === true,
    ...(options.requestId !== undefined ? { requestId: options.requestId } : {}),
    ...syntaxGate(options),
  };
}

function syntaxGate(options: EngineOptions): Pick<EngineContext, 'syntax'> {
  const policy = options.syntaxCheck ?? 'refuse';
  return options.syntaxChecker && policy !== 'off' ? { syntax: { checker: options.syntaxChecker, policy } } : {};
}
