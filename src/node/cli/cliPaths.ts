/**
 * The CLI's path policy: the engine's default rules (absolute paths only; any ".."
 * segment is PATH_TRAVERSAL), told in the CLI's terms. The CLI has no workspace,
 * and it does not resolve a relative path against the current directory.
 */
import { normalize } from 'node:path';
import { defaultPathCheck, type PathCheckResult } from '../../core/index';

export function checkCliPath(requestedPath: string): PathCheckResult {
  const result = defaultPathCheck(requestedPath, process.platform === 'win32');
  if (result.ok) {
    return { ok: true, path: normalize(result.path) };
  }
  if (result.code === 'RELATIVE_PATH') {
    return { ...result, detail: `${result.detail}; the CLI has no workspace and does not resolve paths against the current directory` };
  }
  return result;
}
