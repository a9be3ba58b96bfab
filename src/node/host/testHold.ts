/**
 * For the signal tests only: MULTI_EDIT_TEST_HOLD=read|plan|gate|commit makes a CLI run
 * say on stderr when it reaches that stage ("multi-edit: test hold: STAGE"), and, except
 * for plan (which a large patch holds by itself), wait there for a signal (at most ten
 * seconds), so that a test can send SIGINT or SIGTERM at a known stage. Unset, nothing
 * is wrapped. It is documented in docs/reliability.md as a test hook, not an option.
 */
import type { CancellationSignal, EngineOptions, FileStore, GoAhead, SyntaxChecker } from '../../core/index';

export const TEST_HOLD_VARIABLE = 'MULTI_EDIT_TEST_HOLD';
const STAGES = ['read', 'plan', 'gate', 'commit'] as const;
type Stage = (typeof STAGES)[number];
const MAX_HOLD_MS = 10_000;

/** The store and syntax checker, wrapped to hold at the stage the variable names. */
export function heldForTests(options: Pick<EngineOptions, 'store' | 'syntaxChecker'>, cancellation: CancellationSignal): Pick<EngineOptions, 'store' | 'syntaxChecker'> {
  const stage = process.env[TEST_HOLD_VARIABLE] as Stage | undefined;
  if (stage === undefined || !STAGES.includes(stage)) {
    return options;
  }
  const hold = async (wait: boolean): Promise<void> => {
    process.stderr.write(`multi-edit: test hold: ${stage}\n`);
    for (const started = Date.now(); wait && !cancellation.isCancellationRequested && Date.now() - started < MAX_HOLD_MS;) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const store = options.store;
  const wrapped: FileStore = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') {
        return value;
      }
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property === 'read' && (stage === 'read' || stage === 'plan')) {
        return async (...args: unknown[]) => {
          if (stage === 'read') {
            await hold(true);
          }
          const read = await method(...args);
          if (stage === 'plan') {
            await hold(false);
          }
          return read;
        };
      }
      if (property === 'commitWhenCleared' && stage === 'commit') {
        // Held after the new text is staged and synced, before anything is published.
        return (changes: unknown, goAhead: GoAhead, isCancelled?: () => boolean) => method(changes, async () => {
          const cleared = await goAhead();
          await hold(true);
          return cleared;
        }, isCancelled);
      }
      return method;
    },
  });
  const checker = options.syntaxChecker;
  const heldChecker: SyntaxChecker | undefined = checker && stage === 'gate'
    ? {
      errorsIn: async (...args) => {
        await hold(true);
        return checker.errorsIn(...args);
      },
    }
    : checker;
  return { store: wrapped, ...(heldChecker ? { syntaxChecker: heldChecker } : {}) };
}
