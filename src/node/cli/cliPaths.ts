/**
 * The CLI's path policy: the engine's default rules (absolute paths only; any ".."
 * segment is PATH_TRAVERSAL), told in the CLI's terms. The CLI has no workspace,
 * and it does not resolve a relative path against the current directory.
 */
import { basename, normalize } from 'node:path';
import { defaultPathCheck, type PathCheck, type PathCheckResult } from '../../core/index';
import { createPathCheck, PLATFORM_IGNORES_CASE, refusalForRealPath, VCS_PROTECTED_GLOBS, withRealFolders, type PathPolicyConfig } from '../../shared/pathPolicy';
import type { ConfinementRule } from '../store/confinement';
import { directLookups } from '../../shared/realPaths';

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

/**
 * The path policy of `multi-edit patch`: a patch names files under its root, so a
 * path must stay inside it (the rules the MCP server and the extension apply to
 * their folders), and version-control folders are refused.
 */
export function patchPathCheck(root: string): PathCheck {
  return createPathCheck(patchPolicy(root), directLookups);
}

/**
 * The same rules for the store, which applies them to the real path of each target
 * once the folders a new file needs exist, right before it writes: a folder that a
 * file system reads as another (`.git.` is `.git` on Windows) gets no byte.
 */
export async function patchConfinement(root: string): Promise<ConfinementRule> {
  const policy = await withRealFolders(patchPolicy(root), directLookups);
  return (real) => {
    const refusal = refusalForRealPath(real, policy);
    return refusal === undefined ? undefined : { code: refusal.code, detail: refusal.detail };
  };
}

function patchPolicy(root: string): PathPolicyConfig {
  return {
    folders: [{ name: basename(root) || root, path: root }],
    protectedGlobs: VCS_PROTECTED_GLOBS,
    allowOutsideWorkspace: false,
    ignoreCase: PLATFORM_IGNORES_CASE,
    wording: {
      folder: 'root',
      protectedGlobsHint: 'multi-edit patch refuses version-control folders (.git, .hg, .svn)',
      outsideHint: 'Paths in a patch are relative to --root (default: the current directory); run it from the project folder or pass --root',
    },
  };
}
