/**
 * The default path check, used when an adapter passes none (for example the CLI
 * before it resolves paths itself). Pure string rules, so it behaves the same for
 * POSIX and Windows paths on any platform.
 */
import type { PathCheckResult } from './options';

const WINDOWS_DRIVE_ABSOLUTE = /^[A-Za-z]:[\\/]/;
const WINDOWS_UNC = /^\\\\[^\\]/;

export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || WINDOWS_DRIVE_ABSOLUTE.test(path) || WINDOWS_UNC.test(path);
}

export function hasParentSegment(path: string): boolean {
  return path.split(/[\\/]/).includes('..');
}

/** Absolute POSIX or Windows paths only; any ".." segment is PATH_TRAVERSAL, even in an absolute path. */
export function defaultPathCheck(path: string): PathCheckResult {
  if (hasParentSegment(path)) {
    return { ok: false, code: 'PATH_TRAVERSAL', detail: 'the path contains a ".." segment' };
  }
  if (path.trim() === '') {
    return { ok: false, code: 'RELATIVE_PATH', detail: 'file_path is empty' };
  }
  if (!isAbsolutePath(path)) {
    return { ok: false, code: 'RELATIVE_PATH', detail: 'the path is not absolute' };
  }
  return { ok: true, path };
}
