/**
 * The files a commit keeps next to its target while it runs, and nowhere else.
 * Each name is derived from the target's own name, so any process that is about to
 * touch the target finds them without a registry:
 *
 *   .NAME.multi-edit-lock    the lock, created with O_EXCL; it holds the batch record
 *   .NAME.multi-edit-new     the new content, renamed over the target to commit it
 *   .NAME.multi-edit-old     a hard link to the old content, for rolling back
 *   .NAME.multi-edit-commit  next to the batch's first file only: the commit point
 *   .NAME.multi-edit-claim   next to the batch's first file only: held while a crashed batch is recovered
 *
 * A lock is never created empty: its record is first written to a draft, which is
 * then hard-linked to the lock's name (the link fails if the name exists). A draft is
 * named after its process, not a target, so one draft serves every lock of a
 * directory; a draft left by a process that died is removed by the next run there:
 *
 *   .multi-edit-draft.HOST.PID.RANDOM
 */
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

export type SidecarRole = 'lock' | 'new' | 'old' | 'commit' | 'claim';

/** Most file systems allow 255 bytes in one name. */
const MAX_NAME_BYTES = 255;
const LONGEST_SUFFIX = '.multi-edit-commit'.length;

export function sidecarPath(target: string, role: SidecarRole): string {
  return join(dirname(target), `.${stemOf(basename(target))}.multi-edit-${role}`);
}

/** A name too long to take the suffix is replaced by its digest, which stays unique in the directory. */
function stemOf(name: string): string {
  if (Buffer.byteLength(name) + LONGEST_SUFFIX + 1 <= MAX_NAME_BYTES) {
    return name;
  }
  return `long-${createHash('sha256').update(name).digest('hex').slice(0, 40)}`;
}

export const ALL_ROLES: readonly SidecarRole[] = ['lock', 'new', 'old', 'commit', 'claim'];

const DRAFT_PREFIX = '.multi-edit-draft.';
/** Process ids are only comparable on one host; drafts carry a short digest of its name. */
const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

/** Drafts this process is using right now; any other draft with our pid is a leftover. */
const draftsInFlight = new Set<string>();

/** A fresh draft name in `directory` for this process, in use until retireDraft. */
export function draftPath(directory: string): string {
  const path = join(directory, `${DRAFT_PREFIX}${HOST_TAG}.${process.pid}.${randomBytes(6).toString('hex')}`);
  draftsInFlight.add(path);
  return path;
}

export function retireDraft(path: string): void {
  draftsInFlight.delete(path);
}

export function draftInFlight(path: string): boolean {
  return draftsInFlight.has(path);
}

/** The process on this host that made the draft called `name`, or undefined when `name` is no draft of this host. */
export function draftOwnerOnThisHost(name: string): number | undefined {
  if (!name.startsWith(DRAFT_PREFIX)) {
    return undefined;
  }
  const [host, pid, random, ...rest] = name.slice(DRAFT_PREFIX.length).split('.');
  return host === HOST_TAG && /^\d+$/.test(pid ?? '') && random !== undefined && rest.length === 0 ? Number(pid) : undefined;
}
