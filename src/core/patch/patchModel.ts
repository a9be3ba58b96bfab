/**
 * What a patch says, whatever its format: file operations, each update a list of
 * hunks (old text, new text, and where the patch places it). The three readers
 * (v4a.ts, unifiedDiff.ts, searchReplace.ts) produce this; formats/patchRequest.ts turns
 * it into the request the engine plans.
 */
import type { HunkPlacement } from '../matching/placement';

export type PatchFormat = 'v4a' | 'unified' | 'search-replace';

/**
 * Each format as the texts that teach it name it: the tool's description, the schema, the CLI's
 * help, the README and docs/patch.md. A unit test finds every name in each of them, so a new
 * format (which does not compile without a name here) is taught everywhere or fails the test.
 */
export const PATCH_FORMAT_NAMES: Readonly<Record<PatchFormat, string>> = { v4a: 'apply_patch', unified: 'unified diff', 'search-replace': 'SEARCH/REPLACE' };

export interface PatchHunk {
  /** The context and removed lines, with their line breaks. */
  readonly oldText: string;
  /** The context and added lines, with their line breaks. */
  readonly newText: string;
  readonly placement: HunkPlacement;
}

export type PatchOperation =
  | { readonly kind: 'update'; readonly path: string; readonly moveTo?: string; readonly hunks: readonly PatchHunk[]; readonly patchLine: number }
  | { readonly kind: 'add'; readonly path: string; readonly text: string; readonly patchLine: number }
  /** A unified diff states the removed text: its hunks must then match the whole file. */
  | { readonly kind: 'delete'; readonly path: string; readonly hunks: readonly PatchHunk[]; readonly patchLine: number };

/** A malformed patch: where, and what was expected there. */
export interface PatchIssue {
  readonly patchLine: number;
  readonly message: string;
}

export type PatchParse =
  | { readonly ok: true; readonly format: PatchFormat; readonly operations: readonly PatchOperation[] }
  | { readonly ok: false; readonly issues: readonly PatchIssue[] };

/** One line of a patch: its text without the "\n" (a "\r" before it stays), and its 1-based number. */
export interface PatchLine {
  readonly text: string;
  readonly number: number;
}

/** The lines of a patch; a final line break does not open another line. */
export function patchLines(patch: string): PatchLine[] {
  const parts = patch.split('\n');
  if (parts.length > 1 && parts[parts.length - 1] === '') {
    parts.pop();
  }
  return parts.map((text, index) => ({ text, number: index + 1 }));
}

/** A line as a marker is compared: without the "\r" of a CRLF patch. */
export function markerText(line: PatchLine | undefined): string {
  if (line === undefined) {
    return '';
  }
  return line.text.endsWith('\r') ? line.text.slice(0, -1) : line.text;
}

/** The lines' texts, each ended by "\n", except the last when `lastHasNewline` is false. */
export function joinLines(lines: readonly string[], lastHasNewline = true): string {
  if (lines.length === 0) {
    return '';
  }
  return lastHasNewline ? `${lines.join('\n')}\n` : lines.join('\n');
}

/** A path as a patch writes it, without a leading "./". */
export function cleanPatchPath(path: string): string {
  let clean = path.trim();
  while (clean.startsWith('./')) {
    clean = clean.slice(2);
  }
  return clean;
}
