/**
 * Where a path leads on disk: every symbolic link along it followed, as the system
 * follows them when the file is opened. The scope rules hold for this path, since a
 * link inside a folder may lead anywhere.
 */
import { lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { lstat, readlink, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { nameRulesFor, type NameRules } from './nameRules';

/** The three look-ups that resolving a path makes; a failure is a rejection carrying the errno, as fs/promises gives it. */
export interface LinkLookups {
  realpath(named: string): Promise<string>;
  lstat(named: string): Promise<Stats>;
  readlink(named: string): Promise<string>;
}

/** Each look-up in Node's thread pool: the extension host's, where the main thread serves the editor. */
export const pooledLookups: LinkLookups = { realpath, lstat, readlink };

/**
 * Each look-up made on this thread (realpath the system's, as fs/promises' is). A
 * look-up takes microseconds; a trip through the thread pool costs two thread
 * wake-ups, which on a busy machine cost far more. For the CLI and the MCP server,
 * whose main thread does nothing else meanwhile.
 */
export const directLookups: LinkLookups = {
  realpath: async (named) => realpathSync.native(named),
  lstat: async (named) => lstatSync(named),
  readlink: async (named) => readlinkSync(named),
};

/** Linux's own bound on links followed in one lookup (ELOOP past it). */
const MAX_LINKS_FOLLOWED = 40;

export interface SymbolicLinkStep {
  /** The link as it appears in the named path. */
  readonly link: string;
  /** Where it leads, every link followed. */
  readonly real: string;
}

export interface RealTarget {
  /** The named path with every link followed; for a file yet to be created, its real parent joined with the rest. */
  readonly real: string;
  /** The links the named path goes through, outermost first; empty when the real path is the named one. */
  readonly links: readonly SymbolicLinkStep[];
}

/** Resolves an absolute path; what cannot be resolved (no permission, a loop) is taken as named, and the store then fails on it. */
export async function realTarget(named: string, lookups: LinkLookups = pooledLookups): Promise<RealTarget> {
  const real = await followLinks(named, 0, lookups);
  if (real === named) {
    return { real, links: [] };
  }
  return { real, links: await linksAlong(named, lookups) };
}

/** A folder resolved: its real path, and how the file system there compares names. */
export interface RealFolder {
  readonly path: string;
  readonly nameRules: NameRules;
}

/**
 * The real path of each folder, resolved the first time the folder is seen and kept
 * (a folder swapped for a link later does not move the scope with it), with the name
 * rules of the file system it is on, probed then.
 */
export async function realFolderPaths<T extends { readonly path: string }>(folders: readonly T[], lookups: LinkLookups = pooledLookups): Promise<(T & RealFolder)[]> {
  return Promise.all(folders.map(async (folder) => ({ ...folder, ...(await realFolderOf(folder.path, lookups)) })));
}

const realFolders = new Map<string, Promise<RealFolder>>();

/** The real folder of `folder`, resolved and probed once per process. */
export function realFolderOf(folder: string, lookups: LinkLookups = pooledLookups): Promise<RealFolder> {
  let real = realFolders.get(folder);
  if (real === undefined) {
    real = realTarget(folder, lookups).then((target) => ({ path: target.real, nameRules: nameRulesFor(target.real) }));
    realFolders.set(folder, real);
  }
  return real;
}

async function followLinks(named: string, followed: number, lookups: LinkLookups): Promise<string> {
  try {
    return await lookups.realpath(named);
  } catch (error) {
    if (!isMissing(error)) {
      return named;
    }
  }
  // Some component is missing: a dangling link leads where it points, the rest is joined to the real parent.
  const leaf = await lookups.lstat(named).catch(() => undefined);
  // The link may vanish between the two calls (another process at work): then it leads nowhere yet.
  const target = leaf?.isSymbolicLink() && followed < MAX_LINKS_FOLLOWED ? await lookups.readlink(named).catch(() => undefined) : undefined;
  if (target !== undefined) {
    return followLinks(path.resolve(path.dirname(named), target), followed + 1, lookups);
  }
  const parent = path.dirname(named);
  if (parent === named) {
    return named;
  }
  return path.join(await followLinks(parent, followed, lookups), path.basename(named));
}

async function linksAlong(named: string, lookups: LinkLookups): Promise<SymbolicLinkStep[]> {
  const { root } = path.parse(named);
  const steps: SymbolicLinkStep[] = [];
  let prefix = root;
  for (const segment of named.slice(root.length).split(path.sep).filter((part) => part !== '')) {
    prefix = path.join(prefix, segment);
    const stats = await lookups.lstat(prefix).catch(() => undefined);
    if (stats === undefined) {
      break;
    }
    if (stats.isSymbolicLink()) {
      steps.push({ link: prefix, real: await followLinks(prefix, 0, lookups) });
    }
  }
  return steps;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
