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
 */
import { createHash } from 'node:crypto';
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
