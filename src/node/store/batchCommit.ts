/**
 * Commits the new text of one or more files so that no update is lost and no batch
 * is half-applied (docs/reliability.md tells the whole protocol):
 *
 * 1. Lock every target, in the order of their real paths, by creating its lock file
 *    with O_EXCL. A lock held by a live process is FILE_BUSY (the engine backs off and
 *    tries again); a lock left by a dead process is recovered first.
 * 2. Stage: write each new text to its .new file and sync it. For several files, also
 *    keep a hard link to each old content (.old).
 * 3. Check that each target still holds exactly the bytes the plan was made from;
 *    otherwise STALE_CONTENT, and nothing is written. For several files, create the
 *    commit marker: the commit point. A crash before it leaves every file old; after
 *    it, every file new.
 * 4. Rename each .new over its target, then remove the sidecars, the locks last.
 *
 * An interruption (SIGINT, SIGTERM, SIGHUP) or a failure before the last rename undoes
 * everything written; the journal on disk lets the next run finish an undo that could
 * not be completed here.
 */
import { constants } from 'node:fs';
import { dirname } from 'node:path';
import { errnoOf, type PlannedUpdate, type StoreFailure, storeFailureFromError, type StoreResult } from '../../core/index';
import { holdTarget, type ConfinementRule, type HeldTarget } from './confinement';
import { readIfPresent, removeIfPresent, syncDirectories, writeSynced, type NodeFsApi } from './fsApi';
import { newLockRecord, parseRecord, retireRecord, serializeRecord, type LockRecord } from './lockRecord';
import { inspectHolder, recoverBatch } from './recovery';
import { sidecarPath } from './sidecars';
import { encodedChunks, fileHolds, isReadVersion } from './textBytes';

interface Target {
  readonly write: PlannedUpdate;
  /** The file a symbolic link leads to: the one that is locked and replaced. */
  readonly real: string;
  /** The path the steps use: `real`, or the same file through its held directory when the commit is confined. */
  readonly at: string;
  readonly held?: HeldTarget;
  locked: boolean;
  renamed: boolean;
}

/** How often one lock is retried within an attempt after recovering a crashed batch. */
const LOCK_TRIES = 3;

/**
 * A commit holds its locks for milliseconds, so a taken lock is first polled briefly,
 * from 2 ms and doubling, for up to this long; only then is it FILE_BUSY, and the
 * engine's slower retry policy takes over.
 */
const LOCK_WAIT_MS = 250;

/** `confine`, when given, must allow the real path of every target, checked by its held directory (confinement.ts). */
export async function commitBatch(fs: NodeFsApi, writes: readonly PlannedUpdate[], isCancelled: () => boolean, confine?: ConfinementRule): Promise<StoreResult<void>> {
  const targets: Target[] = [];
  try {
    for (const write of writes) {
      const target = await targetOf(fs, write, confine);
      if (!target.ok) {
        return target;
      }
      targets.push(target.value);
    }
    targets.sort((a, b) => (a.real < b.real ? -1 : a.real > b.real ? 1 : 0));
    const record = newLockRecord(targets.map((target) => target.real));
    try {
      return await new BatchCommit(fs, record, targets, isCancelled).run();
    } finally {
      retireRecord(record);
    }
  } finally {
    await Promise.all(targets.map((target) => target.held?.release()));
  }
}

async function targetOf(fs: NodeFsApi, write: PlannedUpdate, confine: ConfinementRule | undefined): Promise<StoreResult<Target>> {
  try {
    const real = await fs.realpath(write.path);
    const held = confine ? await holdTarget(real, confine, write.path) : undefined;
    if (held && !held.ok) {
      return held;
    }
    const at = held ? held.value.at : real;
    // A rename would replace a read-only file too; respect the file's own permission.
    await fs.access(at, constants.W_OK);
    return { ok: true, value: { write, real, at, ...(held ? { held: held.value } : {}), locked: false, renamed: false } };
  } catch (error) {
    return { ...storeFailureFromError(error, 'write'), path: write.path };
  }
}

class BatchCommit {
  /** Set when an undo could not finish: the sidecars stay as the journal for the next run. */
  private keepJournal = false;

  constructor(
    private readonly fs: NodeFsApi,
    private readonly record: LockRecord,
    private readonly targets: readonly Target[],
    private readonly isCancelled: () => boolean,
  ) {}

  private get several(): boolean {
    return this.targets.length > 1;
  }

  async run(): Promise<StoreResult<void>> {
    try {
      const prepared = await this.prepare();
      if (!prepared.ok) {
        return prepared;
      }
      return await this.publish();
    } finally {
      if (!this.keepJournal) {
        await this.cleanUp();
      }
    }
  }

  /** Steps 1 to 3: after this, only renames remain. Nothing a user can see has changed. */
  private async prepare(): Promise<StoreResult<void>> {
    // The content check comes last, so that a writer which ignores the locks has the
    // shortest possible window between the check and the renames.
    for (const step of [this.lock, this.stage, this.verify]) {
      for (const target of this.targets) {
        const result = await this.attempt(target, () => step.call(this, target));
        if (!result.ok) {
          return result;
        }
      }
    }
    if (this.isCancelled()) {
      return interrupted();
    }
    if (this.several) {
      return this.attempt(this.targets[0], () => this.markCommitted());
    }
    return { ok: true, value: undefined };
  }

  /** Step 4. A failure or an interruption between renames undoes the renames already made. */
  private async publish(): Promise<StoreResult<void>> {
    for (const target of this.targets) {
      if (this.isCancelled()) {
        return this.undo(interrupted());
      }
      const moved = await target.held?.confirm();
      if (moved) {
        return this.undo(moved);
      }
      try {
        await this.fs.rename(sidecarPath(target.at, 'new'), target.at);
        target.renamed = true;
      } catch (error) {
        return this.undo({ ...storeFailureFromError(error, 'write'), path: target.write.path });
      }
    }
    await syncDirectories(this.fs, this.targets.map((target) => dirname(target.at)));
    return { ok: true, value: undefined };
  }

  private async attempt(target: Target, step: () => Promise<StoreResult<void>>): Promise<StoreResult<void>> {
    try {
      return await step();
    } catch (error) {
      return { ...storeFailureFromError(error, 'write'), path: target.write.path };
    }
  }

  private async lock(target: Target): Promise<StoreResult<void>> {
    let waited = 0;
    for (let pause = 2; ; pause *= 2) {
      const result = await this.tryLock(target);
      if (result.ok || result.code !== 'FILE_BUSY' || waited >= LOCK_WAIT_MS || this.isCancelled()) {
        return result;
      }
      const wait = Math.min(pause, LOCK_WAIT_MS - waited);
      await new Promise((resolve) => setTimeout(resolve, wait));
      waited += wait;
    }
  }

  private async tryLock(target: Target): Promise<StoreResult<void>> {
    const lockPath = sidecarPath(target.at, 'lock');
    for (let attempt = 0; attempt < LOCK_TRIES; attempt++) {
      try {
        await writeSynced(this.fs, lockPath, serializeRecord(this.record), 'wx', 0o644);
        target.locked = true;
        return { ok: true, value: undefined };
      } catch (error) {
        if (errnoOf(error) !== 'EEXIST') {
          throw error;
        }
      }
      const holder = await inspectHolder(this.fs, lockPath);
      if (holder.kind === 'live') {
        return busy(target, holder.record);
      }
      if (holder.kind === 'abandoned') {
        const recovery = holder.record ? await recoverBatch(this.fs, holder.record) : await this.removeTornLock(lockPath);
        if (!recovery.recovered) {
          return busy(target, recovery.holder);
        }
      }
    }
    return busy(target, undefined);
  }

  private async removeTornLock(lockPath: string): Promise<{ recovered: true }> {
    await removeIfPresent(this.fs, lockPath);
    return { recovered: true };
  }

  /** The target must hold exactly the bytes the plan was made from, and still be a regular file. */
  private async verify(target: Target): Promise<StoreResult<void>> {
    const version = target.write.original.version;
    if (!isReadVersion(version)) {
      return { ok: true, value: undefined };
    }
    const handle = await this.fs.open(target.at, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stats = await handle.stat();
      if (!stats.isFile() || stats.size !== version.byteLength) {
        return stale(target);
      }
      return (await fileHolds(handle, encodedChunks(target.write.original))) ? { ok: true, value: undefined } : stale(target);
    } finally {
      await handle.close();
    }
  }

  private async stage(target: Target): Promise<StoreResult<void>> {
    const newPath = sidecarPath(target.at, 'new');
    await writeSynced(this.fs, newPath, encodedChunks(target.write), 'w', 0o600);
    const current = await this.fs.stat(target.at);
    await this.fs.chmod(newPath, current.mode & 0o7777);
    await this.keepOwner(newPath, current.uid, current.gid);
    if (this.several) {
      await this.keepOldContent(target, current.mode & 0o7777);
    }
    return { ok: true, value: undefined };
  }

  /** A hard link costs no copy and keeps the old file exactly; where links are refused, a copy does. */
  private async keepOldContent(target: Target, mode: number): Promise<void> {
    const oldPath = sidecarPath(target.at, 'old');
    await removeIfPresent(this.fs, oldPath);
    try {
      await this.fs.link(target.at, oldPath);
    } catch (error) {
      if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'EXDEV', 'ENOSYS'].includes(errnoOf(error) ?? '')) {
        throw error;
      }
      await writeSynced(this.fs, oldPath, encodedChunks(target.write.original), 'w', mode);
    }
  }

  private async markCommitted(): Promise<StoreResult<void>> {
    await syncDirectories(this.fs, this.targets.map((target) => dirname(target.at)));
    const markerPath = sidecarPath(this.targets[0].at, 'commit');
    await writeSynced(this.fs, markerPath, `${this.record.batch}\n`, 'w', 0o644);
    await syncDirectories(this.fs, [dirname(markerPath)]);
    return { ok: true, value: undefined };
  }

  /**
   * Puts back every file already renamed. The marker goes first, so that a crash in
   * the middle of this undo is finished as an undo by the next run.
   */
  private async undo(failure: StoreFailure): Promise<StoreFailure> {
    const renamed = this.targets.filter((target) => target.renamed);
    const unrestored: string[] = [];
    try {
      await removeIfPresent(this.fs, sidecarPath(this.targets[0].at, 'commit'));
      await syncDirectories(this.fs, [dirname(this.targets[0].at)]);
    } catch {
      unrestored.push(...renamed.map((target) => target.write.path));
    }
    if (unrestored.length === 0) {
      for (const target of renamed) {
        try {
          await this.fs.rename(sidecarPath(target.at, 'old'), target.at);
          target.renamed = false;
        } catch {
          unrestored.push(target.write.path);
        }
      }
    }
    const restored = renamed.filter((target) => !target.renamed).map((target) => target.write.path);
    if (unrestored.length > 0) {
      this.keepJournal = true;
      return { ...failure, unrestored, restored };
    }
    return { ...failure, restored };
  }

  /**
   * Removes every sidecar this commit made, in the journal's order: contents, then the
   * marker, then the locks, the first file's last. A removal that fails stops the
   * clean-up there, so what remains is still a journal the next run can recover.
   */
  private async cleanUp(): Promise<void> {
    try {
      for (const target of this.targets) {
        await removeIfPresent(this.fs, sidecarPath(target.at, 'new'));
        await removeIfPresent(this.fs, sidecarPath(target.at, 'old'));
      }
      if (this.several) {
        await this.removeOwnMarker();
      }
      for (const target of [...this.targets].reverse()) {
        if (target.locked) {
          await this.removeOwnLock(target);
        }
      }
    } catch {
      // The outcome is already decided; a leftover journal is recovered by the next run.
    }
  }

  private async removeOwnMarker(): Promise<void> {
    const markerPath = sidecarPath(this.targets[0].at, 'commit');
    if ((await readIfPresent(this.fs, markerPath))?.trim() === this.record.batch) {
      await removeIfPresent(this.fs, markerPath);
    }
  }

  private async removeOwnLock(target: Target): Promise<void> {
    const lockPath = sidecarPath(target.at, 'lock');
    if (parseRecord((await readIfPresent(this.fs, lockPath)) ?? '')?.batch === this.record.batch) {
      await removeIfPresent(this.fs, lockPath);
    }
  }

  private async keepOwner(path: string, uid: number, gid: number): Promise<void> {
    try {
      await this.fs.chown(path, uid, gid);
    } catch {
      // Only a privileged process may give a file away; otherwise the file takes the
      // writer's ownership, as it does with any editor's atomic save.
    }
  }
}

function busy(target: Target, holder: LockRecord | undefined): StoreFailure {
  const owner = holder ? `process ${holder.pid} on ${holder.host}` : 'another process';
  return {
    ok: false,
    code: 'FILE_BUSY',
    detail: `another Multi-Edit commit (${owner}) holds the lock ${sidecarPath(target.real, 'lock')}`,
    path: target.write.path,
  };
}

function stale(target: Target): StoreFailure {
  return { ok: false, code: 'STALE_CONTENT', detail: 'the file changed on disk after it was read', path: target.write.path };
}

function interrupted(): StoreFailure {
  return { ok: false, code: 'CANCELLED', detail: 'the request was interrupted by a signal while writing' };
}
