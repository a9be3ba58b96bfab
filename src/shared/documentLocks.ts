/**
 * One commit at a time per document within one process: the extension host, or the
 * MCP server. Without it, in VS Code two overlapping requests can both pass the
 * version check before either edit lands, and the second is then applied to text it
 * was not planned against; in the MCP server, calls on one file would wait out each
 * other's lock files until some gave up with FILE_BUSY.
 *
 * A holder takes all of its keys at once, synchronously, and waits only for the
 * holders registered before it, so holders of overlapping key sets cannot deadlock
 * and holders of disjoint keys run side by side. The state is per module because
 * every request builds its own store, and the documents they share are per process.
 */

/** The release promise of the latest holder of each key. */
const latestHolder = new Map<string, Promise<void>>();

/** Runs `critical` once every earlier holder of any of `keys` has finished; it may fail or throw without keeping the keys. */
export async function withDocumentLocks<T>(keys: readonly string[], critical: () => Promise<T>): Promise<T> {
  const ownKeys = [...new Set(keys)];
  const earlier = ownKeys.flatMap((key) => latestHolder.get(key) ?? []);
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  ownKeys.forEach((key) => latestHolder.set(key, released));
  try {
    await Promise.all(earlier);
    return await critical();
  } finally {
    release();
    ownKeys.filter((key) => latestHolder.get(key) === released).forEach((key) => latestHolder.delete(key));
  }
}

/** How many keys are held or awaited, for tests that check nothing is kept after use. */
export function heldDocumentLocks(): number {
  return latestHolder.size;
}
