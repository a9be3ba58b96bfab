/**
 * Maps a file-system error (Node's errno symbols, which VS Code's local file system also
 * carries) to a store failure. Pure data, so both adapters share it. The code is chosen from the
 * errno symbol alone (never from the message), and the detail is our own short
 * text, so no raw Node message or stack reaches an envelope.
 */
import type { ErrorCode } from '../contract/errorCodes';
import type { StoreFailure } from './fileStore';

export type FsOperation = 'read' | 'write';

interface Mapping {
  readonly code: ErrorCode;
  readonly detail: (operation: FsOperation) => string;
}

const verb = (operation: FsOperation): string => (operation === 'read' ? 'read' : 'written');

const ERRNO_MAPPINGS: Readonly<Record<string, Mapping>> = {
  ENOENT: { code: 'FILE_NOT_FOUND', detail: () => 'no file exists at this path' },
  ENOTDIR: { code: 'FILE_NOT_FOUND', detail: () => 'a parent of this path is a file, not a directory' },
  // Input the caller must change: retrying the same name can never succeed.
  ENAMETOOLONG: { code: 'VALIDATION_FAILED', detail: () => 'the file name (or the whole path) is too long for the file system; use a shorter name' },
  EISDIR: { code: 'IS_DIRECTORY', detail: () => 'the path is a directory' },
  EACCES: { code: 'PERMISSION_DENIED', detail: (op) => `the file cannot be ${verb(op)} with the current permissions` },
  EPERM: { code: 'PERMISSION_DENIED', detail: (op) => `the operating system does not allow the file to be ${verb(op)}` },
  EROFS: { code: 'READ_ONLY_FS', detail: () => 'the file system is mounted read-only' },
  ENOSPC: { code: 'DISK_FULL', detail: () => 'no space is left on the device' },
  EDQUOT: { code: 'DISK_FULL', detail: () => 'the disk quota is exhausted' },
  ELOOP: { code: 'SYMLINK_LOOP', detail: () => 'the path goes through a loop of symbolic links' },
  EBUSY: { code: 'FILE_BUSY', detail: () => 'the file is busy or locked by another process' },
  EAGAIN: { code: 'FILE_BUSY', detail: () => 'the file is temporarily unavailable' },
  EMFILE: { code: 'FILE_BUSY', detail: () => 'too many files are open at the moment' },
  ENFILE: { code: 'FILE_BUSY', detail: () => 'too many files are open on the system at the moment' },
};

/** The errno symbol of a Node system error (e.g. "ENOENT"), or undefined for anything else. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

export function storeFailureFromError(error: unknown, operation: FsOperation): StoreFailure {
  const errno = errnoOf(error);
  const mapping = errno === undefined ? undefined : ERRNO_MAPPINGS[errno];
  if (mapping) {
    return { ok: false, code: mapping.code, detail: mapping.detail(operation) };
  }
  const reason = errno === undefined ? 'an unexpected error' : `system error ${errno}`;
  // An unknown failure while writing is WRITE_FAILED (the engine rolls back); while
  // reading nothing has changed yet, so it is reported as an unexpected error.
  return operation === 'write'
    ? { ok: false, code: 'WRITE_FAILED', detail: `the file could not be written (${reason})` }
    : { ok: false, code: 'INTERNAL_ERROR', detail: `the file could not be read (${reason})` };
}
