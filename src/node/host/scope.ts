/**
 * The folders a command may edit in (the MCP server's roots, the root of a patch), and
 * how paths are vetted and shown.
 *
 * The scope is the --root directories, narrowed by the client's MCP roots once it has
 * listed them: a client can narrow the scope but never widen it past --root. With
 * neither, the working directory is the one root (the directory an agent starts the
 * server in is its project). Once a client has answered roots/list, its answer rules,
 * and it fails closed: no usable root, or a list that could not be read, is an empty
 * scope in which every edit is refused, saying why. One answer does not close a scope
 * given by --root: an empty list, as clients send that declare roots and have none
 * to give, leaves the --root folders in force. Each root is resolved
 * to its real path (every symbolic link followed) when it is set, and the rules hold
 * for where a path leads as well as for how it is named.
 */
import { basename, isAbsolute, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PathCheck, SurfaceScope } from '../../core';
import {
  containingFolder,
  createPathCheck,
  COMMAND_PROTECTED_GLOBS,
  PLATFORM_IGNORES_CASE,
  refusalForRealPath,
  resolveRequestedPath,
  type ResolvedPolicyConfig,
  type WorkspaceFolderInfo,
} from '../../shared/pathPolicy';
import { nameRulesFor, type NameRules } from '../../shared/nameRules';
import { directLookups, realTarget } from '../../shared/realPaths';
import type { ConfinementRule } from '../store/confinement';
import { type HostScope, protectedGlobsHint, type ScopeRules } from './hostScope';

/** A root as the client lists it (MCP `roots/list`). */
export interface ClientRoot {
  readonly uri: string;
  readonly name?: string;
}

/** A folder of the scope, as named and with its links followed, and how its file system compares names. */
interface ScopeRoot {
  readonly name: string;
  readonly path: string;
  readonly real: string;
  readonly nameRules: NameRules;
}

/** What the client said about its roots: nothing yet, a list, or a list that could not be read. */
type ClientState =
  | { readonly kind: 'unlisted' }
  | { readonly kind: 'listed'; readonly usable: readonly ScopeRoot[]; readonly ignored: readonly string[] }
  | { readonly kind: 'failed' };

export class RootScope implements HostScope {
  private client: ClientState = { kind: 'unlisted' };

  private constructor(private readonly cliRoots: readonly ScopeRoot[], private readonly fallback: ScopeRoot, private readonly rules: ScopeRules) {}

  /** `cliRoots` are absolute; `fallback` (the working directory) counts while there is no other root. */
  static async create(cliRoots: readonly string[], fallback: string, rules: ScopeRules): Promise<RootScope> {
    return new RootScope(await Promise.all(cliRoots.map((path) => scopeRoot(path))), await scopeRoot(fallback), rules);
  }

  /** Whether the client's answer left the --root folders in force: it listed no root at all. */
  keepsCliRoots(): boolean {
    return this.client.kind === 'listed' && this.cliRoots.length > 0 && this.client.usable.length === 0 && this.client.ignored.length === 0;
  }

  /** Takes the client's answer to roots/list; returns the URIs it cannot use (not file:, or malformed). */
  async setClientRoots(roots: readonly ClientRoot[]): Promise<string[]> {
    const ignored: string[] = [];
    const usable: ScopeRoot[] = [];
    for (const root of roots) {
      const path = filePathOf(root.uri);
      if (path === undefined) {
        ignored.push(root.uri);
      } else {
        usable.push(await scopeRoot(path, root.name));
      }
    }
    this.client = { kind: 'listed', usable, ignored };
    return ignored;
  }

  /** The client claims roots but its list could not be read: nothing may be edited until it can. */
  clientRootsUnreadable(): void {
    this.client = { kind: 'failed' };
  }

  /** The folders in force now; empty when nothing may be edited (emptyReason says why). */
  folders(): readonly WorkspaceFolderInfo[] {
    return this.roots().map(({ name, path, nameRules }) => ({ name, path, nameRules }));
  }

  /** Why the scope is empty, in the caller's terms; undefined when it is not. */
  emptyReason(): string | undefined {
    if (this.roots().length > 0) {
      return undefined;
    }
    switch (this.client.kind) {
      case 'unlisted':
        return undefined;
      case 'failed':
        return 'The MCP client declares roots but its roots/list failed, so no root is in force and nothing may be edited';
      case 'listed':
        if (this.client.usable.length > 0) {
          return 'The roots the MCP client lists lie outside every --root of multi-edit mcp, so nothing may be edited';
        }
        return this.client.ignored.length === 0
          ? 'The MCP client lists no root, so nothing may be edited'
          : `The MCP client lists no root the server can use (only file: URIs name folders; it listed ${this.client.ignored.join(', ')}), so nothing may be edited`;
    }
  }

  surface(): SurfaceScope {
    return { checkPath: this.pathCheck(), folders: this.folders().map((folder) => folder.path), displayPath: (path) => this.displayPath(path) };
  }

  pathCheck(): PathCheck {
    // The server's main thread waits on each call anyway: links are followed on it, not in the thread pool.
    return createPathCheck(this.policy(), directLookups);
  }

  /** The path as the path check resolves it (absolute, normalized), before any rule or link; undefined when it does not resolve. */
  resolvedPath(requested: string): string | undefined {
    const resolved = resolveRequestedPath(requested, this.folders(), this.rules.wording);
    return resolved.ok ? resolved.path : undefined;
  }

  /** The rule the store applies to the real path of each target right before it writes. */
  confinement(): ConfinementRule {
    const policy = this.policy();
    return (real) => {
      const refusal = refusalForRealPath(real, policy);
      return refusal === undefined ? undefined : { code: refusal.code, detail: refusal.detail };
    };
  }

  /** Relative to the root that holds the path (prefixed with the root's name when there are several); others as given. */
  displayPath(absolutePath: string): string {
    const folders = this.folders();
    const folder = containingFolder(absolutePath, folders, PLATFORM_IGNORES_CASE);
    if (folder === undefined) {
      return absolutePath;
    }
    const inside = relative(folder.path, absolutePath);
    if (inside === '') {
      return absolutePath;
    }
    return folders.length > 1 ? `${folder.name}${sep}${inside}` : inside;
  }

  private policy(): ResolvedPolicyConfig {
    const roots = this.roots();
    const emptyScopeReason = this.emptyReason();
    return {
      folders: roots.map(({ name, path, nameRules }) => ({ name, path, nameRules })),
      realFolders: roots.map(({ name, real, nameRules }) => ({ name, path: real, nameRules })),
      protectedGlobs: COMMAND_PROTECTED_GLOBS,
      allowedGlobs: this.rules.allowedGlobs,
      allowOutsideWorkspace: this.rules.outsideAllowed === true,
      ignoreCase: PLATFORM_IGNORES_CASE,
      wording: this.rules.wording,
      ...(emptyScopeReason ? { emptyScopeReason } : {}),
    };
  }

  private roots(): readonly ScopeRoot[] {
    switch (this.client.kind) {
      case 'unlisted':
        return this.cliRoots.length > 0 ? this.cliRoots : [this.fallback];
      case 'failed':
        return [];
      case 'listed':
        if (this.keepsCliRoots()) {
          return this.cliRoots;
        }
        return this.cliRoots.length === 0 ? this.client.usable : overlap(this.client.usable, this.cliRoots);
    }
  }
}

async function scopeRoot(path: string, name?: string): Promise<ScopeRoot> {
  const real = (await realTarget(path, directLookups)).real;
  return { name: name ?? (basename(path) || path), path, real, nameRules: nameRulesFor(real) };
}

/** Where two sets of folders overlap, compared by their real paths: the deeper of each nested pair. */
function overlap(clientRoots: readonly ScopeRoot[], cliRoots: readonly ScopeRoot[]): ScopeRoot[] {
  const shared: ScopeRoot[] = [];
  const inside = (inner: ScopeRoot, outer: ScopeRoot): boolean => containingFolder(inner.real, [{ name: outer.name, path: outer.real, nameRules: outer.nameRules }]) !== undefined;
  for (const client of clientRoots) {
    for (const cli of cliRoots) {
      const deeper = inside(client, cli) ? client : inside(cli, client) ? cli : undefined;
      if (deeper !== undefined && !shared.some((root) => root.real === deeper.real)) {
        shared.push(deeper);
      }
    }
  }
  return shared;
}

function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) {
    return undefined;
  }
  try {
    const path = normalize(fileURLToPath(uri));
    return isAbsolute(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** A --root as given on the command line, made absolute against the working directory; a drive's or the system's root stays a root (`C:\\`, not `C:`). */
export function absoluteRoot(root: string, cwd: string): string {
  // resolve keeps a root's separator and drops any other trailing one; on Windows it reads \\x and C:x against the current drive and folder.
  return resolve(cwd, root);
}

/** The scope of `multi-edit mcp`: its --root folders (`roots`, absolute), else the working directory, narrowed by the client's roots. */
export function mcpScope(roots: readonly string[], cwd: string, allowedGlobs: readonly string[]): Promise<RootScope> {
  return RootScope.create(roots, cwd, {
    allowedGlobs,
    wording: {
      folder: 'root',
      protectedGlobsHint: protectedGlobsHint('mcp'),
      outsideHint: 'The roots are the --root options of multi-edit mcp, narrowed by the roots the MCP client lists; ask the user to add the folder',
    },
  });
}
