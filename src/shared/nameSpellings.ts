/**
 * The other spellings of a protected name. A protected glob such as `** /.git/**` must
 * hold for every name that leads to `.git` on some file system a user has, not only
 * for the one spelled like the glob:
 *
 * - case: NTFS, FAT, APFS and HFS+ ignore it by default (`.GIT`), and git itself
 *   protects `.git` in every case on every system;
 * - trailing dots and spaces, which Windows drops (`.git.`, `.git `);
 * - stream suffixes: `.git::$DATA` is `.git`'s own content on NTFS, `.env:x` a stream of `.env`;
 * - 8.3 short names, which NTFS and FAT give long names (`GIT~1` for `.git`);
 * - code points HFS+ ignores in names (zero-width joiners, direction marks, U+FEFF),
 *   and composed or decomposed forms of one name, which HFS+ and APFS treat as one.
 *
 * So a path is compared in its canonical spelling (canonicalSpelling), and each glob
 * also matches the short names its literal names could have (withShortNameAliases).
 * This can refuse a name that only looks like one of these spellings; it never lets a
 * spelling through.
 */

/** Code points HFS+ leaves out when it compares names (the list git checks for `.git`). */
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** A Windows drive as the first segment (`C:`): its colon is not a stream suffix. */
const DRIVE_SEGMENT = /^[A-Za-z]:$/;

/** One segment as every file system above reads it: ignorables out, composed, stream and trailing dots or spaces cut, lower case. */
function canonicalSegment(segment: string, index: number): string {
  if (segment === '.' || segment === '..' || (index === 0 && DRIVE_SEGMENT.test(segment))) {
    return segment.toLowerCase();
  }
  let name = segment.replace(HFS_IGNORABLE, '').normalize('NFC');
  const colon = name.indexOf(':');
  if (colon !== -1) {
    name = name.slice(0, colon);
  }
  const trimmed = name.replace(/[. ]+$/, '');
  return (trimmed === '' ? name : trimmed).toLowerCase();
}

/** `path` (with forward slashes) in the spelling that every other spelling of it comes down to. */
export function canonicalSpelling(path: string): string {
  return path.split('/').map(canonicalSegment).join('/');
}

/** Glob characters after which a segment's literal prefix ends. */
const WILDCARDS = /[*?[]/;

/** A name that is already a valid 8.3 name is its own short name. */
const PLAIN_SHORT_NAME = /^[^. ]{1,8}(?:\.[^. ]{1,3})?$/;

/**
 * The short-name spellings of one glob segment, as glob alternatives: `.git` may be
 * `GIT~1` (its first six letters, a tilde, a number) or, once several names share
 * those letters, `GI` and four hexadecimal digits, a tilde and a number. A segment
 * with a wildcard gets the same from its literal prefix.
 */
function shortNameAlternatives(segment: string): string[] {
  if (segment === '**' || /[{},]/.test(segment)) {
    return [];
  }
  const wildcard = segment.search(WILDCARDS);
  const literal = wildcard === -1 ? segment : segment.slice(0, wildcard);
  if (wildcard === -1 && PLAIN_SHORT_NAME.test(literal)) {
    return [];
  }
  const bare = literal.replace(/^[. ]+/, '');
  const lastDot = bare.lastIndexOf('.');
  const base = (wildcard === -1 && lastDot > 0 ? bare.slice(0, lastDot) : bare).replace(/[. ]/g, '');
  if (base === '') {
    return [];
  }
  const six = base.slice(0, 6);
  // A prefix shorter than six letters may go on with any letters before the tilde.
  const first = wildcard === -1 || six.length === 6 ? `${six}~*` : `${six}*~*`;
  return [first, `${base.slice(0, 2)}????~*`];
}

/** The glob with each of its literal names also matching the short names it could have. */
export function withShortNameAliases(glob: string): string {
  return glob
    .split('/')
    .map((segment) => {
      const alternatives = shortNameAlternatives(segment);
      return alternatives.length === 0 ? segment : `{${[segment, ...alternatives].join(',')}}`;
    })
    .join('/');
}
