/**
 * What a lock file says about its owner: which process on which host holds it, and
 * the batch it belongs to, so that a crashed batch can be found from any of its files
 * and finished or undone as one. The first file's lock (the primary) lists every file
 * of the batch and what the batch does to each; every other lock names only the
 * primary, so the records of a batch grow with its size, not with its square.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

const FORMAT = 'multi-edit-lock/1';

/** What a batch does to one of its files: a move is an add of its destination and a delete of its source. */
export type JournalOperation = 'update' | 'add' | 'delete';
const OPERATIONS: readonly string[] = ['update', 'add', 'delete'] satisfies readonly JournalOperation[];

export interface LockRecord {
  readonly format: typeof FORMAT;
  /** Random id of one commit; the commit marker holds the same id. */
  readonly batch: string;
  readonly pid: number;
  readonly host: string;
  readonly started: string;
  /**
   * In the primary's lock, every target of the batch by real path, in locking order,
   * the primary first; in any other lock, the primary alone.
   */
  readonly files: readonly string[];
  /** In the primary's lock, what the batch does to each file of `files`; absent: every file is updated. */
  readonly operations?: readonly JournalOperation[];
}

/** Batches this process is committing right now: a lock with our pid is live only if it is one of them. */
const batchesInFlight = new Set<string>();

export function newLockRecord(files: readonly string[], operations?: readonly JournalOperation[]): LockRecord {
  const record: LockRecord = {
    format: FORMAT,
    batch: randomBytes(8).toString('hex'),
    pid: process.pid,
    host: hostname(),
    started: new Date().toISOString(),
    files,
    ...(operations?.some((operation) => operation !== 'update') ? { operations } : {}),
  };
  batchesInFlight.add(record.batch);
  return record;
}

/** The record of every lock of the batch but the primary's: it names the primary, where the rest is. */
export function memberRecord(record: LockRecord): LockRecord {
  return { format: record.format, batch: record.batch, pid: record.pid, host: record.host, started: record.started, files: [record.files[0]] };
}

/** What the batch of `record` does to its `index`-th file. */
export function operationAt(record: LockRecord, index: number): JournalOperation {
  return record.operations?.[index] ?? 'update';
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
      && Array.isArray(value.files) && value.files.length > 0 && value.files.every((file) => typeof file === 'string')
      && (value.operations === undefined
        || (Array.isArray(value.operations) && value.operations.length === value.files.length && value.operations.every((operation) => OPERATIONS.includes(operation))));
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
  return processRuns(record.pid) ? 'alive' : 'dead';
}

/** Whether a process with this id exists on this host. */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
