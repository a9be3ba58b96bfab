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
import { errnoOf, type GoAhead, type PlannedChange, type StoredText, type StoreFailure, storeFailureFromError, type StoreResult } from '../../core/index';
import {
  identityOf, readIfPresent, removeIfPresent, retryingSharingViolations, sameIdentity, SharingViolation, syncDirectories, writeSynced, writeUnsynced,
  type FileIdentity, type NodeFsApi, type StoreFileHandle,
} from './fsApi';
import { memberRecord, newLockRecord, retireRecord, serializeRecord, type JournalOperation, type LockRecord } from './lockRecord';
import { inspectHolder, recoverBatch, sweepDraftsOnce } from './recovery';
import type { RecentFacts } from './storeMemory';
import { holdTarget, type ConfinementRule, type HeldTarget } from './confinement';
import { draftPath, retireDraft, sidecarPath } from './sidecars';
import { codecForNewFile, codecOf, contentOf, encodedChunks, fileHolds, isReadVersion, type ByteCodec, type StoredContent } from './textBytes';

/** One file the batch touches. */
interface Slot {
  /** The change it belongs to: failures name its path. */
  readonly change: PlannedChange;
  readonly operation: JournalOperation;
  /** The file that is locked and replaced, created or removed (for an update, where a symbolic link leads). */
  readonly real: string;
  /** The path the steps use: `real`, or the same file through its held directory when the commit is confined. */
  at: string;
  held?: HeldTarget;
  /** What the file gets (update, add). */
  readonly content?: StoredContent;
  /** An added file's encoding when it names one other than UTF-8. */
  readonly codec?: ByteCodec;
  /** What the file held when the plan was made (update, delete). */
  readonly original?: StoredText;
  /** For the destination of a move: the source, whose mode (and owner) the moved file keeps. */
  readonly modeFrom?: string;
  /** The inode whose bytes the check under the lock compared, as fstat saw it then. */
  compared?: FileIdentity;
  /**
   * That inode, held open until it is replaced (or the commit ends): while it is open its number cannot be given
   * to a file created meanwhile, so a writer that saves twice by rename (the second save landing
   * on the freed number, with the same size and, within one clock tick, the same mtime) cannot
   * pass for the file compared. Not kept where an open file cannot be replaced (Windows):
   * there the identity is the 64-bit file ID, which NTFS does not hand out again soon.
   */
  comparedHandle?: StoreFileHandle;
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

/**
 * How many files are staged, checked, published or cleaned up at once. Their system
 * calls (fsync above all) then overlap in the thread pool, and the file system can
 * commit several syncs in one journal transaction.
 */
const CONCURRENT_FILES = 16;

/** What a slot's new text is encoded in: an updated or moved file keeps its own encoding; a new file is UTF-8 unless it names one. */
function contentCodec(slot: Slot): ByteCodec | undefined {
  const { change } = slot;
  return change.kind === 'update' || change.kind === 'move' ? codecOf(change.original) : slot.codec;
}

/** Errors of a file system that has no hard links, or refuses one here. */
const NO_LINKS = ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'EXDEV', 'ENOSYS'];

export interface BatchOptions {
  readonly isCancelled: () => boolean;
  /** Directories whose dead drafts were already looked for recently enough. */
  readonly swept: RecentFacts<true>;
  /** When given, must allow the real path of every file, checked by its held directory (confinement.ts). */
  readonly confine?: ConfinementRule;
  /** When given, nothing is published (nor, for several files, marked committed) before it says yes. */
  readonly goAhead?: GoAhead;
}

export async function commitBatch(fs: NodeFsApi, changes: readonly PlannedChange[], options: BatchOptions): Promise<StoreResult<void>> {
  const { confine } = options;
  const slots: Slot[] = [];
  const created: string[] = [];
  let result: StoreResult<void> | undefined;
  try {
    for (const change of changes) {
      const resolved = await slotsOf(fs, change, created);
      if (!resolved.ok) {
        return (result = resolved);
      }
      slots.push(...resolved.value);
    }
    if (confine) {
      const refused = await holdAll(slots, confine);
      if (refused) {
        return (result = refused);
      }
    }
    return (result = await commitSlots(fs, slots, options));
  } finally {
    await Promise.all(slots.map((slot) => slot.held?.release()));
    await releaseAllCompared(slots);
    if (!result?.ok) {
      await removeEmptyDirectories(fs, created);
    }
  }
}

/** Closes the files compared under the locks that are still open. It never fails: a read-only descriptor's close says nothing about the commit. */
async function releaseAllCompared(slots: readonly Slot[]): Promise<void> {
  await Promise.all(slots.map(async (slot) => {
    const handle = slot.comparedHandle;
    slot.comparedHandle = undefined;
    await handle?.close().catch(() => undefined);
  }));
}

/** Creates `directory` and the parents it lacks, noting each one made, outermost first. */
async function ensureDirectory(fs: NodeFsApi, directory: string, created: string[]): Promise<void> {
  try {
    await fs.stat(directory);
    return;
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') {
      throw error;
    }
  }
  await ensureDirectory(fs, dirname(directory), created);
  await fs.mkdir(directory);
  created.push(directory);
}

/** A failed commit takes back the directories it made for new files, innermost first, where nothing else went in. */
async function removeEmptyDirectories(fs: NodeFsApi, created: readonly string[]): Promise<void> {
  for (const directory of [...created].reverse()) {
    await fs.rmdir(directory).catch(() => undefined);
  }
}

/** Opens the directory of every file and checks by its handle that it may be written; from then on the steps go through it. */
async function holdAll(slots: readonly Slot[], confine: ConfinementRule): Promise<StoreFailure | undefined> {
  for (const slot of slots) {
    try {
      const held = await holdTarget(slot.real, confine, slot.change.path);
      if (!held.ok) {
        return held;
      }
      slot.held = held.value;
      slot.at = held.value.at;
    } catch (error) {
      return failureOf(error, slot.change.path);
    }
  }
  return undefined;
}

async function commitSlots(fs: NodeFsApi, slots: Slot[], { isCancelled, swept, goAhead }: BatchOptions): Promise<StoreResult<void>> {
  slots.sort((a, b) => (a.real < b.real ? -1 : a.real > b.real ? 1 : 0));
  const twice = slots.find((slot, index) => index > 0 && slots[index - 1].real === slot.real);
  if (twice) {
    return { ok: false, code: 'VALIDATION_FAILED', detail: 'the commit changes one file twice', path: twice.change.path };
  }
  for (const directory of new Set(slots.map((slot) => dirname(slot.real)))) {
    await sweepDraftsOnce(fs, directory, swept);
  }
  const record = newLockRecord(slots.map((slot) => slot.real), slots.map((slot) => slot.operation));
  try {
    return await new BatchCommit(fs, record, slots, isCancelled, goAhead).run();
  } finally {
    retireRecord(record);
  }
}

/** The files a change touches, or the failure that refuses it before anything is locked. */
async function slotsOf(fs: NodeFsApi, change: PlannedChange, created: string[]): Promise<StoreResult<Slot[]>> {
  const slot = (operation: JournalOperation, real: string, content?: Slot['content'], original?: StoredText): Slot => ({
    change, operation, real, at: real, locked: false, published: false, ...(content ? { content } : {}), ...(original ? { original } : {}),
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
        const codec = change.encoding === undefined ? undefined : await codecForNewFile(change.encoding, change.bom);
        if (typeof codec === 'string') {
          return { ok: false, code: 'INVALID_ENCODING', detail: codec, path: change.path };
        }
        await ensureDirectory(fs, dirname(change.path), created);
        const real = await entryOf(fs, change.path);
        return (await freeName(fs, real, change)) ?? { ok: true, value: [{ ...slot('add', real, change), ...(codec ? { codec } : {}) }] };
      }
      case 'delete': {
        const real = await entryOf(fs, change.path);
        return (await presentFile(fs, real, change)) ?? { ok: true, value: [slot('delete', real, undefined, change.original)] };
      }
      case 'move': {
        const source = await entryOf(fs, change.from);
        const found = await presentFile(fs, source, change);
        if (found) {
          return found;
        }
        await ensureDirectory(fs, dirname(change.path), created);
        const destination = await entryOf(fs, change.path);
        return (await freeName(fs, destination, change))
          ?? { ok: true, value: [slot('delete', source, undefined, change.original), { ...slot('add', destination, change), modeFrom: source }] };
      }
    }
  } catch (error) {
    return failureOf(error, change.path);
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
  /** The drafts of the lock records (their paths once written), by directory; removed once every lock is taken. */
  private readonly drafts = new Map<string, { readonly path: string; readonly written: Promise<void> }>();
  /** The go-ahead's answer, asked for once the first staged file is being synced. */
  private verdict: Promise<boolean> | undefined;

  constructor(
    private readonly fs: NodeFsApi,
    private readonly record: LockRecord,
    private readonly slots: readonly Slot[],
    private readonly isCancelled: () => boolean,
    private readonly goAhead?: GoAhead,
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
    // Staging and the content check of a file run side by side: a writer which ignores
    // the locks and changes the file after its check is caught by the last look before
    // the rename (beforeReplacing), so the check need not come last.
    const result = await firstFailure(this.slots, async (slot) => {
      const [staged, verified] = await Promise.all([this.attempt(slot, () => this.stage(slot)), this.attempt(slot, () => this.verify(slot))]);
      return staged.ok ? verified : staged;
    });
    if (!result.ok) {
      return result;
    }
    if (!(await this.askGoAhead())) {
      return heldBack();
    }
    if (this.isCancelled()) {
      return interrupted();
    }
    if (this.several) {
      return this.attempt(this.slots[0], () => this.markCommitted());
    }
    return { ok: true, value: undefined };
  }

  /**
   * Asks for the go-ahead (once): called as soon as a staged file's sync is under way,
   * the verdict is reached while the disk works; otherwise when staging is done.
   */
  private askGoAhead(): Promise<boolean> {
    this.verdict ??= this.goAhead?.() ?? Promise.resolve(true);
    return this.verdict;
  }

  private async lockAll(): Promise<StoreResult<void>> {
    try {
      const atOnce = await this.attempt(this.slots[0], async () => ((await this.lockAllAtOnce()) ? { ok: true, value: undefined } : contended()));
      if (atOnce.ok || atOnce.code !== 'FILE_BUSY') {
        return atOnce;
      }
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

  /**
   * The common case, no lock taken by anyone else: the first file's lock, then all the
   * others at once (a link never waits, so taking them out of order cannot deadlock).
   * If any is taken, every lock got here is let go again and the caller takes them one
   * by one in order, waiting where it must.
   */
  private async lockAllAtOnce(): Promise<boolean> {
    const [primary, ...others] = this.slots;
    if (!(await this.attemptPlace(primary))) {
      return false;
    }
    const placed = await Promise.allSettled(others.map((slot) => this.attemptPlace(slot)));
    if (placed.every((result) => result.status === 'fulfilled' && result.value)) {
      return true;
    }
    await eachOf(others, (slot) => this.removeOwnLock(slot));
    await this.removeOwnLock(primary);
    const failed = placed.find((result) => result.status === 'rejected');
    if (failed) {
      throw failed.reason;
    }
    return false;
  }

  private async attemptPlace(slot: Slot): Promise<boolean> {
    slot.locked = await this.placeLock(slot, sidecarPath(slot.at, 'lock'));
    return slot.locked;
  }

  /** Step 4. A failure or an interruption between steps undoes the steps already made. */
  private async publish(): Promise<StoreResult<void>> {
    const result = await firstFailure(this.slots, async (slot): Promise<StoreResult<void>> => {
      if (this.isCancelled()) {
        return interrupted();
      }
      try {
        const published = await this.publishOne(slot);
        slot.published = published.ok;
        return published;
      } catch (error) {
        return failureOf(error, slot.change.path);
      }
    });
    if (!result.ok) {
      return this.undo(result);
    }
    // Once published, the compared files need no holding. The last close of a file a commit
    // replaced frees its blocks, which takes a while: it runs while the disk syncs the directory.
    await syncDirectories(this.fs, this.slots.map((slot) => dirname(slot.at)), () => releaseAllCompared(this.slots));
    return { ok: true, value: undefined };
  }

  private async publishOne(slot: Slot): Promise<StoreResult<void>> {
    const newPath = sidecarPath(slot.at, 'new');
    // A directory moved out of the allowed folders since it was held gets no byte.
    const moved = await slot.held?.confirm();
    if (moved) {
      return moved;
    }
    if (slot.operation === 'add') {
      return this.createFrom(newPath, slot);
    }
    const replacement = slot.operation === 'update' ? newPath : undefined;
    const operation = replacement !== undefined ? 'rename' : 'unlink';
    const { compared } = slot;
    const replaceIfUnchanged = this.fs.replaceIfUnchanged;
    if (compared && replaceIfUnchanged) {
      // Each try looks at the file again: a writer that saved while a scanner held it is still seen.
      const replaced = await retryingSharingViolations(this.fs, operation, slot.at, () => replaceIfUnchanged(slot.at, compared, replacement));
      return replaced ? { ok: true, value: undefined } : stale(slot);
    }
    return retryingSharingViolations(this.fs, operation, slot.at, async (): Promise<StoreResult<void>> => {
      const unchanged = await this.beforeReplacing(slot);
      if (!unchanged.ok) {
        return unchanged;
      }
      await (replacement !== undefined ? this.fs.rename(replacement, slot.at) : this.fs.unlink(slot.at));
      return { ok: true, value: undefined };
    });
  }

  /**
   * The last look before a file is replaced or removed: its name must still lead to
   * the inode whose bytes were compared, unchanged. A writer that ignores the locks
   * and saves by renaming a new file over this one, or writes it in place, after the
   * comparison is caught here; its change is not lost, the commit is STALE_CONTENT.
   */
  private async beforeReplacing(slot: Slot): Promise<StoreResult<void>> {
    const compared = slot.compared;
    if (!compared) {
      return { ok: true, value: undefined };
    }
    return sameIdentity(identityOf(await this.fs.stat(slot.at, { bigint: true })), compared) ? { ok: true, value: undefined } : stale(slot);
  }

  /** Gives the staged file its name, never over a file that appeared meanwhile. */
  private async createFrom(newPath: string, slot: Slot): Promise<StoreResult<void>> {
    try {
      await this.fs.link(newPath, slot.at);
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === 'EEXIST') {
        return { ok: false, code: 'FILE_EXISTS', detail: 'a file appeared at the path while the commit ran', path: slot.change.path };
      }
      if (!NO_LINKS.includes(errno ?? '')) {
        throw error;
      }
      const taken = await freeName(this.fs, slot.at, slot.change);
      if (taken) {
        return taken;
      }
      await retryingSharingViolations(this.fs, 'rename', slot.at, () => this.fs.rename(newPath, slot.at));
    }
    return { ok: true, value: undefined };
  }

  private async attempt(slot: Slot, step: () => Promise<StoreResult<void>>): Promise<StoreResult<void>> {
    try {
      return await step();
    } catch (error) {
      return failureOf(error, slot.change.path);
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
    const lockPath = sidecarPath(slot.at, 'lock');
    for (let attempt = 0; attempt < LOCK_TRIES; attempt++) {
      if (await this.placeLock(slot, lockPath)) {
        slot.locked = true;
        return { ok: true, value: undefined };
      }
      const holder = await inspectHolder(this.fs, lockPath);
      if (holder.kind === 'live' && holder.record?.batch === this.record.batch) {
        return this.twoNamesOfOneFile(slot, lockPath);
      }
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
   * Two paths of the batch name one file: this batch already holds the lock of `slot`
   * under another name (a file system that ignores case or normalises names, where the
   * inode numbers could not tell). Names the other path when it can be found.
   */
  private async twoNamesOfOneFile(slot: Slot, lockPath: string): Promise<StoreFailure> {
    const identity = async (path: string): Promise<string | undefined> => this.fs.lstat(path).then((stats) => `${stats.dev}:${stats.ino}`, () => undefined);
    const held = await identity(lockPath);
    let other: Slot | undefined;
    for (const candidate of this.slots) {
      if (other === undefined && candidate !== slot && candidate.locked && held !== undefined && (await identity(sidecarPath(candidate.at, 'lock'))) === held) {
        other = candidate;
      }
    }
    const named = other ? `${other.change.path} and ${slot.change.path}` : slot.change.path;
    return {
      ok: false,
      code: 'VALIDATION_FAILED',
      detail: `${named} name one file on this file system (it ignores case or normalises names): the request would change one file twice`,
      path: slot.change.path,
    };
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
        await this.fs.link(await this.draft(primary ? 'primary' : dirname(slot.real), dirname(slot.at), text), lockPath);
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

  /**
   * The draft holding `text`, written once per key however many locks ask for it at
   * once. It is synced when the batch keeps a journal: the locks are how a crashed
   * batch is found. A single file's lock matters only while its process lives.
   */
  private async draft(key: string, directory: string, text: string): Promise<string> {
    let draft = this.drafts.get(key);
    if (draft === undefined) {
      const path = draftPath(directory);
      draft = { path, written: this.several ? writeSynced(this.fs, path, text, 'wx', 0o644) : writeUnsynced(this.fs, path, text) };
      this.drafts.set(key, draft);
    }
    await draft.written;
    return draft.path;
  }

  private async removeDrafts(): Promise<void> {
    // A draft whose write failed was removed by it; one still being written is waited for.
    await Promise.allSettled([...this.drafts.values()].map((draft) => draft.written));
    for (const { path } of this.drafts.values()) {
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
      return (await freeName(this.fs, slot.at, slot.change)) ?? { ok: true, value: undefined };
    }
    if (slot.operation === 'delete') {
      const gone = await presentFile(this.fs, slot.at, slot.change);
      if (gone) {
        return gone;
      }
    }
    const original = slot.original;
    const version = original?.version;
    if (!original || !isReadVersion(version)) {
      return { ok: true, value: undefined };
    }
    const handle = await this.fs.open(slot.at, constants.O_RDONLY | constants.O_NONBLOCK);
    let kept = false;
    try {
      const stats = await handle.stat({ bigint: true });
      if (!stats.isFile() || stats.size !== BigInt(version.byteLength) || !(await fileHolds(handle, encodedChunks(contentOf(original), version.codec)))) {
        return stale(slot);
      }
      slot.compared = identityOf(stats);
      if (!this.fs.openFilesPinNames) {
        slot.comparedHandle = handle;
        kept = true;
      }
      return { ok: true, value: undefined };
    } finally {
      if (!kept) {
        await handle.close();
      }
    }
  }

  private async stage(slot: Slot): Promise<StoreResult<void>> {
    const newPath = sidecarPath(slot.at, 'new');
    const whileSyncing = (): void => void this.askGoAhead();
    if (slot.operation === 'add' && slot.content && slot.modeFrom === undefined) {
      // A new file gets the mode any new file gets here (0666 less the umask).
      await writeSynced(this.fs, newPath, encodedChunks(slot.content, contentCodec(slot)), 'w', 0o666, { whileSyncing });
      return { ok: true, value: undefined };
    }
    if (slot.operation === 'add' && slot.content && slot.modeFrom !== undefined) {
      await this.stageKeeping(slot, newPath, await this.fs.stat(slot.modeFrom), whileSyncing);
      return { ok: true, value: undefined };
    }
    const current = await this.fs.stat(slot.at);
    if (slot.operation === 'update' && slot.content) {
      await this.stageKeeping(slot, newPath, current, whileSyncing);
    }
    if (this.several) {
      await this.keepOldContent(slot, current.mode & 0o7777);
    }
    return { ok: true, value: undefined };
  }

  /** Writes the slot's new content to `newPath` with the mode and owner of `current`: an updated file's own, a moved file's source's. */
  private async stageKeeping(slot: Slot, newPath: string, current: { mode: number; uid: number; gid: number }, whileSyncing: () => void): Promise<void> {
    if (slot.content) {
      const mode = current.mode & 0o7777;
      // Created with the file's own mode, which the umask can only narrow: the mode and the
      // owner are changed only where they came out otherwise (each change is a journal
      // entry), and before the sync, which then makes them durable with the bytes.
      const beforeSync = async (staged: StoreFileHandle): Promise<void> => {
        const made = await staged.stat({ bigint: true });
        if (Number(made.mode & 0o7777n) !== mode) {
          await this.fs.chmod(newPath, mode);
        }
        if (Number(made.uid) !== current.uid || Number(made.gid) !== current.gid) {
          await this.keepOwner(newPath, current.uid, current.gid);
        }
      };
      await writeSynced(this.fs, newPath, encodedChunks(slot.content, contentCodec(slot)), 'w', mode, { beforeSync, whileSyncing });
    }
  }

  /** A hard link costs no copy and keeps the old file exactly; where links are refused, a copy does. */
  private async keepOldContent(slot: Slot, mode: number): Promise<void> {
    const oldPath = sidecarPath(slot.at, 'old');
    await removeIfPresent(this.fs, oldPath);
    try {
      await this.fs.link(slot.at, oldPath);
    } catch (error) {
      if (!NO_LINKS.includes(errnoOf(error) ?? '') || !slot.original) {
        throw error;
      }
      // Written under a draft's name and renamed whole: a copy cut short by a crash must never
      // be taken for the old content, which a roll back would put in the file's place.
      const draft = draftPath(dirname(slot.at));
      try {
        await writeSynced(this.fs, draft, encodedChunks(contentOf(slot.original), codecOf(slot.original)), 'wx', mode);
        await this.fs.rename(draft, oldPath);
      } finally {
        retireDraft(draft);
      }
    }
  }

  private async markCommitted(): Promise<StoreResult<void>> {
    await syncDirectories(this.fs, this.slots.map((slot) => dirname(slot.at)));
    const markerPath = sidecarPath(this.slots[0].at, 'commit');
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
      await removeIfPresent(this.fs, sidecarPath(this.slots[0].at, 'commit'));
      await syncDirectories(this.fs, [dirname(this.slots[0].at)]);
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
      await retryingSharingViolations(this.fs, 'unlink', slot.at, () => this.fs.unlink(slot.at));
    } else {
      await retryingSharingViolations(this.fs, 'rename', slot.at, () => this.fs.rename(sidecarPath(slot.at, 'old'), slot.at));
    }
  }

  /**
   * Removes every sidecar this commit made, in the journal's order: contents, then the
   * marker, then the locks, the first file's last. A removal that fails stops the
   * clean-up there, so what remains is still a journal the next run can recover.
   */
  private async cleanUp(): Promise<void> {
    try {
      await eachOf(this.slots, async (slot) => {
        // An update's .new was renamed away when it was published.
        if (!(slot.published && slot.operation === 'update')) {
          await removeIfPresent(this.fs, sidecarPath(slot.at, 'new'));
        }
        if (this.several && slot.operation !== 'add') {
          await removeIfPresent(this.fs, sidecarPath(slot.at, 'old'));
        }
      });
      if (this.several) {
        await this.removeOwnMarker();
      }
      const [primary, ...others] = this.slots;
      await eachOf(others, (slot) => this.removeOwnLock(slot));
      await this.removeOwnLock(primary);
    } catch {
      // The outcome is already decided; a leftover journal is recovered by the next run.
    }
  }

  private async removeOwnMarker(): Promise<void> {
    const markerPath = sidecarPath(this.slots[0].at, 'commit');
    if ((await readIfPresent(this.fs, markerPath))?.trim() === this.record.batch) {
      await removeIfPresent(this.fs, markerPath);
    }
  }

  /** While this process lives, no other takes its locks over, so a lock it took is still its own. */
  private async removeOwnLock(slot: Slot): Promise<void> {
    if (slot.locked) {
      await removeIfPresent(this.fs, sidecarPath(slot.at, 'lock'));
      slot.locked = false;
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

/**
 * A failure for `path` from what a step threw. A sharing violation that outlasted its
 * retries is FILE_BUSY, naming the cause, not PERMISSION_DENIED: the file is not
 * forbidden, only held for now.
 */
function failureOf(error: unknown, path: string): StoreFailure {
  if (error instanceof SharingViolation) {
    return {
      ok: false,
      code: 'FILE_BUSY',
      detail: `another program holds the file open (${error.operation} refused with ${error.errno}, a sharing violation, typically a virus scanner, an indexer or an editor); retried for ${error.waitedMs} ms`,
      path,
    };
  }
  return { ...storeFailureFromError(error, 'write'), path };
}

function stale(slot: Slot): StoreFailure {
  return { ok: false, code: 'STALE_CONTENT', detail: 'the file changed on disk after it was read', path: slot.change.path };
}

/** Some lock is taken: the locks are then taken one by one, in order. */
function contended(): StoreFailure {
  return { ok: false, code: 'FILE_BUSY', detail: 'a lock of the batch is taken' };
}

function heldBack(): StoreFailure {
  return { ok: false, code: 'CANCELLED', detail: 'the commit was held back before anything was published; no file was changed' };
}

function interrupted(): StoreFailure {
  return { ok: false, code: 'CANCELLED', detail: 'the request was interrupted by a signal while writing' };
}

/**
 * Runs `step` on every slot, CONCURRENT_FILES at a time, and waits for all of them;
 * the result is the failure of the first slot (in batch order) that failed, if any.
 */
async function firstFailure(slots: readonly Slot[], step: (slot: Slot) => Promise<StoreResult<void>>): Promise<StoreResult<void>> {
  const results: StoreResult<void>[] = new Array(slots.length);
  await eachOf(slots, async (slot, index) => {
    results[index] = await step(slot);
  });
  return results.find((result) => !result.ok) ?? { ok: true, value: undefined };
}

/** Runs `work` on every item, CONCURRENT_FILES at a time; the first error is thrown once all have ended. */
async function eachOf<T>(items: readonly T[], work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        await work(items[index], index);
      } catch (error) {
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_FILES, items.length) }, worker));
  if (errors.length > 0) {
    throw errors[0];
  }
}
