/**
 * Ctrl+C, SIGTERM and SIGHUP while a request runs become a cancellation: the engine
 * stops before it writes, or the store undoes what it wrote, and the run reports
 * CANCELLED instead of dying with some files new and some old. Outside a request the
 * signals keep their usual meaning. SIGKILL cannot be caught; the store's journal
 * covers it.
 */
import type { CancellationSignal } from '../../core/index';

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export class Interruption implements CancellationSignal {
  private received: NodeJS.Signals | undefined;

  get isCancellationRequested(): boolean {
    return this.received !== undefined;
  }

  /** The first signal received while `work` ran, if any. */
  get signal(): NodeJS.Signals | undefined {
    return this.received;
  }

  async during<T>(work: () => Promise<T>): Promise<T> {
    const onSignal = (signal: NodeJS.Signals): void => {
      // Later signals are ignored too: an undo half done is worse than a second's wait.
      this.received ??= signal;
    };
    for (const signal of SIGNALS) {
      process.on(signal, onSignal);
    }
    try {
      return await work();
    } finally {
      for (const signal of SIGNALS) {
        process.off(signal, onSignal);
      }
    }
  }
}
