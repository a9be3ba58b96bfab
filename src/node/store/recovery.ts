/**
 * Finishing or undoing a batch whose process died mid-commit (SIGKILL, a crash, a
 * power cut). The batch's lock files are its journal: the first file's lock lists
 * every file of the batch and what the batch does to it, and every other lock names
 * that first file. If the commit marker next to the first file holds the batch id,
 * the batch had reached its commit point and is rolled forward; otherwise it is
 * rolled back. Either way the whole batch ends all old or all new, and every sidecar
 * file is removed.
 *
 *   operation   roll forward                          roll back
 *   update      rename .new over the file              rename .old back over the file
 *   add         link .new to the file's name           remove the file if it is .new's inode
 *   delete      remove the file if it is .old's inode  rename .old back to the file's name
 */
import { dirname, join } from 'node:path';
import { errnoOf } from '../../core/index';
import { readIfPresent, removeIfPresent, renameIfPresent, syncDirectories, writeSynced, type NodeFsApi } from './fsApi';
import { newLockRecord, operationAt, ownerState, parseRecord, processRuns, retireRecord, serializeRecord, type JournalOperation, type LockRecord } from './lockRecord';
import { draftInFlight, draftOwnerOnThisHost, sidecarPath } from './sidecars';
import type { RecentFacts } from './storeMemory';

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
 * Recovers the abandoned batch `record` (found in the lock at `foundAt`) under a claim
 * file, so that two processes never recover the same batch at once. Returns
 * recovered: false when another live process holds the claim.
 */
export async function recoverBatch(fs: NodeFsApi, record: LockRecord, foundAt: string): Promise<RecoveryResult> {
  const claimPath = sidecarPath(record.files[0], 'claim');
  const claim = newLockRecord([record.files[0]]);
  try {
    if (!(await takeClaim(fs, claimPath, claim))) {
      const holder = await inspectHolder(fs, claimPath);
      return { recovered: false, ...(holder.kind === 'live' && holder.record ? { holder: holder.record } : {}) };
    }
    try {
      await finishOrUndo(fs, await manifestOf(fs, record));
      // A lock that its batch's list does not reach (its first file's lock is gone) still goes.
      if (parseRecord((await readIfPresent(fs, foundAt)) ?? '')?.batch === record.batch) {
        await removeIfPresent(fs, foundAt);
      }
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

/** The record that lists the whole batch: the first file's lock, when it is still this batch's. */
async function manifestOf(fs: NodeFsApi, record: LockRecord): Promise<LockRecord> {
  if (record.files.length > 1) {
    return record;
  }
  const primary = parseRecord((await readIfPresent(fs, sidecarPath(record.files[0], 'lock'))) ?? '');
  return primary?.batch === record.batch ? primary : record;
}

interface Member {
  readonly file: string;
  readonly operation: JournalOperation;
}

async function finishOrUndo(fs: NodeFsApi, manifest: LockRecord): Promise<void> {
  const members: Member[] = [];
  for (const [index, file] of manifest.files.entries()) {
    const lock = parseRecord((await readIfPresent(fs, sidecarPath(file, 'lock'))) ?? '');
    if (lock?.batch === manifest.batch) {
      members.push({ file, operation: operationAt(manifest, index) });
    }
  }
  const primary = manifest.files[0];
  const markerPath = sidecarPath(primary, 'commit');
  const committed = (await readIfPresent(fs, markerPath))?.trim() === manifest.batch;
  for (const member of members) {
    await (committed ? rollForward : rollBack)(fs, member);
  }
  await syncDirectories(fs, members.map((member) => dirname(member.file)));
  for (const { file } of members) {
    await removeIfPresent(fs, sidecarPath(file, 'new'));
    await removeIfPresent(fs, sidecarPath(file, 'old'));
  }
  // Only the holder of the first file's lock writes a marker there, so any marker found is this batch's (perhaps torn).
  if (members.some((member) => member.file === primary)) {
    await removeIfPresent(fs, markerPath);
  }
  // The first file's lock goes last: while any lock of the batch remains, the journal can be found.
  for (const { file } of [...members].reverse()) {
    await removeIfPresent(fs, sidecarPath(file, 'lock'));
  }
  await syncDirectories(fs, members.map((member) => dirname(member.file)));
}

async function rollForward(fs: NodeFsApi, { file, operation }: Member): Promise<void> {
  if (operation === 'update') {
    await renameIfPresent(fs, sidecarPath(file, 'new'), file);
  } else if (operation === 'add') {
    await linkIfFree(fs, sidecarPath(file, 'new'), file);
  } else if (await sameInode(fs, file, sidecarPath(file, 'old'))) {
    await removeIfPresent(fs, file);
  }
}

async function rollBack(fs: NodeFsApi, { file, operation }: Member): Promise<void> {
  if (operation === 'add') {
    if (await sameInode(fs, file, sidecarPath(file, 'new'))) {
      await removeIfPresent(fs, file);
    }
  } else {
    await renameIfPresent(fs, sidecarPath(file, 'old'), file);
  }
}

/** Gives `from`'s inode the name `to` unless `to` exists; a missing `from` (already cleaned up) is fine. */
async function linkIfFree(fs: NodeFsApi, from: string, to: string): Promise<void> {
  try {
    await fs.link(from, to);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST' && errnoOf(error) !== 'ENOENT') {
      throw error;
    }
  }
}

/** Whether both names exist and lead to one inode. */
async function sameInode(fs: NodeFsApi, a: string, b: string): Promise<boolean> {
  try {
    const [first, second] = await Promise.all([fs.lstat(a), fs.lstat(b)]);
    return first.dev === second.dev && first.ino === second.ino;
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') {
      return false;
    }
    throw error;
  }
}

/**
 * How long a read waits while another recovers the batch its file is in (this process's
 * other reads of the batch included): the claim is held only for the few renames it takes.
 */
const RECOVERY_WAIT_MS = 5_000;

/**
 * Before a file is read: if a dead process left a batch that includes it, finish or undo
 * that batch first. When another holds the batch's claim, waits for its recovery rather
 * than read a file the batch has yet to settle; recovered: false only past the wait.
 */
export async function recoverIfAbandoned(fs: NodeFsApi, realPath: string): Promise<RecoveryResult> {
  const lockPath = sidecarPath(realPath, 'lock');
  let waited = 0;
  for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
    const holder = await inspectHolder(fs, lockPath);
    if (holder.kind !== 'abandoned') {
      return { recovered: true };
    }
    if (!holder.record) {
      await removeIfPresent(fs, lockPath);
      return { recovered: true };
    }
    const recovery = await recoverBatch(fs, holder.record, lockPath);
    if (recovery.recovered || waited >= RECOVERY_WAIT_MS) {
      return recovery;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    waited += pause;
  }
}

/** sweepDrafts, unless `swept` remembers that `directory` was swept recently enough. */
export async function sweepDraftsOnce(fs: NodeFsApi, directory: string, swept: RecentFacts<true>): Promise<void> {
  if (swept.get(directory) === undefined) {
    await sweepDrafts(fs, directory);
    swept.set(directory, true);
  }
}

/** Removes the lock drafts left in `directory` by processes of this host that have ended, or by this one. */
async function sweepDrafts(fs: NodeFsApi, directory: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(directory);
  } catch {
    return; // The read or commit that follows reports what is wrong with the directory.
  }
  for (const name of names) {
    const path = join(directory, name);
    const pid = draftOwnerOnThisHost(name);
    const abandoned = pid === process.pid ? !draftInFlight(path) : pid !== undefined && !processRuns(pid);
    if (abandoned) {
      await removeIfPresent(fs, path);
    }
  }
}
