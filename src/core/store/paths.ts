/**
 * The default path check, used when an adapter passes none (for example the CLI
 * before it resolves paths itself). Pure string rules: the caller says whether
 * Windows paths are absolute where it runs. On POSIX, `C:\x`, `C:/x` and `\\srv\share`
 * are plain relative names, so they are RELATIVE_PATH, never a file in the current
 * directory.
 */
import type { ErrorCode } from '../contract/errorCodes';
import type { Warning } from '../contract/schemas';

export type PathCheckResult =
  | {
    readonly ok: true; readonly path: string; readonly warning?: Warning;
    /** Where the path leads once every link is followed, when the check resolved it: two names of one file not yet made share it. */
    readonly realPath?: string;
  }
  | {
    readonly ok: false; readonly code: ErrorCode; readonly detail: string; readonly hints?: readonly string[];
    /** The hints answer this refusal better than the code's general ones, which are left out. */
    readonly ownHintsOnly?: boolean;
  };

/** Resolves and vets a requested path before anything is read. */
export type PathCheck = (requestedPath: string) => PathCheckResult | Promise<PathCheckResult>;

const WINDOWS_DRIVE_ABSOLUTE = /^[A-Za-z]:[\\/]/;
const WINDOWS_UNC = /^\\\\[^\\]/;

/**
 * Whether `path` names one place whatever the current folder: on Windows only a drive
 * with its root (`C:\x`) or a UNC path (`\\srv\share\x`); `\x` and `/x` lead from
 * the current drive's root and `C:x` from drive C's current folder, so they are not.
 */
export function isAbsolutePath(path: string, windowsPaths = false): boolean {
  return windowsPaths ? isWindowsAbsolute(path) : path.startsWith('/');
}

/** Absolute on one system or the other: what a patch's path must not be joined to its root for. */
function isAbsoluteAnywhere(path: string): boolean {
  return path.startsWith('/') || isWindowsAbsolute(path);
}

function isWindowsAbsolute(path: string): boolean {
  return WINDOWS_DRIVE_ABSOLUTE.test(path) || WINDOWS_UNC.test(path);
}

/** A path that Windows reads from the current drive or a drive's current folder. */
function isDriveRelative(path: string): boolean {
  return /^[\\/](?![\\/])/.test(path) || /^[A-Za-z]:(?![\\/])/.test(path);
}

export function hasParentSegment(path: string): boolean {
  return path.split(/[\\/]/).includes('..');
}

/**
 * A Windows path written in the `\\?\` form (no length limit, no parsing by Windows)
 * as the plain path it names: `\\?\C:\x` is `C:\x`, `\\?\UNC\srv\share` is
 * `\\srv\share`. Other paths as they are.
 */
export function withoutVerbatimPrefix(path: string): string {
  const verbatim = /^[\\/][\\/][?][\\/]/;
  if (!verbatim.test(path)) {
    return path;
  }
  const rest = path.slice(4);
  return /^UNC[\\/]/i.test(rest) ? `\\\\${rest.slice(4)}` : rest;
}

/** `\\.\X`: Windows' device namespace (pipes, volumes, consoles), never a file to edit. */
export function isWindowsDevicePath(path: string): boolean {
  return /^[\\/][\\/]\.[\\/]/.test(path);
}

/** Absolute POSIX or Windows paths only; any ".." segment is PATH_TRAVERSAL, even in an absolute path. */
export function defaultPathCheck(requested: string, windowsPaths = false): PathCheckResult {
  if (windowsPaths && isWindowsDevicePath(requested)) {
    return { ok: false, code: 'NOT_REGULAR_FILE', detail: 'the path is in the Windows device namespace (\\\\.\\), which names devices, not files' };
  }
  const path = windowsPaths ? withoutVerbatimPrefix(requested) : requested;
  if (hasParentSegment(path)) {
    return { ok: false, code: 'PATH_TRAVERSAL', detail: 'the path contains a ".." segment' };
  }
  if (path.trim() === '') {
    return { ok: false, code: 'RELATIVE_PATH', detail: 'file_path is empty' };
  }
  if (!isAbsolutePath(path, windowsPaths)) {
    return { ok: false, code: 'RELATIVE_PATH', detail: notAbsoluteDetail(path, windowsPaths) };
  }
  return { ok: true, path };
}

function notAbsoluteDetail(path: string, windowsPaths: boolean): string {
  if (windowsPaths && isDriveRelative(path)) {
    return 'the path is drive-relative (\\x, /x or C:x lead from the current drive or folder), so it is not absolute; give the drive and its root, as C:\\x';
  }
  const windowsStyle = /^[A-Za-z]:/.test(path) || WINDOWS_UNC.test(path);
  return !windowsPaths && windowsStyle ? 'the path is a Windows path, which is not absolute on this system' : 'the path is not absolute';
}

/**
 * `path` under `root` when it is relative (a patch's paths are); an absolute path,
 * or any path without a root, as it is. A ".." stays in, for the path check to refuse.
 */
export function underRoot(root: string | undefined, path: string): string {
  if (root === undefined || path === '' || isAbsoluteAnywhere(path) || path.startsWith('file:')) {
    return path;
  }
  const separator = root.includes('/') || !root.includes('\\') ? '/' : '\\';
  return root.endsWith(separator) ? `${root}${path}` : `${root}${separator}${path}`;
}
