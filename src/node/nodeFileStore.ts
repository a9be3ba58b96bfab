/**
 * The FileStore on Node's fs/promises, used by the CLI.
 *
 * Reads decode strictly as UTF-8 (a BOM is stripped and remembered). Writes are
 * atomic: the new bytes go to a temp file in the same directory, which is synced,
 * given the original file's mode and owner, and renamed over the file. A file the
 * writer may not write is refused even when its directory is writable. Nothing else
 * is ever left next to the file: the temp file is removed on every failure.
 *
 * Symbolic links: a write goes to the file the link points to, and the link stays a
 * link. A rename replaces the directory entry, so a file with several hard links is
 * detached from its other names.
 */
import { randomBytes } from 'node:crypto';
import { constants, type BigIntStats } from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FileKind, FileStat, FileStore, PlannedWrite, StoreResult, StoredText } from '../core/fileStore';
import { storeFailureFromError } from '../core/fsErrors';

/** The part of fs/promises the store uses; tests pass a variant that fails on cue. */
export type NodeFsApi = Pick<typeof fsPromises, 'access' | 'open' | 'stat' | 'realpath' | 'rename' | 'unlink' | 'chmod' | 'chown'>;

const UTF8_BOM = [0xef, 0xbb, 0xbf];

export class NodeFileStore implements FileStore {
  constructor(private readonly fs: NodeFsApi = fsPromises) {}

  async stat(path: string): Promise<StoreResult<FileStat>> {
    try {
      const stats = await this.fs.stat(path);
      return { ok: true, value: { kind: kindOf(stats), size: stats.size } };
    } catch (error) {
      return storeFailureFromError(error, 'read');
    }
  }

  async read(path: string): Promise<StoreResult<StoredText>> {
    let bytes: Uint8Array;
    let version: string;
    try {
      const handle = await this.fs.open(path, 'r');
      try {
        const stats = await handle.stat({ bigint: true });
        if (stats.isDirectory()) {
          return { ok: false, code: 'IS_DIRECTORY', detail: 'the path is a directory' };
        }
        version = versionOf(stats);
        bytes = await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch (error) {
      return storeFailureFromError(error, 'read');
    }
    return decodeUtf8(bytes, version);
  }

  async write(planned: PlannedWrite): Promise<StoreResult<void>> {
    let target: string;
    try {
      target = await this.fs.realpath(planned.path);
      // A rename would replace a read-only file too; respect the file's own permission.
      await this.fs.access(target, constants.W_OK);
    } catch (error) {
      return storeFailureFromError(error, 'write');
    }
    const tempPath = join(dirname(target), `.${basename(target)}.multi-edit-${randomBytes(6).toString('hex')}.tmp`);
    let tempCreated = false;
    let renamed = false;
    try {
      const handle = await this.fs.open(tempPath, 'wx', 0o600);
      tempCreated = true;
      try {
        await handle.writeFile(encodeUtf8(planned));
        await handle.sync();
      } finally {
        await handle.close();
      }
      const current = await this.fs.stat(target, { bigint: true });
      if (planned.original.version !== undefined && versionOf(current) !== planned.original.version) {
        return { ok: false, code: 'STALE_CONTENT', detail: 'the file changed on disk after it was read' };
      }
      await this.fs.chmod(tempPath, Number(current.mode & 0o7777n));
      await this.keepOwner(tempPath, current);
      await this.fs.rename(tempPath, target);
      renamed = true;
      return { ok: true, value: undefined };
    } catch (error) {
      return storeFailureFromError(error, 'write');
    } finally {
      if (tempCreated && !renamed) {
        await this.removeQuietly(tempPath);
      }
    }
  }

  private async keepOwner(tempPath: string, original: BigIntStats): Promise<void> {
    try {
      await this.fs.chown(tempPath, Number(original.uid), Number(original.gid));
    } catch {
      // Only a privileged process may give a file away; otherwise the file takes the
      // writer's ownership, as it does with any editor's atomic save.
    }
  }

  private async removeQuietly(tempPath: string): Promise<void> {
    try {
      await this.fs.unlink(tempPath);
    } catch {
      // The failure that brought us here is the one to report.
    }
  }
}

function kindOf(stats: { isFile(): boolean; isDirectory(): boolean }): FileKind {
  return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
}

/** Identity, size and nanosecond mtime: any write by another process changes at least one. */
function versionOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;
}

function hasUtf8Bom(bytes: Uint8Array): boolean {
  return UTF8_BOM.every((byte, index) => bytes[index] === byte);
}

function decodeUtf8(bytes: Uint8Array, version: string): StoreResult<StoredText> {
  const bom = hasUtf8Bom(bytes);
  const body = bom ? bytes.subarray(UTF8_BOM.length) : bytes;
  if (body.includes(0)) {
    return { ok: false, code: 'INVALID_ENCODING', detail: 'the file contains NUL bytes, so it is binary, not text' };
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    return { ok: true, value: { text, bom, version } };
  } catch {
    return { ok: false, code: 'INVALID_ENCODING', detail: 'the file is not valid UTF-8 text' };
  }
}

function encodeUtf8(planned: PlannedWrite): Buffer {
  return Buffer.from(planned.bom ? `\uFEFF${planned.text}` : planned.text, 'utf8');
}
