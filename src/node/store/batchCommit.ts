/**
 * Commits a batch of changes (updates, added, deleted and moved files) so that no
 * update is lost and no batch is half-applied (docs/reliability.md tells the whole
 * protocol):
 *
 * 1. Lock every file the batch touches, in the order of their real paths: each lock's
 *    record is written to a draft first, then hard-linked to the lock's name, so a
 *    lock is never empty. A lock held by a live process is FILE_BUSY (the engine backs
 *    off and tries again); a lock left by a dead process is recovered first.
 * 2. Stage: write each new text to its .new file and sync it. For several files, also
 *    keep a hard link to each old content (.old).
 * 3. Check that each file still holds exactly the bytes the plan was made from
 *    (STALE_CONTENT), that a file to delete is still there (FILE_NOT_FOUND,
 *    IS_DIRECTORY) and that a name to create is still free (FILE_EXISTS); otherwise
 *    nothing is written. For several files, create the commit marker: the commit
 *    point. A crash before it leaves every file old; after it, every file new.
 * 4. Publish: rename each .new over its file (update), link it to its name (add), or
 *    remove the file (delete); then remove the sidecars, the locks last.
 *
 * A move is an add of its destination and a delete of its source in one batch.
 * An interruption (SIGINT, SIGTERM, SIGHUP) or a failure before the last step of 4
 * undoes everything written; the journal on disk lets the next run finish an undo
 * that could not be completed here.
 */
import { constants } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errnoOf, type PlannedChange, type StoredText, type StoreFailure, storeFailureFromError, type StoreResult } from '../../core/index';
import { readIfPresent, removeIfPresent, syncDirectories, writeSynced, type NodeFsApi } from './fsApi';
import { memberRecord, newLockRecord, parseRecord, retireRecord, serializeRecord, type JournalOperation, type LockRecord } from './lockRecord';
import { inspectHolder, recoverBatch, sweepDrafts } from './recovery';
import { draftPath, retireDraft, sidecarPath } from './sidecars';
import { encodedChunks, fileHolds, isReadVersion } from './textBytes';

/** One file the batch touches. */
interface Slot {
  /** The change it belongs to: failures name its path. */
  readonly change: PlannedChange;
  readonly operation: JournalOperation;
  /** The file that is locked and replaced, created or removed (for an update, where a symbolic link leads). */
  readonly real: string;
  /** What the file gets (update, add). */
  readonly content?: { readonly text: string; readonly bom: boolean };
  /** What the file held when the plan was made (update, delete). */
  readonly original?: StoredText;
  locked: boolean;
  published: boolean;
}

/** How often one lock is retried within an attempt after recovering a crashed batch. */
const LOCK_TRIES = 3;

/**
 * A commit holds its locks for milliseconds, so a taken lock is first polled briefly,
 * from 2 ms and doubling, for up to this long; only then is it FILE_BUSY, and the
 * engine's slower retry policy takes over.
 */
const LOCK_WAIT_MS = 250;

/** Errors of a file system that has no hard links, or refuses one here. */
const NO_LINKS = ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'EXDEV', 'ENOSYS'];

/** Directories whose dead drafts were already looked for, by the store that owns the set. */
export type SweptDirectories = Set<string>;

export async function commitBatch(fs: NodeFsApi, changes: readonly PlannedChange[], isCancelled: () => boolean, swept: SweptDirectories): Promise<StoreResult<void>> {
  const slots: Slot[] = [];
  for (const change of changes) {
    const resolved = await slotsOf(fs, change);
    if (!resolved.ok) {
      return resolved;
    }
    slots.push(...resolved.value);
  }
  slots.sort((a, b) => (a.real < b.real ? -1 : a.real > b.real ? 1 : 0));
  const twice = slots.find((slot, index) => index > 0 && slots[index - 1].real === slot.real);
  if (twice) {
    return { ok: false, code: 'VALIDATION_FAILED', detail: 'the commit changes one file twice', path: twice.change.path };
  }
  for (const directory of new Set(slots.map((slot) => dirname(slot.real)))) {
    if (!swept.has(directory)) {
      await sweepDrafts(fs, directory);
      swept.add(directory);
    }
  }
  const record = newLockRecord(slots.map((slot) => slot.real), slots.map((slot) => slot.operation));
  try {
    return await new BatchCommit(fs, record, slots, isCancelled).run();
  } finally {
    retireRecord(record);
  }
}

/** The files a change touches, or the failure that refuses it before anything is locked. */
async function slotsOf(fs: NodeFsApi, change: PlannedChange): Promise<StoreResult<Slot[]>> {
  const slot = (operation: JournalOperation, real: string, content?: Slot['content'], original?: StoredText): Slot => ({
    change, operation, real, locked: false, published: false, ...(content ? { content } : {}), ...(original ? { original } : {}),
  });
  try {
    switch (change.kind) {
      case 'update': {
        const real = await fs.realpath(change.path);
        // A rename would replace a read-only file too; respect the file's own permission.
        await fs.access(real, constants.W_OK);
        return { ok: true, value: [slot('update', real, change, change.original)] };
      }
      case 'add': {
        const real = await entryOf(fs, change.path);
        return (await freeName(fs, real, change)) ?? { ok: true, value: [slot('add', real, change)] };
      }
      case 'delete': {
        const real = await entryOf(fs, change.path);
        return (await presentFile(fs, real, change)) ?? { ok: true, value: [slot('delete', real, undefined, change.original)] };
      }
      case 'move': {
        const [source, destination] = [await entryOf(fs, change.from), await entryOf(fs, change.path)];
        return (await presentFile(fs, source, change)) ?? (await freeName(fs, destination, change))
          ?? { ok: true, value: [slot('delete', source, undefined, change.original), slot('add', destination, change)] };
      }
    }
  } catch (error) {
    return { ...storeFailureFromError(error, 'write'), path: change.path };
  }
}

/** The directory entry a path names: its directory resolved, its own name kept (a link itself is removed, not its target). */
async function entryOf(fs: NodeFsApi, path: string): Promise<string> {
  return join(await fs.realpath(dirname(path)), basename(path));
}

/** FILE_EXISTS when something has the name `real`. */
async function freeName(fs: NodeFsApi, real: string, change: PlannedChange): Promise<StoreFailure | undefined> {
  try {
    await fs.lstat(real);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') {
      return undefined;
    }
    throw error;
  }
  return { ok: false, code: 'FILE_EXISTS', detail: `${real === change.path ? 'the path' : 'the destination'} already exists`, path: change.path };
}

/** FILE_NOT_FOUND or IS_DIRECTORY unless `real` names something that is not a directory. */
async function presentFile(fs: NodeFsApi, real: string, change: PlannedChange): Promise<StoreFailure | undefined> {
  try {
    if ((await fs.lstat(real)).isDirectory()) {
      return { ok: false, code: 'IS_DIRECTORY', detail: 'the path is a directory', path: change.path };
    }
    return undefined;
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') {
      return { ok: false, code: 'FILE_NOT_FOUND', detail: 'no file exists at this path any more', path: change.path };
    }
    throw error;
  }
}

class BatchCommit {
  /** Set when an undo could not finish: the sidecars stay as the journal for the next run. */
  private keepJournal = false;
  /** The drafts of the lock records, by directory; removed once every lock is taken. */
  private readonly drafts = new Map<string, string>();

  constructor(
    private readonly fs: NodeFsApi,
    private readonly record: LockRecord,
    private readonly slots: readonly Slot[],
    private readonly isCancelled: () => boolean,
  ) {}

  private get several(): boolean {
    return this.slots.length > 1;
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

  /** Steps 1 to 3: after this, only the publishing steps remain. Nothing a user can see has changed. */
  private async prepare(): Promise<StoreResult<void>> {
    const locked = await this.lockAll();
    if (!locked.ok) {
      return locked;
    }
    // The content check comes last, so that a writer which ignores the locks has the
    // shortest possible window between the check and the renames.
    for (const step of [this.stage, this.verify]) {
      for (const slot of this.slots) {
        const result = await this.attempt(slot, () => step.call(this, slot));
        if (!result.ok) {
          return result;
        }
      }
    }
    if (this.isCancelled()) {
      return interrupted();
    }
    if (this.several) {
      return this.attempt(this.slots[0], () => this.markCommitted());
    }
    return { ok: true, value: undefined };
  }

  private async lockAll(): Promise<StoreResult<void>> {
    try {
      for (const slot of this.slots) {
        const result = await this.attempt(slot, () => this.lock(slot));
        if (!result.ok) {
          return result;
        }
      }
      return { ok: true, value: undefined };
    } finally {
      await this.removeDrafts();
    }
  }

  /** Step 4. A failure or an interruption between steps undoes the steps already made. */
  private async publish(): Promise<StoreResult<void>> {
    for (const slot of this.slots) {
      if (this.isCancelled()) {
        return this.undo(interrupted());
      }
      try {
        const published = await this.publishOne(slot);
        if (!published.ok) {
          return this.undo(published);
        }
        slot.published = true;
      } catch (error) {
        return this.undo({ ...storeFailureFromError(error, 'write'), path: slot.change.path });
      }
    }
    await syncDirectories(this.fs, this.slots.map((slot) => dirname(slot.real)));
    return { ok: true, value: undefined };
  }

  private async publishOne(slot: Slot): Promise<StoreResult<void>> {
    const newPath = sidecarPath(slot.real, 'new');
    switch (slot.operation) {
      case 'update':
        await this.fs.rename(newPath, slot.real);
        break;
      case 'delete':
        await this.fs.unlink(slot.real);
        break;
      case 'add':
        return this.createFrom(newPath, slot);
    }
    return { ok: true, value: undefined };
  }

  /** Gives the staged file its name, never over a file that appeared meanwhile. */
  private async createFrom(newPath: string, slot: Slot): Promise<StoreResult<void>> {
    try {
      await this.fs.link(newPath, slot.real);
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === 'EEXIST') {
        return { ok: false, code: 'FILE_EXISTS', detail: 'a file appeared at the path while the commit ran', path: slot.change.path };
      }
      if (!NO_LINKS.includes(errno ?? '')) {
        throw error;
      }
      const taken = await freeName(this.fs, slot.real, slot.change);
      if (taken) {
        return taken;
      }
      await this.fs.rename(newPath, slot.real);
    }
    return { ok: true, value: undefined };
  }

  private async attempt(slot: Slot, step: () => Promise<StoreResult<void>>): Promise<StoreResult<void>> {
    try {
      return await step();
    } catch (error) {
      return { ...storeFailureFromError(error, 'write'), path: slot.change.path };
    }
  }

  private async lock(slot: Slot): Promise<StoreResult<void>> {
    let waited = 0;
    for (let pause = 2; ; pause *= 2) {
      const result = await this.tryLock(slot);
      if (result.ok || result.code !== 'FILE_BUSY' || waited >= LOCK_WAIT_MS || this.isCancelled()) {
        return result;
      }
      const wait = Math.min(pause, LOCK_WAIT_MS - waited);
      await new Promise((resolve) => setTimeout(resolve, wait));
      waited += wait;
    }
  }

  private async tryLock(slot: Slot): Promise<StoreResult<void>> {
    const lockPath = sidecarPath(slot.real, 'lock');
    for (let attempt = 0; attempt < LOCK_TRIES; attempt++) {
      if (await this.placeLock(slot, lockPath)) {
        slot.locked = true;
        return { ok: true, value: undefined };
      }
      const holder = await inspectHolder(this.fs, lockPath);
      if (holder.kind === 'live') {
        return busy(slot, lockPath, holder.record);
      }
      if (holder.kind === 'abandoned') {
        const recovery = holder.record ? await recoverBatch(this.fs, holder.record, lockPath) : await this.removeTornLock(lockPath);
        if (!recovery.recovered) {
          return busy(slot, lockPath, recovery.holder);
        }
      }
    }
    return busy(slot, lockPath, undefined);
  }

  /**
   * Creates the lock with its record already inside: a hard link to the draft, which
   * fails if the lock exists. Returns false when it does. Where hard links are
   * refused, the lock is created with O_EXCL and then filled.
   */
  private async placeLock(slot: Slot, lockPath: string): Promise<boolean> {
    const primary = slot === this.slots[0];
    const text = serializeRecord(primary ? this.record : memberRecord(this.record));
    try {
      try {
        await this.fs.link(await this.draft(primary ? 'primary' : dirname(slot.real), dirname(slot.real), text), lockPath);
      } catch (error) {
        if (!NO_LINKS.includes(errnoOf(error) ?? '')) {
          throw error;
        }
        await writeSynced(this.fs, lockPath, text, 'wx', 0o644);
      }
      return true;
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') {
        throw error;
      }
      return false;
    }
  }

  /** The draft holding `text`, written and synced once per key. */
  private async draft(key: string, directory: string, text: string): Promise<string> {
    let path = this.drafts.get(key);
    if (path === undefined) {
      path = draftPath(directory);
      await writeSynced(this.fs, path, text, 'wx', 0o644);
      this.drafts.set(key, path);
    }
    return path;
  }

  private async removeDrafts(): Promise<void> {
    for (const path of this.drafts.values()) {
      // One that cannot be removed now is a leftover the next sweep of its directory removes.
      await removeIfPresent(this.fs, path).catch(() => undefined);
      retireDraft(path);
    }
    this.drafts.clear();
  }

  private async removeTornLock(lockPath: string): Promise<{ recovered: true }> {
    await removeIfPresent(this.fs, lockPath);
    return { recovered: true };
  }

  /** Under the lock, the batch's view of each file must still hold: its bytes, its presence or its absence. */
  private async verify(slot: Slot): Promise<StoreResult<void>> {
    if (slot.operation === 'add') {
      return (await freeName(this.fs, slot.real, slot.change)) ?? { ok: true, value: undefined };
    }
    if (slot.operation === 'delete') {
      const gone = await presentFile(this.fs, slot.real, slot.change);
      if (gone) {
        return gone;
      }
    }
    const original = slot.original;
    const version = original?.version;
    if (!original || !isReadVersion(version)) {
      return { ok: true, value: undefined };
    }
    const handle = await this.fs.open(slot.real, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stats = await handle.stat();
      if (!stats.isFile() || stats.size !== version.byteLength) {
        return stale(slot);
      }
      return (await fileHolds(handle, encodedChunks(original))) ? { ok: true, value: undefined } : stale(slot);
    } finally {
      await handle.close();
    }
  }

  private async stage(slot: Slot): Promise<StoreResult<void>> {
    const newPath = sidecarPath(slot.real, 'new');
    if (slot.operation === 'add' && slot.content) {
      // A new file gets the mode any new file gets here (0666 less the umask).
      await writeSynced(this.fs, newPath, encodedChunks(slot.content), 'w', 0o666);
      return { ok: true, value: undefined };
    }
    const current = await this.fs.stat(slot.real);
    if (slot.operation === 'update' && slot.content) {
      await writeSynced(this.fs, newPath, encodedChunks(slot.content), 'w', 0o600);
      await this.fs.chmod(newPath, current.mode & 0o7777);
      await this.keepOwner(newPath, current.uid, current.gid);
    }
    if (this.several) {
      await this.keepOldContent(slot, current.mode & 0o7777);
    }
    return { ok: true, value: undefined };
  }

  /** A hard link costs no copy and keeps the old file exactly; where links are refused, a copy does. */
  private async keepOldContent(slot: Slot, mode: number): Promise<void> {
    const oldPath = sidecarPath(slot.real, 'old');
    await removeIfPresent(this.fs, oldPath);
    try {
      await this.fs.link(slot.real, oldPath);
    } catch (error) {
      if (!NO_LINKS.includes(errnoOf(error) ?? '') || !slot.original) {
        throw error;
      }
      await writeSynced(this.fs, oldPath, encodedChunks(slot.original), 'w', mode);
    }
  }

  private async markCommitted(): Promise<StoreResult<void>> {
    await syncDirectories(this.fs, this.slots.map((slot) => dirname(slot.real)));
    const markerPath = sidecarPath(this.slots[0].real, 'commit');
    await writeSynced(this.fs, markerPath, `${this.record.batch}\n`, 'w', 0o644);
    await syncDirectories(this.fs, [dirname(markerPath)]);
    return { ok: true, value: undefined };
  }

  /**
   * Takes back every step already published. The marker goes first, so that a crash
   * in the middle of this undo is finished as an undo by the next run.
   */
  private async undo(failure: StoreFailure): Promise<StoreFailure> {
    const published = this.slots.filter((slot) => slot.published);
    let markerRemoved = true;
    try {
      await removeIfPresent(this.fs, sidecarPath(this.slots[0].real, 'commit'));
      await syncDirectories(this.fs, [dirname(this.slots[0].real)]);
    } catch {
      markerRemoved = false;
    }
    if (markerRemoved) {
      for (const slot of [...published].reverse()) {
        try {
          await this.takeBack(slot);
          slot.published = false;
        } catch {
          // Stays published: reported as not restored, and the journal stays for the next run.
        }
      }
    }
    const paths = (slots: readonly Slot[]): string[] => [...new Set(slots.map((slot) => slot.change.path))];
    const unrestored = paths(published.filter((slot) => slot.published));
    const restored = paths(published.filter((slot) => !slot.published)).filter((path) => !unrestored.includes(path));
    if (unrestored.length > 0) {
      this.keepJournal = true;
      return { ...failure, unrestored, restored };
    }
    return { ...failure, restored };
  }

  private async takeBack(slot: Slot): Promise<void> {
    if (slot.operation === 'add') {
      await this.fs.unlink(slot.real);
    } else {
      await this.fs.rename(sidecarPath(slot.real, 'old'), slot.real);
    }
  }

  /**
   * Removes every sidecar this commit made, in the journal's order: contents, then the
   * marker, then the locks, the first file's last. A removal that fails stops the
   * clean-up there, so what remains is still a journal the next run can recover.
   */
  private async cleanUp(): Promise<void> {
    try {
      for (const slot of this.slots) {
        await removeIfPresent(this.fs, sidecarPath(slot.real, 'new'));
        await removeIfPresent(this.fs, sidecarPath(slot.real, 'old'));
      }
      if (this.several) {
        await this.removeOwnMarker();
      }
      for (const slot of [...this.slots].reverse()) {
        if (slot.locked) {
          await this.removeOwnLock(slot);
        }
      }
    } catch {
      // The outcome is already decided; a leftover journal is recovered by the next run.
    }
  }

  private async removeOwnMarker(): Promise<void> {
    const markerPath = sidecarPath(this.slots[0].real, 'commit');
    if ((await readIfPresent(this.fs, markerPath))?.trim() === this.record.batch) {
      await removeIfPresent(this.fs, markerPath);
    }
  }

  private async removeOwnLock(slot: Slot): Promise<void> {
    const lockPath = sidecarPath(slot.real, 'lock');
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

function busy(slot: Slot, lockPath: string, holder: LockRecord | undefined): StoreFailure {
  const owner = holder ? `process ${holder.pid} on ${holder.host}` : 'another process';
  return {
    ok: false,
    code: 'FILE_BUSY',
    detail: `another Multi-Edit commit (${owner}) holds the lock ${lockPath}`,
    path: slot.change.path,
  };
}

function stale(slot: Slot): StoreFailure {
  return { ok: false, code: 'STALE_CONTENT', detail: 'the file changed on disk after it was read', path: slot.change.path };
}

function interrupted(): StoreFailure {
  return { ok: false, code: 'CANCELLED', detail: 'the request was interrupted by a signal while writing' };
}
