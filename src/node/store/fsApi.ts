/**
 * The part of the file system the Node store uses, and small helpers on top of it.
 * Tests pass a variant of fs/promises that fails the Nth call of an operation, so
 * every step of a commit can be made to fail for real.
 */
import {
  accessSync, chmodSync, chownSync, closeSync, fstatSync, fsync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync,
  realpathSync, renameSync, rmdirSync, statfsSync, statSync, unlinkSync, writeFileSync, type BigIntStats,
} from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import * as fsPromisesModule from 'node:fs/promises';
import { errnoOf } from '../../core/index';

/** What the store does with an open file; a FileHandle of fs/promises is one. */
export interface StoreFileHandle {
  stat(options: { bigint: true }): Promise<BigIntStats>;
  read(buffer: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }>;
  /** Writes all of `data` from the current position. */
  writeFile(data: string | Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export type NodeFsApi = Pick<
  typeof fsPromises,
  'access' | 'stat' | 'lstat' | 'statfs' | 'realpath' | 'rename' | 'link' | 'unlink' | 'chmod' | 'chown' | 'readFile' | 'readdir' | 'mkdir' | 'rmdir'
> & {
  open(path: string, flags: string | number, mode?: number): Promise<StoreFileHandle>;
  /**
   * Optional: replaces `target` by `replacement` (removes it when undefined) only if
   * its name still leads to the file `expected` describes; false when it does not.
   * Without it, the store looks and then renames with two asynchronous calls.
   */
  readonly replaceIfUnchanged?: (target: string, expected: FileIdentity, replacement: string | undefined) => boolean;
  /**
   * Optional: whether `path` leads to something, answered without an exception when it
   * does not. The locks looked for before each read are almost never there, and a
   * thrown ENOENT (an Error with its stack) costs more than the look-up itself.
   */
  readonly exists?: (path: string) => boolean;
  /**
   * Whether the system refuses to replace or remove a file while any process holds it
   * open, answering EPERM, EBUSY or EACCES (a sharing violation: Windows). Then the
   * store closes the file it compared before the rename, and retries a sharing
   * violation briefly, since a virus scanner, an indexer or an editor holds a file for
   * moments at a time. Absent: false.
   */
  readonly openFilesPinNames?: boolean;
};

/**
 * What tells one version of a file from another without reading it again. Not the
 * change time: linking the old content aside (.old) changes it.
 */
export interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
}

export function identityOf(stats: BigIntStats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs };
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

/**
 * The look and the rename as two system calls back to back on this thread, with no
 * turn of the event loop or the thread pool between them: the window in which another
 * writer's save can still be replaced is as short as user space can make it.
 */
function replaceIfUnchanged(target: string, expected: FileIdentity, replacement: string | undefined): boolean {
  if (!sameIdentity(identityOf(statSync(target, { bigint: true })), expected)) {
    return false;
  }
  if (replacement === undefined) {
    unlinkSync(target);
  } else {
    renameSync(replacement, target);
  }
  return true;
}

/**
 * An open file whose calls run on this thread, except the sync: a file system call
 * takes microseconds, while handing it to the thread pool and back costs two thread
 * wake-ups, which on a loaded machine cost far more than the call. The sync is the one
 * slow call, and waiting for it in the pool lets the syncs of several files overlap.
 */
class DirectFileHandle implements StoreFileHandle {
  constructor(private readonly fd: number) {}

  async stat(options: { bigint: true }): Promise<BigIntStats> {
    return fstatSync(this.fd, options);
  }

  async read(buffer: Uint8Array, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }> {
    return { bytesRead: readSync(this.fd, buffer, offset, length, position) };
  }

  async writeFile(data: string | Uint8Array): Promise<void> {
    writeFileSync(this.fd, data);
  }

  sync(): Promise<void> {
    return new Promise((resolve, reject) => fsync(this.fd, (error) => (error ? reject(error) : resolve())));
  }

  async close(): Promise<void> {
    closeSync(this.fd);
  }
}

/** Windows refuses to rename over, or remove, a file that another handle holds open. */
const OPEN_FILES_PIN_NAMES = process.platform === 'win32';

/** Node's file system as the store uses it: fs/promises, each call in the thread pool. */
export const nodeFs: NodeFsApi = { ...fsPromisesModule, replaceIfUnchanged, openFilesPinNames: OPEN_FILES_PIN_NAMES };

/**
 * Node's file system with each call made directly on this thread (see
 * DirectFileHandle), behind the same promises, so a failure is a rejection with the
 * same errno; realpath is the system's, as fs/promises' is. For steps taken one at a
 * time (reading a file, committing one file). A commit of many files keeps nodeFs:
 * while the disk's journal commits a sync, creating and removing files waits for it,
 * and in the pool several files wait at once, not one after the other.
 */
export const directFs: NodeFsApi = {
  access: async (path, mode) => accessSync(path, mode),
  open: async (path, flags, mode) => new DirectFileHandle(openSync(path, flags, mode)),
  stat: (async (path: string, options?: { bigint?: boolean }) => statSync(path, options)) as NodeFsApi['stat'],
  lstat: (async (path: string) => lstatSync(path)) as NodeFsApi['lstat'],
  statfs: (async (path: string) => statfsSync(path)) as NodeFsApi['statfs'],
  realpath: (async (path: string) => realpathSync.native(path)) as NodeFsApi['realpath'],
  rename: async (from, to) => renameSync(from, to),
  link: async (existing, created) => linkSync(existing, created),
  unlink: async (path) => unlinkSync(path),
  chmod: async (path, mode) => chmodSync(path, mode),
  chown: async (path, uid, gid) => chownSync(path, uid, gid),
  readFile: (async (path: string, encoding: 'utf8') => readFileSync(path, encoding)) as NodeFsApi['readFile'],
  readdir: (async (path: string) => readdirSync(path)) as NodeFsApi['readdir'],
  mkdir: (async (path: string) => { mkdirSync(path); }) as NodeFsApi['mkdir'],
  rmdir: async (path) => rmdirSync(path),
  replaceIfUnchanged,
  exists: (path) => statSync(path, { throwIfNoEntry: false }) !== undefined,
  openFilesPinNames: OPEN_FILES_PIN_NAMES,
};

/** What a system that pins open files answers when another process holds the file. */
const SHARING_VIOLATIONS = ['EPERM', 'EBUSY', 'EACCES'];

/**
 * The pauses between tries of a step refused by a sharing violation: from 10 ms,
 * doubling, about 1.3 s in all. A scanner or an indexer lets go within that; a file an
 * editor keeps open does not, and the store then reports FILE_BUSY for the engine's
 * slower retry policy, naming the cause.
 */
const SHARING_PAUSES_MS = [10, 20, 40, 80, 160, 320, 640];

/** A step that another process's open handle kept failing, however long it was retried. */
export class SharingViolation extends Error {
  constructor(readonly errno: string, readonly operation: string, readonly path: string, readonly waitedMs: number) {
    super(`${operation} of ${path} was refused (${errno}) for ${waitedMs} ms`);
  }
}

/**
 * Runs `step` (a rename or a removal), trying it again while the system answers a
 * sharing violation, on systems that pin open files; elsewhere EPERM and EACCES mean
 * what they say, and the step runs once.
 */
export async function retryingSharingViolations<T>(fs: NodeFsApi, operation: string, path: string, step: () => Promise<T> | T): Promise<T> {
  if (!fs.openFilesPinNames) {
    return step();
  }
  let waited = 0;
  for (const pause of [...SHARING_PAUSES_MS, undefined]) {
    try {
      return await step();
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === undefined || !SHARING_VIOLATIONS.includes(errno)) {
        throw error;
      }
      if (pause === undefined) {
        throw new SharingViolation(errno, operation, path, waited);
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
      waited += pause;
    }
  }
  throw new Error('unreachable: the last pause is undefined');
}

/** Removes `path`; a file that is already gone is what we wanted. */
export async function removeIfPresent(fs: NodeFsApi, path: string): Promise<void> {
  try {
    await fs.unlink(path);
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') {
      throw error;
    }
  }
}

/** Renames `from` over `to`; returns false when `from` no longer exists. */
export async function renameIfPresent(fs: NodeFsApi, from: string, to: string): Promise<boolean> {
  try {
    await fs.rename(from, to);
    return true;
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') {
      return false;
    }
    throw error;
  }
}

/** A small file's text, or undefined when it does not exist. */
export async function readIfPresent(fs: NodeFsApi, path: string): Promise<string | undefined> {
  if (fs.exists?.(path) === false) {
    return undefined;
  }
  try {
    return await fs.readFile(path, 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') {
      return undefined;
    }
    throw error;
  }
}

/** Creates a small file that must not exist yet, holding `text`, without waiting for the disk. */
export async function writeUnsynced(fs: NodeFsApi, path: string, text: string): Promise<void> {
  const handle = await fs.open(path, 'wx', 0o644);
  try {
    await handle.writeFile(text);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await removeIfPresent(fs, path).catch(() => undefined);
    throw error;
  }
  await handle.close();
}

/** Steps a caller fits around the sync of writeSynced. */
export interface AroundSync {
  /** Runs once the bytes are written, before the sync (which then covers what it changes). */
  readonly beforeSync?: (written: StoreFileHandle) => Promise<void>;
  /** Called once the sync is under way, to do other work while the disk works. */
  readonly whileSyncing?: () => void;
}

/**
 * Writes `data` (or each of its chunks in turn) to a file, syncs it and closes it;
 * with `flag` 'wx' it fails when the file exists. A file this call created but could
 * not fill is removed again.
 */
export async function writeSynced(
  fs: NodeFsApi, path: string, data: string | Uint8Array | Iterable<Uint8Array>, flag: 'w' | 'wx', mode: number, around: AroundSync = {},
): Promise<void> {
  const handle = await fs.open(path, flag, mode);
  try {
    // writeFile on a handle writes from its current position: the chunks follow one another.
    for (const chunk of typeof data === 'string' || data instanceof Uint8Array ? [data] : data) {
      await handle.writeFile(chunk);
    }
    await around.beforeSync?.(handle);
    const synced = handle.sync();
    around.whileSyncing?.();
    await synced;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await removeIfPresent(fs, path).catch(() => undefined);
    throw error;
  }
  await handle.close();
}

/**
 * Makes renames and removals in the directories durable. A file system that cannot
 * sync a directory (some network and FUSE mounts) is left to its own guarantees.
 * `whileSyncing` (which must not fail) starts once the first sync is under way, and
 * is waited for too.
 */
export async function syncDirectories(fs: NodeFsApi, directories: Iterable<string>, whileSyncing?: () => Promise<void>): Promise<void> {
  let beside: Promise<void> | undefined;
  const startBeside = (): void => {
    beside ??= whileSyncing?.();
  };
  for (const directory of new Set(directories)) {
    try {
      const handle = await fs.open(directory, 'r');
      try {
        const synced = handle.sync();
        startBeside();
        await synced;
      } finally {
        await handle.close();
      }
    } catch {
      // Durability of the directory entry is best effort; the data itself was synced.
    }
  }
  startBeside();
  await beside;
}
