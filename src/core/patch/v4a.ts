/**
 * The Codex apply_patch ("V4A") format:
 *
 *     *** Begin Patch
 *     *** Add File: path          then lines starting with "+"
 *     *** Delete File: path
 *     *** Update File: path
 *     *** Move to: path           optional, right after Update File
 *     @@ [a line above the hunk]  zero or more, then lines starting with " ", "-" or "+"
 *     *** End of File             optional: the hunk ends where the file ends
 *     *** End Patch
 *
 * An empty line inside a hunk is an empty context line, as Codex reads it. Marker lines
 * (the "***" lines above) may have spaces or tabs before and after them, as Codex
 * accepts; hunk lines are read exactly.
 */
import { cleanPatchPath, joinLines, markerText, type PatchHunk, type PatchIssue, type PatchLine, type PatchOperation, type PatchParse } from './patchModel';

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';
const FILE_HEADER = 'a "*** Add File: ", "*** Delete File: " or "*** Update File: " line, or "*** End Patch"';

export function isV4aPatch(lines: readonly PatchLine[]): boolean {
  const first = lines.find((line) => markerText(line).trim() !== '');
  return markerText(first).trim() === BEGIN;
}

export function parseV4a(lines: readonly PatchLine[]): PatchParse {
  const issues: PatchIssue[] = [];
  const operations: PatchOperation[] = [];
  let at = lines.findIndex((line) => markerText(line).trim() === BEGIN) + 1;
  let ended = false;
  while (at < lines.length && !ended) {
    const line = lines[at];
    const text = markerText(line).trim();
    if (text === END) {
      ended = true;
    } else if (headerPath(text, ADD) !== undefined) {
      const added = readAddedLines(lines, at + 1, issues);
      operations.push({ kind: 'add', path: headerPath(text, ADD) ?? '', text: joinLines(added.lines), patchLine: line.number });
      at = added.next;
      continue;
    } else if (headerPath(text, DELETE) !== undefined) {
      operations.push({ kind: 'delete', path: headerPath(text, DELETE) ?? '', hunks: [], patchLine: line.number });
    } else if (headerPath(text, UPDATE) !== undefined) {
      const moveTo = headerPath(markerText(lines[at + 1]).trim(), MOVE);
      const hunks = readHunks(lines, at + (moveTo === undefined ? 1 : 2), issues);
      if (hunks.hunks.length === 0 && moveTo === undefined) {
        issues.push({ patchLine: line.number, message: 'expected a hunk ("@@" or lines starting with " ", "-" or "+") under "*** Update File:"' });
      }
      operations.push({ kind: 'update', path: headerPath(text, UPDATE) ?? '', ...(moveTo !== undefined ? { moveTo } : {}), hunks: hunks.hunks, patchLine: line.number });
      at = hunks.next;
      continue;
    } else if (text.trim() !== '') {
      issues.push({ patchLine: line.number, message: `expected ${FILE_HEADER}, found "${clip(text)}"` });
      return { ok: false, issues };
    }
    at++;
  }
  if (!ended) {
    issues.push({ patchLine: lines.length === 0 ? 1 : lines[lines.length - 1].number, message: `expected "${END}" as the last line of the patch` });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, format: 'v4a', operations };
}

function readAddedLines(lines: readonly PatchLine[], from: number, issues: PatchIssue[]): { lines: string[]; next: number } {
  const added: string[] = [];
  let at = from;
  for (; at < lines.length && !markerText(lines[at]).trim().startsWith('***'); at++) {
    const text = lines[at].text;
    if (text.startsWith('+')) {
      added.push(text.slice(1));
    } else {
      issues.push({ patchLine: lines[at].number, message: 'expected a line starting with "+" in an added file' });
    }
  }
  return { lines: added, next: at };
}

function readHunks(lines: readonly PatchLine[], from: number, issues: PatchIssue[]): { hunks: PatchHunk[]; next: number } {
  const hunks: PatchHunk[] = [];
  let at = from;
  while (at < lines.length && !endsHunks(lines[at])) {
    const start = lines[at];
    const afterLines: string[] = [];
    while (at < lines.length && markerText(lines[at]).startsWith('@@')) {
      const anchor = markerText(lines[at]).slice(2).trim();
      if (anchor !== '') {
        afterLines.push(anchor);
      }
      at++;
    }
    const oldLines: string[] = [];
    const newLines: string[] = [];
    let changed = false;
    let atEnd = false;
    /** Empty lines (without the leading space) at the hunk's end so far: a separator unless more hunk lines follow. */
    let bareEmpty = 0;
    for (; at < lines.length; at++) {
      const text = lines[at].text;
      const marker = markerText(lines[at]);
      if (marker.trim() === END_OF_FILE) {
        atEnd = true;
        at++;
        break;
      }
      if (marker.startsWith('@@') || endsHunks(lines[at])) {
        break;
      }
      const kind = text.charAt(0);
      bareEmpty = marker === '' ? bareEmpty + 1 : 0;
      if (kind === ' ' || marker === '') {
        oldLines.push(text.slice(1));
        newLines.push(text.slice(1));
      } else if (kind === '-') {
        oldLines.push(text.slice(1));
        changed = true;
      } else if (kind === '+') {
        newLines.push(text.slice(1));
        changed = true;
      } else {
        issues.push({ patchLine: lines[at].number, message: `expected a hunk line starting with " ", "-" or "+", "@@", "${END_OF_FILE}" or a "*** " line, found "${clip(text)}"` });
      }
    }
    if (!atEnd && bareEmpty > 0) {
      oldLines.splice(oldLines.length - bareEmpty);
      newLines.splice(newLines.length - bareEmpty);
    }
    if (oldLines.length === 0 && newLines.length === 0 && !atEnd && start !== lines[at]) {
      // "@@" lines with no hunk under them: the hunk is optional (after "*** Move to:", the file moves unchanged).
      continue;
    }
    if (!changed) {
      issues.push({ patchLine: start.number, message: 'expected a hunk with at least one line starting with "-" or "+"' });
      continue;
    }
    hunks.push({
      oldText: joinLines(oldLines),
      newText: joinLines(newLines),
      placement: { patchLine: start.number, finalNewlineOptional: true, ...(afterLines.length > 0 ? { afterLines } : {}), ...(atEnd ? { atEnd } : {}) },
    });
  }
  return { hunks, next: at };
}

/**
 * The path a header line names, or undefined when the line is not that header. The header
 * may end at its colon (its trailing space trimmed away): the path is then empty, which
 * the request refuses as VALIDATION_FAILED.
 */
function headerPath(text: string, header: string): string | undefined {
  if (text === header.trimEnd()) {
    return '';
  }
  return text.startsWith(header) ? cleanPatchPath(text.slice(header.length)) : undefined;
}

/** A line that ends a file's hunks: any "*** " line, or a marker with spaces around it. */
function endsHunks(line: PatchLine): boolean {
  const marker = markerText(line);
  if (marker.startsWith('*** ')) {
    return true;
  }
  const trimmed = marker.trim();
  return trimmed === END || trimmed === END_OF_FILE || [ADD, DELETE, UPDATE, MOVE].some((header) => headerPath(trimmed, header) !== undefined);
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
