/**
 * The port through which the engine touches files. Adapters implement it:
 * src/node on fs/promises, src/vscode over TextDocuments and WorkspaceEdit.
 * Failures are returned with their error code from birth; a store never throws
 * for a domain failure.
 */
import type { ErrorCode } from '../contract/errorCodes';

/** A failure reported by a store. `detail` is already sanitised (no raw errno text). */
export interface StoreFailure {
  readonly ok: false;
  readonly code: ErrorCode;
  readonly detail: string;
  /** The file the failure concerns, as the plan names it, when a commit of several files knows. */
  readonly path?: string;
  /**
   * Files a failed commit wrote and could not put back yet: they hold the new text
   * until the store's journal is recovered. Absent or empty: no file was changed.
   */
  readonly unrestored?: readonly string[];
  /** Files a failed commit wrote and then put back. */
  readonly restored?: readonly string[];
}

export type StoreResult<T> = { readonly ok: true; readonly value: T } | StoreFailure;

export interface StoredText {
  /** Decoded text without the BOM. */
  readonly text: string;
  /** Whether the file starts with a UTF-8 BOM; writes keep it. */
  readonly bom: boolean;
  /** Opaque version token (document version, mtime); passed back on write. */
  readonly version?: unknown;
}

/** What a path names: only a regular file is ever opened for reading. */
export type FileKind = 'file' | 'directory' | 'other';

export interface FileStat {
  readonly kind: FileKind;
  readonly size: number;
  /** Equal for two paths that name the same file (a symbolic or hard link), when the store can tell. */
  readonly identity?: string;
}

export interface PlannedWrite {
  readonly path: string;
  /** The new text, without the BOM. */
  readonly text: string;
  readonly bom: boolean;
  /** The text the plan was made from, for staleness checks and rollback. */
  readonly original: StoredText;
}

export interface FileStore {
  stat(path: string): Promise<StoreResult<FileStat>>;
  /** Reads a regular file; more than maxBytes (counted as read, not as stat says) is FILE_TOO_LARGE. */
  read(path: string, maxBytes?: number): Promise<StoreResult<StoredText>>;
  /** Write one file. Must not change the file when it fails. */
  write(write: PlannedWrite): Promise<StoreResult<void>>;
  /**
   * Optional: commit every planned write at once (one WorkspaceEdit, one undo step).
   * When absent, the engine writes files one by one and rolls back on failure.
   * `isCancelled` lets a store stop and roll back between its steps.
   */
  commitAll?(writes: readonly PlannedWrite[], isCancelled?: () => boolean): Promise<StoreResult<void>>;
  /** Optional: the names of the entries of a directory, to name the closest ones when a file is not found. */
  listNames?(directory: string): Promise<StoreResult<readonly string[]>>;
}
