/**
 * The right text sent for the wrong file: an old_string that does not occur in its
 * file but occurs verbatim in another file of the request, or in a sibling file of
 * the same directory with the same extension. The answer is a fact (which file,
 * which line); the work is bounded by the counts below.
 */
import type { EngineContext } from './engineContext';
import { findingKey, type ElsewhereFindings, type FileFailure } from '../plan/filePlan';
import { LineIndex } from '../text/lineIndex';
import { splitPath } from '../nearMiss/nearbyNames';
import type { Diagnosis } from '../contract/schemas';

/** A file whose text the search may look in. */
export interface KnownText {
  readonly path: string;
  readonly text: string;
}

/** Failed edits looked up elsewhere at most, and other files looked in per edit. */
const MAX_EDITS_LOOKED_UP = 8;
const MAX_FILES_PER_EDIT = 16;
/** Sibling files read at most per directory, and their size limit. */
const MAX_SIBLINGS_READ = 16;
const MAX_SIBLING_BYTES = 1024 * 1024;
/** A shorter old_string occurs in many files by chance and says nothing about which one was meant. */
const MIN_MEANINGFUL_CHARS = 8;

export async function findElsewhere(
  failures: readonly FileFailure[], oldStrings: (fileIndex: number, editIndex: number) => string | undefined,
  requestTexts: readonly KnownText[], context: EngineContext,
): Promise<ElsewhereFindings> {
  const findings = new Map<string, Diagnosis>();
  const siblingsOf = new Map<string, Promise<KnownText[]>>();
  let looked = 0;
  for (const failure of failures) {
    for (const problem of failure.problems) {
      const oldString = problem.code === 'MATCH_NOT_FOUND' ? oldStrings(failure.fileIndex, problem.editIndex) : undefined;
      if (oldString === undefined || oldString.trim().length < MIN_MEANINGFUL_CHARS || looked >= MAX_EDITS_LOOKED_UP) {
        continue;
      }
      looked++;
      const directory = splitPath(failure.filePath)?.directory;
      if (directory !== undefined && !siblingsOf.has(directory)) {
        siblingsOf.set(directory, siblingTexts(failure.filePath, directory, requestTexts, context));
      }
      const siblings = directory === undefined ? [] : await (siblingsOf.get(directory) ?? Promise.resolve([]));
      const others = [...requestTexts, ...siblings].filter((other) => other.path !== failure.filePath).slice(0, MAX_FILES_PER_EDIT);
      const found = firstHolding(others, oldString);
      if (found) {
        findings.set(findingKey(failure.fileIndex, problem.editIndex), inOtherFile(found.file, found.offset, oldString, context));
      }
    }
  }
  return findings;
}

function firstHolding(files: readonly KnownText[], oldString: string): { file: KnownText; offset: number } | undefined {
  for (const file of files) {
    const offset = file.text.indexOf(oldString);
    if (offset !== -1) {
      return { file, offset };
    }
  }
  return undefined;
}

function inOtherFile(file: KnownText, offset: number, oldString: string, context: EngineContext): Diagnosis {
  const { line, column } = LineIndex.of(file.text).position(offset);
  const count = file.text.split(oldString).length - 1;
  const where = `${context.displayPath(file.path)} at line ${line}, column ${column}`;
  return {
    kind: 'IN_OTHER_FILE',
    detail: `old_string does not occur in this file, but occurs verbatim in ${where}${count > 1 ? ` (${count} times there)` : ''}: the edit was probably meant for that file`,
    other_file: file.path,
    line, column, occurrences: count,
  };
}

/** The files next to a failing file with its extension, not in the request, small enough to read. */
async function siblingTexts(filePath: string, directory: string, requestTexts: readonly KnownText[], context: EngineContext): Promise<KnownText[]> {
  const listed = context.store.listNames ? await context.store.listNames(directory) : undefined;
  const name = splitPath(filePath)?.name ?? '';
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.')) : '';
  if (!listed?.ok || extension === '') {
    return [];
  }
  const separator = directory.endsWith('/') ? '' : '/';
  const inRequest = new Set(requestTexts.map((known) => known.path));
  const candidates = listed.value.filter((entry) => entry !== name && entry.endsWith(extension)).map((entry) => `${directory}${separator}${entry}`).filter((path) => !inRequest.has(path)).slice(0, MAX_SIBLINGS_READ);
  const texts: KnownText[] = [];
  for (const path of candidates) {
    const check = await context.checkPath(path);
    const stat = check.ok ? await context.store.stat(check.path) : undefined;
    if (!check.ok || !stat?.ok || stat.value.kind !== 'file' || stat.value.size > MAX_SIBLING_BYTES) {
      continue;
    }
    const read = await context.store.read(check.path, MAX_SIBLING_BYTES);
    if (read.ok) {
      texts.push({ path: check.path, text: read.value.text });
    }
  }
  return texts;
}
