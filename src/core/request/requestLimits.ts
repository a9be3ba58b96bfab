/**
 * The bounds on one request's size, checked before any file is read: the text it carries
 * (every string in it, a patch's whole text included) and the number of its edits (a
 * patch's hunks count as edits). Past them a request is refused with the limit named,
 * so that no caller can make one call hold a server for minutes.
 */
import type { Limits } from '../contract/limits';
import type { ParsedRequest } from './request';

export const SPLIT_HINT = 'Split the request into several smaller ones: each is applied all or nothing on its own';

/** The first limit the raw input passes: how many characters of text it holds. */
export function inputSizeProblem(input: unknown, limits: Pick<Limits, 'maxRequestChars'>): string | undefined {
  const chars = textCharacters(input, limits.maxRequestChars);
  return chars > limits.maxRequestChars
    ? `the request holds more than ${limits.maxRequestChars} characters of text; the limit is ${limits.maxRequestChars} characters per request: split it into several requests`
    : undefined;
}

/**
 * A patch with more hunks than the limit, told before it is parsed (parsing 200,000 hunks
 * takes seconds in which a server could answer nothing else): the lines that open a hunk
 * are counted in the raw text: "<<<<<<< SEARCH" lines in SEARCH/REPLACE blocks, otherwise
 * "@@ -" headers and "@@" lines followed by a removed or added line. Each opens a hunk of
 * its own, so the count never exceeds the hunks the parse would find, and a patch within
 * the limit always goes on to be parsed.
 */
export function patchHunkCountProblem(input: unknown, limits: Pick<Limits, 'maxEdits'>): string | undefined {
  const patch = typeof input === 'object' && input !== null ? (input as { patch?: unknown }).patch : undefined;
  if (typeof patch !== 'string' || patch.length < limits.maxEdits * MIN_HUNK_CHARS) {
    return undefined;
  }
  const searchReplace = patch.includes('<<<<<<< SEARCH');
  let openers = 0;
  for (let at = patch.indexOf('\n'); at !== -1 && openers <= limits.maxEdits; at = patch.indexOf('\n', at + 1)) {
    if (searchReplace ? patch.startsWith('<<<<<<< SEARCH', at + 1) : opensHunk(patch, at + 1)) {
      openers++;
    }
  }
  return openers > limits.maxEdits
    ? `the patch has more than ${limits.maxEdits} hunks; the limit is ${limits.maxEdits} hunks per request: split it into several requests`
    : undefined;
}

/** The shortest text a hunk takes ("@@\n-\n"): a shorter patch cannot pass the limit. */
const MIN_HUNK_CHARS = 5;

/** Whether the line starting at `at` opens a hunk of a diff: "@@ -", or a "@@" line right before a removed or added line. */
function opensHunk(patch: string, at: number): boolean {
  if (patch.startsWith('@@ -', at)) {
    return true;
  }
  if (!patch.startsWith('@@', at)) {
    return false;
  }
  const next = patch.indexOf('\n', at) + 1;
  const first = next === 0 ? '' : patch.charAt(next);
  return first === '-' || first === '+';
}

export function editCountProblem(request: ParsedRequest, limits: Pick<Limits, 'maxEdits'>): string | undefined {
  const edits = request.files.reduce((sum, file) => sum + file.edits.length, 0);
  const what = request.patch !== undefined ? 'hunks' : 'edits';
  return edits > limits.maxEdits
    ? `the request has ${edits} ${what}; the limit is ${limits.maxEdits} ${what} per request: split it into several requests`
    : undefined;
}

/**
 * The characters of every string (keys included) in a JSON value, walked without
 * recursion (a request nested a million levels deep cannot exhaust the stack); the
 * count stops once it passes `stopAbove`.
 */
function textCharacters(value: unknown, stopAbove: number): number {
  let chars = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && chars <= stopAbove) {
    const next = pending.pop();
    if (typeof next === 'string') {
      chars += next.length;
    } else if (Array.isArray(next)) {
      for (const item of next as unknown[]) {
        pending.push(item);
      }
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, member] of Object.entries(next)) {
        chars += key.length;
        pending.push(member);
      }
    }
  }
  return chars;
}
