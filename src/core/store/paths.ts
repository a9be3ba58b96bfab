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
  | { readonly ok: false; readonly code: ErrorCode; readonly detail: string; readonly hints?: readonly string[] };

/** Resolves and vets a requested path before anything is read. */
export type PathCheck = (requestedPath: string) => PathCheckResult | Promise<PathCheckResult>;

const WINDOWS_DRIVE_ABSOLUTE = /^[A-Za-z]:[\\/]/;
const WINDOWS_UNC = /^\\\\[^\\]/;

export function isAbsolutePath(path: string, windowsPaths = false): boolean {
  return windowsPaths ? path.startsWith('/') || isWindowsAbsolute(path) : path.startsWith('/');
}

function isWindowsAbsolute(path: string): boolean {
  return WINDOWS_DRIVE_ABSOLUTE.test(path) || WINDOWS_UNC.test(path);
}

export function hasParentSegment(path: string): boolean {
  return path.split(/[\\/]/).includes('..');
}

/** Absolute POSIX or Windows paths only; any ".." segment is PATH_TRAVERSAL, even in an absolute path. */
export function defaultPathCheck(path: string, windowsPaths = false): PathCheckResult {
  if (hasParentSegment(path)) {
    return { ok: false, code: 'PATH_TRAVERSAL', detail: 'the path contains a ".." segment' };
  }
  if (path.trim() === '') {
    return { ok: false, code: 'RELATIVE_PATH', detail: 'file_path is empty' };
  }
  if (!isAbsolutePath(path, windowsPaths)) {
    const windowsStyle = /^[A-Za-z]:/.test(path) || WINDOWS_UNC.test(path);
    return { ok: false, code: 'RELATIVE_PATH', detail: windowsStyle ? 'the path is a Windows path, which is not absolute on this system' : 'the path is not absolute' };
  }
  return { ok: true, path };
}

/**
 * `path` under `root` when it is relative (a patch's paths are); an absolute path,
 * or any path without a root, as it is. A ".." stays in, for the path check to refuse.
 */
export function underRoot(root: string | undefined, path: string): string {
  if (root === undefined || path === '' || isAbsolutePath(path, true) || path.startsWith('file:')) {
    return path;
  }
  const separator = root.includes('/') || !root.includes('\\') ? '/' : '\\';
  return root.endsWith(separator) ? `${root}${path}` : `${root}${separator}${path}`;
}
