/** EngineOptions with every default filled in, as the engine's modules use them. */
import type { FileStore } from '../store/fileStore';
import { DEFAULT_LIMITS, type EngineOptions, type Limits, type PathCheck, type RetryPolicy } from './options';
import { defaultPathCheck, underRoot } from '../store/paths';
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
  };
}
