/**
 * The path rules of the surfaces that have a workspace (the VS Code tools and commands,
 * and the MCP server with its roots): resolve what the caller asked for, then vet it
 * against the folders and the protected globs. No vscode import: the folders arrive as
 * plain data, so both adapters share the rules and every rule is unit-tested in Node.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PathCheck, PathCheckResult } from '../core/index';

export interface WorkspaceFolderInfo {
  readonly name: string;
  /** Absolute file-system path of the folder. */
  readonly path: string;
}

/** How a surface names its folders and its controls in failures, so each speaks its user's terms. */
export interface ScopeWording {
  /** One folder of the scope: "workspace folder" in VS Code, "root" in the MCP server. */
  readonly folder: string;
  /** Where the protected globs are set. */
  readonly protectedGlobsHint: string;
  /** How the user allows targets outside every folder. */
  readonly outsideHint: string;
}

export const WORKSPACE_WORDING: ScopeWording = {
  folder: 'workspace folder',
  protectedGlobsHint: 'The protected globs are the user setting multiEdit.protectedGlobs',
  outsideHint: 'The user setting multiEdit.allowOutsideWorkspace allows edits outside the workspace',
};

export interface PathPolicyConfig {
  readonly folders: readonly WorkspaceFolderInfo[];
  readonly protectedGlobs: readonly string[];
  /** From the setting, or because the user confirmed this request's targets. */
  readonly allowOutsideWorkspace: boolean;
  /** Case-insensitive file systems (Windows, macOS) compare paths and globs ignoring case. */
  readonly ignoreCase?: boolean;
  /** Default: the VS Code terms (WORKSPACE_WORDING). */
  readonly wording?: ScopeWording;
}

/** Version-control internals: an edit there corrupts the repository rather than changing code. The extension's default. */
export const VCS_PROTECTED_GLOBS: readonly string[] = ['**/.git/**', '**/.hg/**', '**/.svn/**'];

/** The MCP server's default: the extension's, and .env files, which hold secrets an agent has no business rewriting. */
export const MCP_PROTECTED_GLOBS: readonly string[] = [...VCS_PROTECTED_GLOBS, '**/.env*'];

export const RELATIVE_PATH_RESOLVED = 'RELATIVE_PATH_RESOLVED';

/** File systems where paths differ only by case name the same file: Windows and macOS. */
export const PLATFORM_IGNORES_CASE = process.platform === 'win32' || process.platform === 'darwin';

type Failure = Extract<PathCheckResult, { ok: false }>;
type Resolved = Extract<PathCheckResult, { ok: true }>;

const FILE_URI_PREFIX = 'file://';

function describeFolders(folders: readonly WorkspaceFolderInfo[]): string {
  return folders.map((folder) => `${folder.name} (${folder.path})`).join(', ');
}

function hasTraversalSegment(requested: string): boolean {
  return requested.split(/[\\/]+/).includes('..');
}

/**
 * Turns the requested path into an absolute one: absolute paths and file URIs as
 * they are, a relative path against the only workspace folder (with a warning).
 */
export function resolveRequestedPath(requested: string, folders: readonly WorkspaceFolderInfo[], wording = WORKSPACE_WORDING): PathCheckResult {
  if (hasTraversalSegment(requested)) {
    return { ok: false, code: 'PATH_TRAVERSAL', detail: 'the path contains a ".." segment' };
  }
  if (requested.startsWith(FILE_URI_PREFIX)) {
    try {
      return { ok: true, path: path.normalize(fileURLToPath(requested)) };
    } catch {
      return { ok: false, code: 'RELATIVE_PATH', detail: 'the path is not a valid file URI' };
    }
  }
  if (path.isAbsolute(requested)) {
    return { ok: true, path: path.normalize(requested) };
  }
  if (requested.trim() === '') {
    return { ok: false, code: 'RELATIVE_PATH', detail: 'the path is empty' };
  }
  if (folders.length !== 1) {
    const where = folders.length === 0
      ? `No ${wording.folder} is open, so a relative path cannot be resolved`
      : `Several ${wording.folder}s are open, so a relative path is ambiguous: ${describeFolders(folders)}`;
    return { ok: false, code: 'RELATIVE_PATH', detail: 'the path is relative', hints: [where] };
  }
  const folder = folders[0];
  const resolved = path.join(folder.path, requested);
  return {
    ok: true,
    path: resolved,
    warning: {
      code: RELATIVE_PATH_RESOLVED,
      message: `The relative path "${requested}" was resolved against the ${wording.folder} ${folder.path}; pass absolute paths`,
      file_path: resolved,
    },
  };
}

/** The workspace folder that contains `target`, if any. */
export function containingFolder(target: string, folders: readonly WorkspaceFolderInfo[], ignoreCase = false): WorkspaceFolderInfo | undefined {
  const fold = (value: string): string => (ignoreCase ? value.toLowerCase() : value);
  return folders.find((folder) => {
    const relative = path.relative(fold(folder.path), fold(target));
    return !relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative);
  });
}

const REGEX_SPECIALS = new Set([...'\\^$.+()|{}[]']);

/**
 * A small glob matcher: `**` spans directories, `*` and `?` stay within one
 * segment, `{a,b}` alternates, `[...]`/`[!...]` are character classes.
 * Paths are compared with forward slashes.
 */
export function globToRegExp(glob: string, ignoreCase = false): RegExp {
  let source = '';
  let inBraces = false;
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === '*' && glob[index + 1] === '*') {
      const followedBySlash = glob[index + 2] === '/';
      source += followedBySlash ? '(?:.*/)?' : '.*';
      index += followedBySlash ? 2 : 1;
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '{' && !inBraces) {
      inBraces = true;
      source += '(?:';
    } else if (char === '}' && inBraces) {
      inBraces = false;
      source += ')';
    } else if (char === ',' && inBraces) {
      source += '|';
    } else if (char === '[' && glob.indexOf(']', index + 2) !== -1) {
      const close = glob.indexOf(']', index + 2);
      const body = glob.slice(index + 1, close);
      const negated = body.startsWith('!');
      const members = (negated ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&');
      source += `[${negated ? '^' : ''}${members}]`;
      index = close;
    } else {
      source += REGEX_SPECIALS.has(char) ? `\\${char}` : char;
    }
  }
  return new RegExp(`^${source}$`, ignoreCase ? 'i' : '');
}

function toSlashes(value: string): string {
  return value.replace(/\\/g, '/');
}

/** The first protected glob that matches the absolute path or its workspace-relative path. */
export function matchingProtectedGlob(target: string, config: PathPolicyConfig): string | undefined {
  const folder = containingFolder(target, config.folders, config.ignoreCase);
  const candidates = [toSlashes(target)];
  if (folder) {
    candidates.push(toSlashes(path.relative(folder.path, target)));
  }
  return config.protectedGlobs.find((glob) => {
    const pattern = globToRegExp(toSlashes(glob), config.ignoreCase);
    return candidates.some((candidate) => pattern.test(candidate));
  });
}

export function isOutsideWorkspace(target: string, config: Pick<PathPolicyConfig, 'folders' | 'ignoreCase'>): boolean {
  return containingFolder(target, config.folders, config.ignoreCase) === undefined;
}

/** The engine's PathCheck for one request: resolve, then protected globs, then workspace scope. */
export function createPathCheck(config: PathPolicyConfig): PathCheck {
  return (requested: string): PathCheckResult => {
    const resolved = resolveRequestedPath(requested, config.folders, config.wording);
    if (!resolved.ok) {
      return resolved;
    }
    return vetResolvedPath(resolved, config) ?? resolved;
  };
}

function vetResolvedPath(resolved: Resolved, config: PathPolicyConfig): Failure | undefined {
  const wording = config.wording ?? WORKSPACE_WORDING;
  const glob = matchingProtectedGlob(resolved.path, config);
  if (glob !== undefined) {
    return {
      ok: false,
      code: 'FORBIDDEN_PATH',
      detail: `it matches the protected glob "${glob}"`,
      hints: [wording.protectedGlobsHint],
    };
  }
  if (!config.allowOutsideWorkspace && isOutsideWorkspace(resolved.path, config)) {
    const folders = config.folders.length === 0 ? `No ${wording.folder} is open` : `${capitalized(wording.folder)}s: ${describeFolders(config.folders)}`;
    return {
      ok: false,
      code: 'OUTSIDE_WORKSPACE',
      detail: `it is outside every ${wording.folder}`,
      hints: [folders, wording.outsideHint],
    };
  }
  return undefined;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
