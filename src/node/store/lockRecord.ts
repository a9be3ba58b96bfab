/**
 * What a lock file says about its owner: which process on which host holds it, and
 * the whole batch it belongs to, so that a crashed batch can be found from any of
 * its files and finished or undone as one.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

const FORMAT = 'multi-edit-lock/1';

export interface LockRecord {
  readonly format: typeof FORMAT;
  /** Random id of one commit; the commit marker holds the same id. */
  readonly batch: string;
  readonly pid: number;
  readonly host: string;
  readonly started: string;
  /** Every target of the batch by real path, in locking order; the first is the primary. */
  readonly files: readonly string[];
}

/** Batches this process is committing right now: a lock with our pid is live only if it is one of them. */
const batchesInFlight = new Set<string>();

export function newLockRecord(files: readonly string[]): LockRecord {
  const record: LockRecord = {
    format: FORMAT,
    batch: randomBytes(8).toString('hex'),
    pid: process.pid,
    host: hostname(),
    started: new Date().toISOString(),
    files,
  };
  batchesInFlight.add(record.batch);
  return record;
}

/** Called once the batch's files are released, whatever the outcome. */
export function retireRecord(record: LockRecord): void {
  batchesInFlight.delete(record.batch);
}

export function serializeRecord(record: LockRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/** The record in a lock file's text, or undefined when the text is torn or not ours. */
export function parseRecord(text: string): LockRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockRecord>;
    const valid = value.format === FORMAT
      && typeof value.batch === 'string'
      && typeof value.pid === 'number'
      && typeof value.host === 'string'
      && typeof value.started === 'string'
      && Array.isArray(value.files) && value.files.length > 0 && value.files.every((file) => typeof file === 'string');
    return valid ? (value as LockRecord) : undefined;
  } catch {
    return undefined;
  }
}

export type OwnerState = 'alive' | 'dead' | 'unknown';

/**
 * Whether the process that wrote `record` still runs. Only a process on this host
 * can be asked; a lock from another host (a shared network drive) is never taken over.
 */
export function ownerState(record: LockRecord): OwnerState {
  if (record.host !== hostname()) {
    return 'unknown';
  }
  if (record.pid === process.pid) {
    // Our own pid: a commit of this process, or a crashed process that had the same pid.
    return batchesInFlight.has(record.batch) ? 'alive' : 'dead';
  }
  try {
    process.kill(record.pid, 0);
    return 'alive';
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? 'dead' : 'alive';
  }
}
