/**
 * Keeps a commit inside the folders it may write in, even when a directory on the way
 * is swapped for a symbolic link while the request runs.
 *
 * Before anything is written, the directory of each target is opened and asked, by
 * its handle, where it really is; that must be inside. From then on the commit reaches
 * the target and its sidecars through the held directory (`/proc/self/fd/N/name` on
 * Linux), so a path that is changed later cannot lead a single byte elsewhere. Right
 * before the rename the handle is asked again, so a directory moved out meanwhile is
 * refused. Where the system cannot name a handle's directory, the commit uses the
 * path and compares the directory's dev:ino with a fresh lookup instead, which leaves
 * the moments between that lookup and each write open (SECURITY.md).
 *
 * Its calls are made on this thread, as the store's are (fsApi.ts): each takes
 * microseconds, less than a round trip through the thread pool.
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ErrorCode, StoreFailure, StoreResult } from '../../core/index';

const REMOVED_SUFFIX = ' (deleted)';

/** Why a real path may not be written, or undefined when it may. */
export type ConfinementRule = (realPath: string) => { readonly code: ErrorCode; readonly detail: string } | undefined;

/** A target whose directory is held open for the length of a commit. */
export interface HeldTarget {
  /** The path every step of the commit uses for the target. */
  readonly at: string;
  /** Asks the held handle again, right before the rename, whether the directory is still inside. */
  confirm(): Promise<StoreFailure | undefined>;
  release(): Promise<void>;
}

/** Opens the directory of `real` (a path with no link left in it) and checks where the handle says it is. */
export async function holdTarget(real: string, rule: ConfinementRule, namedPath: string): Promise<StoreResult<HeldTarget>> {
  const directory = openSync(dirname(real), constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    const held = new HeldDirectory(directory, dirname(real), basename(real), rule, namedPath);
    const refusal = await held.confirm();
    if (refusal) {
      closeSync(directory);
      return refusal;
    }
    return { ok: true, value: held };
  } catch (error) {
    closeSync(directory);
    throw error;
  }
}

class HeldDirectory implements HeldTarget {
  /** `/proc/self/fd/N`, when the system names the directory of an open descriptor. */
  private readonly handlePath: string;
  private byHandle: boolean | undefined;
  private identity: string | undefined;

  constructor(
    private readonly descriptor: number,
    private readonly directory: string,
    private readonly name: string,
    private readonly rule: ConfinementRule,
    private readonly namedPath: string,
  ) {
    this.handlePath = `/proc/self/fd/${descriptor}`;
  }

  get at(): string {
    return this.byHandle ? join(this.handlePath, this.name) : join(this.directory, this.name);
  }

  async confirm(): Promise<StoreFailure | undefined> {
    const where = this.whereNow();
    if (where === undefined) {
      return this.refuse('OUTSIDE_WORKSPACE', `the folder ${this.directory} was replaced while the request ran`);
    }
    const refusal = this.rule(join(where, this.name));
    return refusal ? this.refuse(refusal.code, refusal.detail) : undefined;
  }

  async release(): Promise<void> {
    closeSync(this.descriptor);
  }

  /** The directory's real path as the handle knows it; undefined when the path no longer leads to the handle's directory. */
  private whereNow(): string | undefined {
    if (this.byHandle !== false) {
      try {
        const where = readlinkSync(this.handlePath);
        this.byHandle = true;
        // Linux names a removed directory "PATH (deleted)": it is no longer where it was checked.
        return where.endsWith(REMOVED_SUFFIX) ? undefined : where;
      } catch {
        this.byHandle = false;
      }
    }
    const stats = fstatSync(this.descriptor);
    const identity = `${stats.dev}:${stats.ino}`;
    this.identity ??= identity;
    if (identity !== this.identity || identityAt(this.directory) !== identity) {
      return undefined;
    }
    return realpathSync.native(this.directory);
  }

  private refuse(code: ErrorCode, detail: string): StoreFailure {
    return { ok: false, code, detail, path: this.namedPath };
  }
}

/** The dev:ino a path leads to now, or undefined when it leads nowhere. */
function identityAt(path: string): string | undefined {
  try {
    const stats = statSync(path);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}
