/**
 * The port through which the engine touches files. Adapters implement it:
 * src/node on fs/promises, src/vscode over TextDocuments and WorkspaceEdit.
 * Failures are returned with their error code from birth; a store never throws
 * for a domain failure.
 */
import type { ErrorCode } from '../contract/errorCodes';
import type { ReplacedSpan } from '../matching/replacedSpans';
import type { EditedText } from '../text/editedText';

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
  /** What the caller can do about this failure in particular, ahead of the code's general hints. */
  readonly hints?: readonly string[];
}

export type StoreResult<T> = { readonly ok: true; readonly value: T } | StoreFailure;

/**
 * The encoding a file other than UTF-8 is read and written in. Its store proved, when it
 * read the file, that the text encodes back to exactly the bytes read.
 */
export interface StoredEncoding {
  /** Its name, as a request's `encoding` field takes it ("windows-1252", "shift_jis", "utf-16le"). */
  readonly name: string;
  /** The offset of the first character of `text` the encoding cannot represent, or -1 when it represents every one. */
  firstUnrepresentable(text: string): number | Promise<number>;
}

export interface StoredText {
  /** Decoded text without the BOM. */
  readonly text: string;
  /** Whether the file starts with its encoding's byte order mark; writes keep it. */
  readonly bom: boolean;
  /** Opaque version token (document version, mtime); passed back on write. */
  readonly version?: unknown;
  /** Absent for UTF-8, which represents every character. */
  readonly encoding?: StoredEncoding;
}

/** What a path names: only a regular file is ever opened for reading. */
export type FileKind = 'file' | 'directory' | 'other';

export interface FileStat {
  readonly kind: FileKind;
  readonly size: number;
  /** Equal for two paths that name the same file (a symbolic or hard link), when the store can tell. */
  readonly identity?: string;
  /**
   * Set by a store that replaces a file with a new one (a rename) when the file has other
   * hard links: how many. Those names keep the old text after an update.
   */
  readonly otherHardLinks?: number;
}

/**
 * One change of a commit. Paths are the store's opaque keys: the engine passes on what
 * resolving the request gave it and never takes them apart; only the store knows what
 * they name (a file system path for the Node store, a document URI for VS Code's).
 *
 * - update: `path` gets `text`; it held `original` when the plan was made.
 * - add: `path` must not exist; it is created with `text`.
 * - delete: `path`, which held `original`, is removed.
 * - move: `from`, which held `original`, is removed and `path` (which must not exist)
 *   is created with `text`.
 *
 * `text` is always without the BOM; `bom` says whether the written file starts with one. A large
 * update's text comes in parts: a store that writes it part by part never joins it.
 * An added file is UTF-8 unless it names its `encoding` (undo re-creating a deleted file
 * that was not UTF-8); a moved file keeps the encoding it was read in.
 */
export type PlannedChange =
  | { readonly kind: 'update'; readonly path: string; readonly text: EditedText; readonly bom: boolean; readonly original: StoredText; readonly spans?: readonly ReplacedSpan[] }
  | { readonly kind: 'add'; readonly path: string; readonly text: EditedText; readonly bom: boolean; readonly encoding?: string }
  | { readonly kind: 'delete'; readonly path: string; readonly original: StoredText }
  | { readonly kind: 'move'; readonly from: string; readonly path: string; readonly text: EditedText; readonly bom: boolean; readonly original: StoredText };

export type PlannedChangeKind = PlannedChange['kind'];
export type PlannedUpdate = Extract<PlannedChange, { readonly kind: 'update' }>;

/** The verdict a commit waits for before it publishes: true to go ahead. It never rejects, and may be asked more than once. */
export type GoAhead = () => Promise<boolean>;

export interface FileStore {
  stat(path: string): Promise<StoreResult<FileStat>>;
  /**
   * Reads a regular file; more than maxBytes (counted as read, not as stat says) is FILE_TOO_LARGE.
   * A byte order mark decides the encoding, then valid UTF-8; `encoding` (the caller's word) is
   * used only for a file that is neither. Bytes in no encoding the store can tell are INVALID_ENCODING.
   */
  read(path: string, maxBytes?: number, encoding?: string): Promise<StoreResult<StoredText>>;
  /**
   * Commits every change at once, or none of them: a failure leaves every file as it
   * was (or names in `unrestored` what it could not put back yet). The store checks
   * again that each file still holds what the plan was made from (STALE_CONTENT), that
   * a path to create is free (FILE_EXISTS) and that a path to replace or remove is
   * still a file (FILE_NOT_FOUND, IS_DIRECTORY). `isCancelled` lets a store stop and
   * undo between its steps. `beforeWriting`, when given, is awaited before the store writes
   * anything to disk (a history's record is synced meanwhile); a store may prepare in memory
   * first, as VS Code's applies the edit to its documents and then saves them.
   */
  commit(changes: readonly PlannedChange[], isCancelled?: () => boolean, beforeWriting?: () => Promise<void>): Promise<StoreResult<void>>;
  /**
   * Optional: `commit` with a verdict still to come. The store locks, stages and checks
   * as commit does, and calls `goAhead` once its slow steps (syncing the staged files)
   * are under way, so the work behind the verdict runs while it waits for the disk. It
   * makes nothing visible before the verdict; on false it undoes its staging like any
   * failed commit (no file changed) and answers CANCELLED.
   */
  commitWhenCleared?(changes: readonly PlannedChange[], goAhead: GoAhead, isCancelled?: () => boolean): Promise<StoreResult<void>>;
  /** Optional: the names of the entries of a directory, to name the closest ones when a file is not found. */
  listNames?(directory: string): Promise<StoreResult<readonly string[]>>;
  /**
   * Optional: gives the bytes `path` holds now a second name, `keepAt` (a path outside
   * the workspace), without copying them, so a history keeps a large file's text before a
   * request at no cost. Only a store whose commit replaces a file by a rename offers it:
   * `keepAt` then still holds the old bytes after the update. False, with nothing made,
   * when it cannot (another device, no hard links there, or the file has other names that
   * could be written in place).
   */
  linkOriginal?(path: string, keepAt: string): Promise<boolean>;
}
