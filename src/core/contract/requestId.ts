/** Request ids, kept apart from the history's schemas so that a command that only applies edits never loads the schema library. */

/** A request id: the UTC time to the millisecond, so ids sort by time, and a random tail. */
export function newRequestId(now: Date, random: () => number): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '').replace('Z', '');
  const tail = Math.floor(random() * 36 ** 6).toString(36).padStart(6, '0');
  return `${stamp}-${tail}`;
}
