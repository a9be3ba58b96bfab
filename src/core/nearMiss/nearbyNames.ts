/**
 * For FILE_NOT_FOUND: the existing names in the missing file's directory that are
 * closest to the name asked for, by edit distance. They are facts about the
 * directory, ranked; the caller decides which, if any, it meant.
 */

/** Names offered at most. */
const MAX_NEARBY_NAMES = 5;
/** Directory entries compared at most, so a huge directory stays cheap. */
const MAX_NAMES_COMPARED = 5000;
/** Names longer than this are compared by their first this many characters. */
const MAX_NAME_CHARS = 255;

/** The directory part and the last segment of a path, on '/' or '\\'. */
export function splitPath(path: string): { directory: string; name: string } | undefined {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  if (cut < 0 || cut === path.length - 1) {
    return undefined;
  }
  return { directory: cut === 0 ? path.slice(0, 1) : path.slice(0, cut), name: path.slice(cut + 1) };
}

/** Levenshtein distance, case differences counting half, on one row of the table. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_unused, at) => at);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      const same = a[i - 1] === b[j - 1] ? 0 : a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0.5 : 1;
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + same);
      diagonal = above;
    }
  }
  return row[b.length];
}

/** The names closest to `missing`, nearest first; only names within half the length of `missing` in edits. */
export function nearestNames(missing: string, names: readonly string[]): string[] {
  const wanted = missing.slice(0, MAX_NAME_CHARS);
  const bound = Math.max(2, Math.ceil(wanted.length / 2));
  return names
    .slice(0, MAX_NAMES_COMPARED)
    .map((name) => ({ name, cost: distance(wanted, name.slice(0, MAX_NAME_CHARS)) }))
    .filter((entry) => entry.cost <= bound)
    .sort((a, b) => a.cost - b.cost || a.name.localeCompare(b.name))
    .slice(0, MAX_NEARBY_NAMES)
    .map((entry) => entry.name);
}
