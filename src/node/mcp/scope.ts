/**
 * The folders the MCP server may edit in, and how paths are vetted and shown.
 *
 * The scope is the --root directories, narrowed by the client's MCP roots when it
 * lists any: a client can narrow the scope but never widen it past --root. With
 * neither, the server's working directory is the one root (the directory an agent
 * starts the server in is its project). The rules themselves are the extension's:
 * relative paths resolve against a single root, protected globs win, and a target
 * outside every root is OUTSIDE_WORKSPACE.
 */
import { basename, isAbsolute, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PathCheck } from '../../core';
import { containingFolder, createPathCheck, MCP_PROTECTED_GLOBS, PLATFORM_IGNORES_CASE, type ScopeWording, type WorkspaceFolderInfo } from '../../shared/pathPolicy';

/** A root as the client lists it (MCP `roots/list`). */
export interface ClientRoot {
  readonly uri: string;
  readonly name?: string;
}

const MCP_WORDING: ScopeWording = {
  folder: 'root',
  protectedGlobsHint: 'The protected globs are the defaults of multi-edit mcp (version-control folders and .env files)',
  outsideHint: 'The roots are the --root options of multi-edit mcp, narrowed by the roots the MCP client lists; ask the user to add the folder',
};

export class RootScope {
  private clientRoots: readonly WorkspaceFolderInfo[] = [];

  /** `cliRoots` are absolute; `fallback` (the working directory) counts when there is no other root. */
  constructor(private readonly cliRoots: readonly string[], private readonly fallback: string) {}

  /** Takes the client's roots; URIs that are not file: URIs cannot hold files and are returned as ignored. */
  setClientRoots(roots: readonly ClientRoot[]): string[] {
    const ignored: string[] = [];
    const folders: WorkspaceFolderInfo[] = [];
    for (const root of roots) {
      const path = filePathOf(root.uri);
      if (path === undefined) {
        ignored.push(root.uri);
      } else {
        folders.push({ name: root.name ?? basename(path), path });
      }
    }
    this.clientRoots = folders;
    return ignored;
  }

  /** The folders in force now. Empty when the client's roots and --root do not overlap: nothing may be edited. */
  folders(): readonly WorkspaceFolderInfo[] {
    const fromCli = this.cliRoots.map((path) => ({ name: basename(path) || path, path }));
    if (this.clientRoots.length === 0) {
      return fromCli.length > 0 ? fromCli : [{ name: basename(this.fallback) || this.fallback, path: this.fallback }];
    }
    return fromCli.length === 0 ? this.clientRoots : overlap(this.clientRoots, fromCli);
  }

  pathCheck(): PathCheck {
    return createPathCheck({
      folders: this.folders(),
      protectedGlobs: MCP_PROTECTED_GLOBS,
      allowOutsideWorkspace: false,
      ignoreCase: PLATFORM_IGNORES_CASE,
      wording: MCP_WORDING,
    });
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
}

/** Where two sets of folders overlap: the deeper of each nested pair. */
function overlap(clientRoots: readonly WorkspaceFolderInfo[], cliRoots: readonly WorkspaceFolderInfo[]): WorkspaceFolderInfo[] {
  const shared: WorkspaceFolderInfo[] = [];
  for (const client of clientRoots) {
    for (const cli of cliRoots) {
      const deeper = containingFolder(client.path, [cli], PLATFORM_IGNORES_CASE) ? client : containingFolder(cli.path, [client], PLATFORM_IGNORES_CASE) ? cli : undefined;
      if (deeper !== undefined && !shared.some((folder) => folder.path === deeper.path)) {
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
    return normalize(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

/** A --root as given on the command line, made absolute against the working directory. */
export function absoluteRoot(root: string, cwd: string): string {
  const path = isAbsolute(root) ? normalize(root) : resolve(cwd, root);
  return path.length > 1 && path.endsWith(sep) ? path.slice(0, -1) : path;
}
