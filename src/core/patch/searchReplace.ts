/**
 * SEARCH/REPLACE blocks, as Aider and many local models write them:
 *
 *     path/to/file.ts
 *     ```ts                       optional fence
 *     <<<<<<< SEARCH
 *     exact old lines
 *     =======
 *     new lines
 *     >>>>>>> REPLACE
 *     ```
 *
 * The path is the last line above the block that is neither empty nor a fence; a
 * block right under another one keeps its path. Text between blocks is ignored. The
 * blocks of one path become the hunks of one update, in order; an empty SEARCH
 * creates the file (which must not exist).
 */
import { cleanPatchPath, joinLines, markerText, type PatchHunk, type PatchIssue, type PatchLine, type PatchOperation, type PatchParse } from './patchModel';

const SEARCH = /^<{5,9} SEARCH\s*$/;
const DIVIDER = /^={5,9}\s*$/;
const REPLACE = /^>{5,9} REPLACE\s*$/;
const FENCE = /^\s*(```|~~~)/;

export function isSearchReplace(lines: readonly PatchLine[]): boolean {
  return lines.some((line) => SEARCH.test(markerText(line)));
}

interface Block {
  readonly path: string;
  readonly patchLine: number;
  readonly search: readonly string[];
  readonly replace: readonly string[];
}

export function parseSearchReplace(lines: readonly PatchLine[]): PatchParse {
  const issues: PatchIssue[] = [];
  const blocks: Block[] = [];
  for (let at = 0; at < lines.length; at++) {
    if (!SEARCH.test(markerText(lines[at]))) {
      continue;
    }
    const start = lines[at];
    const path = pathAbove(lines, at, blocks);
    const divider = findLine(lines, at + 1, DIVIDER);
    const end = divider === undefined ? undefined : findLine(lines, divider + 1, REPLACE);
    if (divider === undefined || end === undefined) {
      issues.push({ patchLine: start.number, message: `expected "=======" and then ">>>>>>> REPLACE" to close the block opened here` });
      break;
    }
    if (path === undefined) {
      issues.push({ patchLine: start.number, message: 'expected the file\'s path on its own line above "<<<<<<< SEARCH"' });
    } else {
      const texts = (from: number, to: number): string[] => lines.slice(from, to).map((line) => line.text);
      blocks.push({ path, patchLine: start.number, search: texts(at + 1, divider), replace: texts(divider + 1, end) });
    }
    at = end;
  }
  if (issues.length > 0) {
    return { ok: false, issues };
  }
  return operationsOf(blocks);
}

function operationsOf(blocks: readonly Block[]): PatchParse {
  const issues: PatchIssue[] = [];
  const operations: PatchOperation[] = [];
  const updates = new Map<string, { hunks: PatchHunk[]; patchLine: number }>();
  const added = new Set<string>();
  for (const block of blocks) {
    if (added.has(block.path)) {
      issues.push({ patchLine: block.patchLine, message: `${block.path} is created by an earlier block with an empty SEARCH; put all of its text in that block` });
      continue;
    }
    if (block.search.length === 0) {
      if (updates.has(block.path)) {
        issues.push({ patchLine: block.patchLine, message: `an empty SEARCH creates ${block.path}, but an earlier block edits it; expected the lines to find` });
        continue;
      }
      added.add(block.path);
      operations.push({ kind: 'add', path: block.path, text: joinLines(block.replace), patchLine: block.patchLine });
      continue;
    }
    let update = updates.get(block.path);
    if (!update) {
      update = { hunks: [], patchLine: block.patchLine };
      updates.set(block.path, update);
      operations.push({ kind: 'update', path: block.path, hunks: update.hunks, patchLine: block.patchLine });
    }
    update.hunks.push({ oldText: joinLines(block.search), newText: joinLines(block.replace), placement: { patchLine: block.patchLine, finalNewlineOptional: true } });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, format: 'search-replace', operations };
}

/** The block's path: the last line above it that is not empty or a fence, or the path of the block right above. */
function pathAbove(lines: readonly PatchLine[], at: number, blocks: readonly Block[]): string | undefined {
  for (let above = at - 1; above >= 0; above--) {
    const text = markerText(lines[above]).trim();
    if (text === '' || FENCE.test(text)) {
      continue;
    }
    if (REPLACE.test(text)) {
      return blocks[blocks.length - 1]?.path;
    }
    const path = cleanPatchPath(text.replace(/^`(.*)`:?$/, '$1').replace(/:$/, ''));
    return path === '' ? undefined : path;
  }
  return undefined;
}

function findLine(lines: readonly PatchLine[], from: number, pattern: RegExp): number | undefined {
  for (let at = from; at < lines.length; at++) {
    if (pattern.test(markerText(lines[at]))) {
      return at;
    }
  }
  return undefined;
}
