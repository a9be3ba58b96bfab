/**
 * The order of the request picker: by relative path, so files of one folder stay together
 * and the list reads the same from run to run (the workspace search returns them in no set order).
 */
export interface PathItem {
  readonly label: string;
}

export function sortedByPath<Item extends PathItem>(items: readonly Item[]): Item[] {
  return [...items].sort((a, b) => a.label.localeCompare(b.label));
}
