/**
 * Finishing or undoing a batch whose process died mid-commit (SIGKILL, a crash, a
 * power cut). The batch's lock files are its journal: each names every file of the
 * batch. If the commit marker next to the first file holds the batch id, the batch
 * had reached its commit point and is rolled forward (every remaining .new file is
 * renamed over its target); otherwise it is rolled back (every .old hard link is
 * renamed back). Either way the whole batch ends all old or all new, and every
 * sidecar file is removed.
 */
import { dirname } from 'node:path';
import { errnoOf } from '../../core/index';
import { readIfPresent, removeIfPresent, renameIfPresent, syncDirectories, writeSynced, type NodeFsApi } from './fsApi';
import { newLockRecord, ownerState, parseRecord, retireRecord, serializeRecord, type LockRecord } from './lockRecord';
import { sidecarPath } from './sidecars';

/** A lock or claim file without a readable record is a writer that died between creating and filling it. */
export const TORN_LOCK_AGE_MS = 10_000;

export type HolderVerdict =
  | { readonly kind: 'gone' }
  | { readonly kind: 'live'; readonly record?: LockRecord }
  | { readonly kind: 'abandoned'; readonly record?: LockRecord };

/** Who holds the lock or claim at `path`, and whether that holder can still finish. */
export async function inspectHolder(fs: NodeFsApi, path: string): Promise<HolderVerdict> {
  let text: string | undefined;
  let ageMs: number;
  try {
    text = await readIfPresent(fs, path);
    if (text === undefined) {
      return { kind: 'gone' };
    }
    ageMs = Date.now() - (await fs.stat(path)).mtimeMs;
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') {
      return { kind: 'gone' };
    }
    throw error;
  }
  const record = parseRecord(text);
  if (!record) {
    return ageMs > TORN_LOCK_AGE_MS ? { kind: 'abandoned' } : { kind: 'live' };
  }
  return ownerState(record) === 'dead' ? { kind: 'abandoned', record } : { kind: 'live', record };
}

export type RecoveryResult = { readonly recovered: true } | { readonly recovered: false; readonly holder?: LockRecord };

/**
 * Recovers the abandoned batch `record` under a claim file, so that two processes
 * never recover the same batch at once. Returns recovered: false when another live
 * process holds the claim.
 */
export async function recoverBatch(fs: NodeFsApi, record: LockRecord): Promise<RecoveryResult> {
  const claimPath = sidecarPath(record.files[0], 'claim');
  const claim = newLockRecord([record.files[0]]);
  try {
    if (!(await takeClaim(fs, claimPath, claim))) {
      const holder = await inspectHolder(fs, claimPath);
      return { recovered: false, ...(holder.kind === 'live' && holder.record ? { holder: holder.record } : {}) };
    }
    try {
      await finishOrUndo(fs, record);
    } finally {
      await removeIfPresent(fs, claimPath);
    }
    return { recovered: true };
  } finally {
    retireRecord(claim);
  }
}

async function takeClaim(fs: NodeFsApi, claimPath: string, claim: LockRecord): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeSynced(fs, claimPath, serializeRecord(claim), 'wx', 0o644);
      return true;
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') {
        throw error;
      }
    }
    const holder = await inspectHolder(fs, claimPath);
    if (holder.kind === 'live') {
      return false;
    }
    if (holder.kind === 'abandoned') {
      // A recoverer that died itself; recovery is idempotent, so its work is simply redone.
      await removeIfPresent(fs, claimPath);
    }
  }
  return false;
}

async function finishOrUndo(fs: NodeFsApi, record: LockRecord): Promise<void> {
  const members: string[] = [];
  for (const file of record.files) {
    const lock = parseRecord((await readIfPresent(fs, sidecarPath(file, 'lock'))) ?? '');
    if (lock?.batch === record.batch) {
      members.push(file);
    }
  }
  const markerPath = sidecarPath(record.files[0], 'commit');
  const committed = (await readIfPresent(fs, markerPath))?.trim() === record.batch;
  for (const file of members) {
    await renameIfPresent(fs, sidecarPath(file, committed ? 'new' : 'old'), file);
  }
  await syncDirectories(fs, members.map((file) => dirname(file)));
  for (const file of members) {
    await removeIfPresent(fs, sidecarPath(file, 'new'));
    await removeIfPresent(fs, sidecarPath(file, 'old'));
  }
  // Only the holder of the first file's lock writes a marker there, so any marker found is this batch's (perhaps torn).
  if (members.includes(record.files[0])) {
    await removeIfPresent(fs, markerPath);
  }
  // The first file's lock goes last: while any lock of the batch remains, the journal can be found.
  for (const file of [...members].reverse()) {
    await removeIfPresent(fs, sidecarPath(file, 'lock'));
  }
  await syncDirectories(fs, members.map((file) => dirname(file)));
}

/** Before a file is read: if a dead process left a batch that includes it, finish or undo that batch first. */
export async function recoverIfAbandoned(fs: NodeFsApi, realPath: string): Promise<void> {
  const holder = await inspectHolder(fs, sidecarPath(realPath, 'lock'));
  if (holder.kind === 'abandoned') {
    if (holder.record) {
      await recoverBatch(fs, holder.record);
    } else {
      await removeIfPresent(fs, sidecarPath(realPath, 'lock'));
    }
  }
}
