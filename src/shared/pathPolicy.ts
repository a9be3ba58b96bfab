/**
 * The path rules of the surfaces that have a workspace (the VS Code tools and commands,
 * and the MCP server with its roots): resolve what the caller asked for, then vet it
 * against the folders and the protected globs. No vscode import: the folders arrive as
 * plain data, so both adapters share the rules and every rule is unit-tested in Node.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PathCheck, PathCheckResult } from '../core/index';
import { pooledLookups, realFolderPaths, realTarget, type LinkLookups, type RealTarget } from './realPaths';

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
  /** Paths that match one of these are not protected after all (the CLI's --allow-protected), matched as protectedGlobs are. */
  readonly allowedGlobs?: readonly string[];
  /** From the setting, or because the user confirmed this request's targets. */
  readonly allowOutsideWorkspace: boolean;
  /** Case-insensitive file systems (Windows, macOS) compare paths and globs ignoring case. */
  readonly ignoreCase?: boolean;
  /** Default: the VS Code terms (WORKSPACE_WORDING). */
  readonly wording?: ScopeWording;
  /**
   * The folders with every symbolic link in them followed, in the order of `folders`,
   * resolved once when the folders were set. When absent, each check resolves them.
   */
  readonly realFolders?: readonly WorkspaceFolderInfo[];
  /** Why there is no folder at all, said to the caller when the scope is empty. */
  readonly emptyScopeReason?: string;
}

/** A config whose folders are resolved: what the checks of real paths need. */
export type ResolvedPolicyConfig = PathPolicyConfig & { readonly realFolders: readonly WorkspaceFolderInfo[] };

/** Version-control internals: an edit there corrupts the repository rather than changing code. The extension's default. */
export const VCS_PROTECTED_GLOBS: readonly string[] = ['**/.git/**', '**/.hg/**', '**/.svn/**'];

/** The default of every multi-edit command (apply, patch, mcp): the extension's, and .env files, which hold secrets an agent has no business rewriting. */
export const COMMAND_PROTECTED_GLOBS: readonly string[] = [...VCS_PROTECTED_GLOBS, '**/.env*'];

export const RELATIVE_PATH_RESOLVED = 'RELATIVE_PATH_RESOLVED';

/** File systems where paths differ only by case name the same file: Windows and macOS. */
export const PLATFORM_IGNORES_CASE = process.platform === 'win32' || process.platform === 'darwin';

type Failure = Extract<PathCheckResult, { ok: false }>;

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
  const matches = (glob: string): boolean => {
    const pattern = compiledGlob(glob, config.ignoreCase ?? false);
    return candidates.some((candidate) => pattern.test(candidate));
  };
  const glob = config.protectedGlobs.find(matches);
  return glob !== undefined && config.allowedGlobs?.some(matches) ? undefined : glob;
}

/** Each glob is compiled once: every path check of every request tests the same few. */
const compiledGlobs = new Map<string, RegExp>();

function compiledGlob(glob: string, ignoreCase: boolean): RegExp {
  const key = `${ignoreCase ? 'i' : 's'}${glob}`;
  let pattern = compiledGlobs.get(key);
  if (pattern === undefined) {
    pattern = globToRegExp(toSlashes(glob), ignoreCase);
    compiledGlobs.set(key, pattern);
  }
  return pattern;
}

export function isOutsideWorkspace(target: string, config: Pick<PathPolicyConfig, 'folders' | 'ignoreCase'>): boolean {
  return containingFolder(target, config.folders, config.ignoreCase) === undefined;
}

/**
 * The engine's PathCheck for one request: resolve, then the protected globs and the
 * scope for the path as named, then the same rules for the path it leads to once
 * every symbolic link is followed (the file the store opens and replaces). `lookups`
 * say how links are followed: in the thread pool unless the caller's thread is free.
 */
export function createPathCheck(config: PathPolicyConfig, lookups: LinkLookups = pooledLookups): PathCheck {
  return async (requested: string): Promise<PathCheckResult> => {
    const resolved = resolveRequestedPath(requested, config.folders, config.wording);
    if (!resolved.ok) {
      return resolved;
    }
    const resolvedConfig = await withRealFolders(config, lookups);
    const refused = vetResolvedPath(resolved.path, resolvedConfig);
    if (refused) {
      return refused;
    }
    const target = await realTarget(resolved.path, lookups);
    return vetRealPath(target, resolvedConfig) ?? { ...resolved, realPath: target.real };
  };
}

export async function withRealFolders(config: PathPolicyConfig, lookups: LinkLookups = pooledLookups): Promise<ResolvedPolicyConfig> {
  return config.realFolders ? { ...config, realFolders: config.realFolders } : { ...config, realFolders: await realFolderPaths(config.folders, lookups) };
}

/** Whether the user must allow this target: it is outside every folder as named, or leads out through a link. */
export async function leadsOutsideWorkspace(target: string, config: PathPolicyConfig): Promise<boolean> {
  const resolvedConfig = await withRealFolders(config);
  if (isOutsideWorkspace(target, { ...resolvedConfig, folders: namedOrReal(resolvedConfig) })) {
    return true;
  }
  return isOutsideWorkspace((await realTarget(target)).real, { ...resolvedConfig, folders: resolvedConfig.realFolders });
}

/**
 * The rule a store applies to the real path it is about to write, right before it
 * writes: the protected globs and the real folders, with nothing left to resolve.
 */
export function refusalForRealPath(real: string, config: ResolvedPolicyConfig): Failure | undefined {
  return vetRealPath({ real, links: [] }, config);
}

/** A path named inside a folder, or inside the real path of one (a root given through a link). */
function namedOrReal(config: ResolvedPolicyConfig): WorkspaceFolderInfo[] {
  const extra = config.realFolders.filter((real) => !config.folders.some((folder) => folder.path === real.path));
  return [...config.folders, ...extra];
}

function vetResolvedPath(target: string, config: ResolvedPolicyConfig): Failure | undefined {
  const named = { ...config, folders: namedOrReal(config) };
  const glob = matchingProtectedGlob(target, named);
  if (glob !== undefined) {
    return forbidden(`it matches the protected glob "${glob}"`, config);
  }
  if (!config.allowOutsideWorkspace && isOutsideWorkspace(target, named)) {
    return outside(`it is outside every ${wordingOf(config).folder}`, config);
  }
  return undefined;
}

/** The rules again for where the path leads, naming the link that takes it there. */
function vetRealPath(target: RealTarget, config: ResolvedPolicyConfig): Failure | undefined {
  const real = { ...config, folders: config.realFolders };
  const glob = matchingProtectedGlob(target.real, real);
  if (glob !== undefined) {
    return forbidden(`${through(target, real)} ${target.real}, which matches the protected glob "${glob}"`, config);
  }
  if (!config.allowOutsideWorkspace && isOutsideWorkspace(target.real, real)) {
    return outside(`${through(target, real)} ${target.real}, outside every ${wordingOf(config).folder}`, config);
  }
  return undefined;
}

/** "it leads through the symbolic link L to": the first link that leaves the folders, else the last one taken. */
function through(target: RealTarget, real: PathPolicyConfig): string {
  if (target.links.length === 0) {
    return 'it is';
  }
  const leaving = target.links.find((step) => isOutsideWorkspace(step.real, real) || matchingProtectedGlob(step.real, real) !== undefined);
  const link = (leaving ?? target.links[target.links.length - 1]).link;
  return `it leads through the symbolic link ${link} to`;
}

function wordingOf(config: PathPolicyConfig): ScopeWording {
  return config.wording ?? WORKSPACE_WORDING;
}

function forbidden(detail: string, config: PathPolicyConfig): Failure {
  return { ok: false, code: 'FORBIDDEN_PATH', detail, hints: [wordingOf(config).protectedGlobsHint] };
}

function outside(detail: string, config: PathPolicyConfig): Failure {
  const wording = wordingOf(config);
  const folders = config.folders.length === 0
    ? config.emptyScopeReason ?? `No ${wording.folder} is open`
    : `${capitalized(wording.folder)}s: ${describeFolders(config.folders)}`;
  return { ok: false, code: 'OUTSIDE_WORKSPACE', detail, hints: [folders, wording.outsideHint] };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
