/**
 * The scopes of `multi-edit apply` and `multi-edit patch`.
 *
 * apply has no workspace: a path must be absolute (any ".." segment is PATH_TRAVERSAL),
 * and it does not resolve a relative path against the current directory. It may edit
 * anywhere the system lets it, except where a protected glob says no.
 *
 * A patch names files under its root, so a path must stay inside it: the rules of the
 * MCP server's roots, with the root as the one folder.
 *
 * undo and history work in a root's history, whose requests apply may have made anywhere:
 * they take back a file wherever its request wrote it (as apply could write it), showing
 * paths inside the root relative to it.
 *
 * All refuse the protected globs (version-control folders, .env files) for the path as
 * named and for where it leads, and their stores check each target's real path again by
 * its held directory right before writing, as the server's do.
 */
import { normalize } from 'node:path';
import { defaultPathCheck, type PathCheckResult, type SurfaceScope } from '../../core/index';
import { COMMAND_PROTECTED_GLOBS, createPathCheck, PLATFORM_IGNORES_CASE, refusalForRealPath, type ResolvedPolicyConfig } from '../../shared/pathPolicy';
import { directLookups } from '../../shared/realPaths';
import type { ConfinementRule } from '../store/confinement';
import { type HostScope, protectedGlobsHint } from './hostScope';
import { RootScope } from './scope';

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

/** `multi-edit apply`: absolute paths anywhere, but never a protected one. */
export function applyScope(allowedGlobs: readonly string[]): HostScope {
  const policy: ResolvedPolicyConfig = {
    folders: [],
    realFolders: [],
    protectedGlobs: COMMAND_PROTECTED_GLOBS,
    allowedGlobs,
    allowOutsideWorkspace: true,
    ignoreCase: PLATFORM_IGNORES_CASE,
    wording: { folder: 'folder', protectedGlobsHint: protectedGlobsHint('apply'), outsideHint: '' },
  };
  // The thread is free while the CLI's one request runs: links are followed on it.
  const vetted = createPathCheck(policy, directLookups);
  return {
    surface: (): SurfaceScope => ({
      checkPath: async (requested) => {
        const resolved = checkCliPath(requested);
        return resolved.ok ? vetted(resolved.path) : resolved;
      },
      folders: [],
      displayPath: (path) => path,
    }),
    confinement: (): ConfinementRule => (real) => refusalForRealPath(real, policy),
    resolvedPath: (requested) => {
      const resolved = checkCliPath(requested);
      return resolved.ok ? resolved.path : undefined;
    },
  };
}

/** `multi-edit patch`: the patch's paths are relative to `root` (absolute), and must stay inside it. */
export function patchScope(root: string, allowedGlobs: readonly string[]): Promise<RootScope> {
  return RootScope.create([root], root, {
    allowedGlobs,
    wording: {
      folder: 'root',
      protectedGlobsHint: protectedGlobsHint('patch'),
      outsideHint: 'Paths in a patch are relative to --root (default: the current directory); run it from the project folder or pass --root',
    },
  });
}

/** `multi-edit undo` and `history`: the root's history, whose requests may have edited outside it (apply's), never a protected file. */
export function historyScope(root: string): Promise<RootScope> {
  return RootScope.create([root], root, {
    allowedGlobs: [],
    outsideAllowed: true,
    wording: {
      folder: 'root',
      protectedGlobsHint: 'multi-edit undo never writes version-control folders (.git, .hg, .svn) or .env files, which no kept request edited; restore such a file by hand',
      outsideHint: '',
    },
  });
}
