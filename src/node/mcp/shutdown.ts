/**
 * When the server stops, and what happens to the calls still running.
 *
 * - Standard input ends (the client closed it or went away): no new call can arrive,
 *   so the calls running are let finish, each committing or rolling back as a whole,
 *   and the server exits 0.
 * - SIGINT, SIGTERM or SIGHUP: the calls running are cancelled, which undoes what
 *   they wrote (CANCELLED), and the server exits with 128 + the signal's number.
 *
 * Either way no lock, temp or journal file is left. SIGKILL cannot be caught; the
 * store's journal lets the next run finish or undo the batch.
 */
import { constants } from 'node:os';
import type { CancellationSignal } from '../../core';

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export type StopReason = { readonly kind: 'input_closed' } | { readonly kind: 'signal'; readonly signal: NodeJS.Signals };

export class Lifecycle {
  private readonly running = new Set<Promise<unknown>>();
  private reason: StopReason | undefined;
  private readonly stopped: Promise<void>;
  private onStop: () => void = () => undefined;

  constructor(private readonly input: NodeJS.ReadableStream = process.stdin) {
    this.stopped = new Promise((resolve) => {
      this.onStop = resolve;
    });
  }

  /** Starts watching stdin and the signals. */
  watch(): void {
    const onInputEnd = (): void => this.stop({ kind: 'input_closed' });
    this.input.once('end', onInputEnd);
    this.input.once('close', onInputEnd);
    for (const signal of SIGNALS) {
      process.on(signal, () => this.stop({ kind: 'signal', signal }));
    }
  }

  /** A call's cancellation: the client cancelled it, or a signal is stopping the server. */
  cancellationFor(clientAbort: AbortSignal): CancellationSignal {
    const stoppedBySignal = (): boolean => this.reason?.kind === 'signal';
    return {
      get isCancellationRequested(): boolean {
        return clientAbort.aborted || stoppedBySignal();
      },
    };
  }

  /** Counts a call as running until it settles, so the server does not exit under it. */
  track<T>(call: Promise<T>): Promise<T> {
    this.running.add(call);
    const settled = (): void => {
      this.running.delete(call);
    };
    call.then(settled, settled);
    return call;
  }

  /**
   * Resolves once the server was told to stop and every call it was running has
   * settled, with the reason that stopped it: a signal that came while the calls
   * wound down outranks the end of stdin.
   */
  async whenStopped(): Promise<StopReason> {
    await this.stopped;
    while (this.running.size > 0) {
      await Promise.allSettled([...this.running]);
    }
    return this.reason as StopReason;
  }

  private stop(reason: StopReason): void {
    // A signal outranks the end of stdin: it cancels the calls still running.
    if (this.reason === undefined || reason.kind === 'signal') {
      this.reason = reason;
    }
    this.onStop();
  }
}

export function exitCodeFor(reason: StopReason): number {
  return reason.kind === 'signal' ? 128 + constants.signals[reason.signal] : 0;
}
