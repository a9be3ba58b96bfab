/**
 * What a store learns about directories and devices rather than about one file:
 * which directories it has cleared of the lock drafts of dead processes, and which
 * devices hold a kernel file system (/proc and the like). A one-shot command keeps it
 * for its one request; a long-lived server shares it across its calls and learns each
 * fact again once it is older than its age limit, so a process that dies after a sweep
 * still has its drafts removed by a later call there. Abandoned batches do not depend
 * on it: their locks are looked at again before every read and every lock taken.
 */

/** How long a server trusts a sweep or a device's kind before it looks again. */
export const SERVER_MEMORY_MS = 10_000;

/** Facts by key, each forgotten once older than the age limit. */
export class RecentFacts<V> {
  private readonly facts = new Map<string, { readonly value: V; readonly learnedAt: number }>();

  constructor(private readonly maxAgeMs: number, private readonly clock: () => number = Date.now) {}

  get(key: string): V | undefined {
    const fact = this.facts.get(key);
    if (fact === undefined) {
      return undefined;
    }
    if (this.clock() - fact.learnedAt > this.maxAgeMs) {
      this.facts.delete(key);
      return undefined;
    }
    return fact.value;
  }

  set(key: string, value: V): void {
    this.facts.set(key, { value, learnedAt: this.clock() });
  }
}

export interface StoreMemory {
  /** Directories cleared of dead drafts, by real path. */
  readonly sweptDirectories: RecentFacts<true>;
  /** Whether each device holds a kernel file system, by device number. */
  readonly pseudoDevices: RecentFacts<boolean>;
}

/** A memory whose facts last `maxAgeMs` (for ever by default: a store that serves one request). */
export function storeMemory(maxAgeMs = Number.POSITIVE_INFINITY, clock: () => number = Date.now): StoreMemory {
  return { sweptDirectories: new RecentFacts(maxAgeMs, clock), pseudoDevices: new RecentFacts(maxAgeMs, clock) };
}
