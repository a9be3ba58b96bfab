/**
 * Names no file may be given, whatever system runs the request: the names Windows
 * gives another meaning. A repository is checked out on Windows and macOS as well as
 * Linux, and Linux itself mounts NTFS and FAT disks (WSL's /mnt/c, a USB stick), where
 * `con.ts` opens a device, `a.ts:x` writes a hidden stream of `a.ts`, and `.git.` is
 * `.git`. So these are refused everywhere, as targets, before anything is read.
 */

/** Device names of Windows, with any extension: `nul`, `con.ts`, `COM1.txt`, `lpt¹`. */
const RESERVED_DEVICE = /^(?:con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³]|conin\$|conout\$)$/i;

/** Why a single name (one segment of a path) cannot be a target, or undefined when it can. */
export function portableNameProblem(name: string): string | undefined {
  if (name === '.' || name === '..' || name === '') {
    return undefined;
  }
  // Windows ignores spaces before the extension too: "con .ts" is the device.
  const stem = name.split('.')[0].replace(/ +$/, '');
  if (RESERVED_DEVICE.test(stem)) {
    return `the name "${name}" is a Windows device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9, with any extension)`;
  }
  if (name.includes(':')) {
    return `the name "${name}" has a colon, which on Windows names an alternate data stream of a file (as in "a.ts:stream" or "::$DATA")`;
  }
  if (/[. ]$/.test(name)) {
    return `the name "${name}" ends with a ${name.endsWith('.') ? 'dot' : 'space'}, which Windows drops, so it would name another file`;
  }
  return undefined;
}

/** The segments of `path` after the drive or root, split at either slash. */
function segmentsOf(path: string): string[] {
  return path.replace(/^[A-Za-z]:/, '').split(/[\\/]+/);
}

/**
 * Why `path` cannot be a target: its own name, and each segment below `root` (the
 * names a patch's relative path will create) must be portable. Folders above the root
 * are the user's choice and are not judged.
 */
export function portablePathProblem(path: string, root?: string): string | undefined {
  const segments = segmentsOf(path);
  const below = root !== undefined && path.length > root.length && path.startsWith(root) ? segmentsOf(path.slice(root.length)) : segments.slice(-1);
  for (const segment of below) {
    const problem = portableNameProblem(segment);
    if (problem !== undefined) {
      return problem;
    }
  }
  return undefined;
}
