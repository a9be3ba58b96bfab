/**
 * FILE_BUSY is transient (EBUSY, EAGAIN, a document being saved), so the engine
 * retries it with exponential backoff before it reports anything.
 */
import type { StoreResult } from '../store/fileStore';
import { DEFAULT_RETRY, type RetryPolicy } from './options';

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function retryPolicyOf(overrides: Partial<RetryPolicy> | undefined): RetryPolicy {
  return withDefaults(DEFAULT_RETRY, overrides);
}

/** `defaults` with each override that is set; an override left undefined keeps the default. */
export function withDefaults<T extends object>(defaults: T, overrides: Partial<T> | undefined): T {
  const merged = { ...defaults };
  for (const key of Object.keys(overrides ?? {}) as (keyof T)[]) {
    const value = overrides?.[key];
    if (value !== undefined) {
      merged[key] = value as T[keyof T];
    }
  }
  return merged;
}

/**
 * The waits between attempts: from initialDelayMs, doubling, each capped at
 * maxDelayMs; at most maxAttempts - 1 waits, and never more than maxTotalMs in all.
 */
export function backoffDelays(policy: RetryPolicy): number[] {
  const delays: number[] = [];
  let next = Math.max(0, policy.initialDelayMs);
  let total = 0;
  for (let attempt = 1; attempt < policy.maxAttempts; attempt++) {
    const delay = Math.min(next, policy.maxDelayMs);
    if (total + delay > policy.maxTotalMs) {
      break;
    }
    delays.push(delay);
    total += delay;
    next = delay * 2;
  }
  return delays;
}

/**
 * Runs `operation` again after each backoff delay while it reports FILE_BUSY; stops
 * early, returning the last result, when `stopped` says the request was cancelled.
 */
export async function retryWhileBusy<T>(
  operation: () => Promise<StoreResult<T>>,
  policy: RetryPolicy,
  sleep: Sleep,
  stopped: () => boolean = () => false,
): Promise<StoreResult<T>> {
  let result = await operation();
  for (const delay of backoffDelays(policy)) {
    if (result.ok || result.code !== 'FILE_BUSY' || stopped()) {
      return result;
    }
    await sleep(delay);
    result = await operation();
  }
  return result;
}
