/**
 * The FileStore on Node's fs/promises, used by the CLI.
 *
 * Reads: only regular files are opened (a FIFO, socket, device or /proc-like file is
 * NOT_REGULAR_FILE and never read), at most the size limit is read whatever stat
 * says, and the text is decoded in the encoding its BOM or its bytes decide, else in the
 * one the caller named (textBytes.ts; a BOM is stripped and remembered).
 * A batch that a dead process left half-committed on the file is finished or undone
 * before the file is read.
 *
 * Commits go through the lock protocol of batchCommit.ts: no lost update between
 * writers that use it, and a batch of changes (updates, added, deleted and moved
 * files) is all old or all new even after a crash. Nothing is left next to the files
 * once a request ends.
 *
 * Symbolic links: a write goes to the file the link points to, and the link stays a
 * link. A rename replaces the directory entry, so a file with several hard links is
 * detached from its other names. A store given a confinement rule (the MCP server's
 * roots) writes only where the rule allows, checked by the opened directory right
 * before the rename (confinement.ts).
 */
import { constants, type BigIntStats, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type FileKind, type FileStat, type FileStore, type GoAhead, type PlannedChange, type StoredText, type StoreFailure, storeFailureFromError, type StoreResult } from '../../core/index';
import { commitBatch } from './batchCommit';
import type { ConfinementRule } from './confinement';
import { directFs, nodeFs, type NodeFsApi, type StoreFileHandle } from './fsApi';
import { recoverIfAbandoned, sweepDraftsOnce } from './recovery';
import { storeMemory, type StoreMemory } from './storeMemory';
import { decodeStored, giveBack, takeBuffer } from './textBytes';

export type { NodeFsApi } from './fsApi';

/** Kernel file systems whose files report a size that says nothing about their content (statfs f_type). */
const PSEUDO_FILE_SYSTEMS = new Set([
  0x9fa0, // proc
  0x62656572, // sysfs
  0x64626720, // debugfs
  0x74726163, // tracefs
  0x73636673, // securityfs
  0x27e0eb, // cgroup
  0x63677270, // cgroup2
  0x62656570, // configfs
  0xcafe4a11, // bpf
  0x6165676c, // pstore
  0xde5e81e4, // efivarfs
]);

const READ_CHUNK_BYTES = 1 << 20;

export interface NodeFileStoreOptions {
  /** Where the store may write, judged on each target's real path; absent, anywhere the system allows. */
  readonly confine?: ConfinementRule;
  /** What is known of directories and devices, shared by the stores of a server's calls; absent, the store keeps its own. */
  readonly memory?: StoreMemory;
}

export class NodeFileStore implements FileStore {
  /** Directories already cleared of dead drafts, and devices whose file system is known (storeMemory.ts). */
  private readonly memory: StoreMemory;

  /**
   * The file system for steps taken one at a time: reads, and a commit of one change.
   * Node's own store calls it directly (fsApi.ts); a store given another (tests) uses that.
   */
  private readonly oneAtATime: NodeFsApi;

  constructor(private readonly fs: NodeFsApi = nodeFs, private readonly options: NodeFileStoreOptions = {}) {
    this.oneAtATime = fs === nodeFs ? directFs : fs;
    this.memory = options.memory ?? storeMemory();
  }

  async stat(path: string): Promise<StoreResult<FileStat>> {
    try {
      // A crashed batch may have added or removed this very file; its journal decides first.
      const settled = await this.recoverAbandonedBatch(path);
      if (settled) {
        return settled;
      }
      const stats = await this.oneAtATime.stat(path);
      // This store replaces a file by renaming its new text over it: other hard links keep the old text.
      const splitLinks = stats.isFile() && stats.nlink > 1 ? { otherHardLinks: stats.nlink - 1 } : {};
      return { ok: true, value: { kind: await this.kindOf(path, stats), size: stats.size, identity: `${stats.dev}:${stats.ino}`, ...splitLinks } };
    } catch (error) {
      return storeFailureFromError(error, 'read');
    }
  }

  async listNames(directory: string): Promise<StoreResult<readonly string[]>> {
    try {
      return { ok: true, value: await this.oneAtATime.readdir(directory) };
    } catch (error) {
      return storeFailureFromError(error, 'read');
    }
  }

  async read(path: string, maxBytes = Number.POSITIVE_INFINITY, encoding?: string): Promise<StoreResult<StoredText>> {
    let read: ReadBytes;
    try {
      const settled = await this.recoverAbandonedBatch(path);
      if (settled) {
        return settled;
      }
      // O_NONBLOCK: opening a FIFO must not wait for a writer; the type check below refuses it.
      const handle = await this.oneAtATime.open(path, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        const stats = await handle.stat({ bigint: true });
        const refusal = await this.refusalFor(path, stats);
        if (refusal) {
          return refusal;
        }
        const bytes = await readAtMost(handle, Number(stats.size), maxBytes);
        if (bytes === undefined) {
          return { ok: false, code: 'FILE_TOO_LARGE', detail: `the file has more than ${maxBytes} bytes, the limit` };
        }
        read = bytes;
      } finally {
        await handle.close();
      }
    } catch (error) {
      return storeFailureFromError(error, 'read');
    }
    try {
      return await decodeStored(read.buffer.subarray(0, read.length), encoding);
    } finally {
      // The text is a copy: the buffer serves the next read.
      giveBack(read.buffer);
    }
  }

  async commit(changes: readonly PlannedChange[], isCancelled: () => boolean = () => false, beforeWriting?: () => Promise<void>): Promise<StoreResult<void>> {
    await beforeWriting?.();
    return this.commitBatch(changes, isCancelled);
  }

  /** The files are locked, staged and synced while the verdict is reached; they are published only once it is a yes. */
  async commitWhenCleared(changes: readonly PlannedChange[], goAhead: GoAhead, isCancelled: () => boolean = () => false): Promise<StoreResult<void>> {
    return this.commitBatch(changes, isCancelled, goAhead);
  }

  private async commitBatch(changes: readonly PlannedChange[], isCancelled: () => boolean, goAhead?: GoAhead): Promise<StoreResult<void>> {
    try {
      return await commitBatch(changes.length === 1 ? this.oneAtATime : this.fs, changes, { isCancelled, swept: this.memory.sweptDirectories, confine: this.options.confine, goAhead });
    } catch (error) {
      return storeFailureFromError(error, 'write');
    }
  }

  /**
   * A hard link to the file `path` names (its real path), made only while the file has no
   * other name: this store's commit renames the new text over the path, so the link keeps
   * the old inode untouched, and no other name can be written in place. Confirmed by the
   * link's own inode before it is trusted.
   */
  async linkOriginal(path: string, keepAt: string): Promise<boolean> {
    let linked = false;
    try {
      const real = await this.oneAtATime.realpath(path);
      const original = await this.oneAtATime.stat(real);
      if (!original.isFile() || original.nlink !== 1) {
        return false;
      }
      // Through the store's file system (each step counted where a test wraps it).
      await this.fs.link(real, keepAt);
      linked = true;
      const kept = await this.oneAtATime.lstat(keepAt);
      if (kept.isFile() && kept.dev === original.dev && kept.ino === original.ino) {
        return true;
      }
    } catch {
      // EXDEV (another device), EPERM (no hard links there), or the file went: the text is kept inline instead.
    }
    if (linked) {
      await this.fs.unlink(keepAt).catch(() => undefined);
    }
    return false;
  }

  /** Settles a crashed batch that includes `path`; FILE_BUSY when another's recovery of it outlasts the wait. */
  private async recoverAbandonedBatch(path: string): Promise<StoreFailure | undefined> {
    let real: string;
    try {
      real = await this.oneAtATime.realpath(path);
    } catch {
      try {
        // A file that does not exist (yet, or any more) can still have a lock beside it.
        real = join(await this.oneAtATime.realpath(dirname(path)), basename(path));
      } catch {
        return undefined; // What follows reports what is wrong with the path.
      }
    }
    const recovery = await recoverIfAbandoned(this.oneAtATime, real);
    if (!recovery.recovered) {
      const holder = recovery.holder ? `process ${recovery.holder.pid} on ${recovery.holder.host}` : 'another process';
      return { ok: false, code: 'FILE_BUSY', detail: `a crashed commit that includes this file is being finished by ${holder}`, path };
    }
    await sweepDraftsOnce(this.oneAtATime, dirname(real), this.memory.sweptDirectories);
    return undefined;
  }

  private async refusalFor(path: string, stats: BigIntStats): Promise<StoreResult<never> | undefined> {
    if (stats.isDirectory()) {
      return { ok: false, code: 'IS_DIRECTORY', detail: 'the path is a directory' };
    }
    if (!stats.isFile() || (await this.onPseudoFileSystem(path, stats.dev))) {
      return { ok: false, code: 'NOT_REGULAR_FILE', detail: 'the path is a FIFO, socket, device or special file, so it was not read' };
    }
    return undefined;
  }

  private async kindOf(path: string, stats: Stats): Promise<FileKind> {
    if (stats.isDirectory()) {
      return 'directory';
    }
    return stats.isFile() && !(await this.onPseudoFileSystem(path, stats.dev)) ? 'file' : 'other';
  }

  /** The kind of file system a device holds does not change while it is mounted: one statfs per device while remembered. */
  private async onPseudoFileSystem(path: string, device: number | bigint): Promise<boolean> {
    const key = String(device);
    let pseudo = this.memory.pseudoDevices.get(key);
    if (pseudo === undefined) {
      try {
        pseudo = PSEUDO_FILE_SYSTEMS.has((await this.oneAtATime.statfs(path)).type);
      } catch {
        pseudo = false;
      }
      this.memory.pseudoDevices.set(key, pseudo);
    }
    return pseudo;
  }

}

/** What a read gave: its first `length` bytes of `buffer`, a buffer to give back once decoded. */
interface ReadBytes {
  readonly buffer: Buffer;
  readonly length: number;
}

/**
 * Reads to the end, but never more than maxBytes: undefined when the file holds more.
 * The size from stat sizes the first buffer only; a file that grows while it is read
 * is still bounded.
 */
async function readAtMost(handle: StoreFileHandle, sizeHint: number, maxBytes: number): Promise<ReadBytes | undefined> {
  const limit = maxBytes + 1;
  let buffer = takeBuffer(Math.max(1, Math.min(sizeHint + 1, limit)));
  let total = 0;
  try {
    for (;;) {
      // A spare buffer may be larger than the limit: never read past it.
      const room = Math.min(buffer.length, limit);
      if (total === room) {
        if (total >= limit) {
          giveBack(buffer);
          return undefined;
        }
        const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(total * 2, total + READ_CHUNK_BYTES)));
        buffer.copy(grown, 0, 0, total);
        giveBack(buffer);
        buffer = grown;
        continue;
      }
      const { bytesRead } = await handle.read(buffer, total, room - total, null);
      if (bytesRead === 0) {
        return { buffer, length: total };
      }
      total += bytesRead;
    }
  } catch (error) {
    giveBack(buffer);
    throw error;
  }
}
