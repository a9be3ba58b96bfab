/**
 * Unified diffs as `git diff` and `diff -u` write them: optional `diff --git`
 * headers with their extended lines (new/deleted file mode, rename from/to), then
 * `---`/`+++` and `@@ -l,n +l,n @@` hunks, `\ No newline at end of file`, and
 * /dev/null for an added or deleted file.
 *
 * Paths: a git diff's a/ and b/ prefixes are removed; in a plain diff, when both
 * names start with a different first folder (old/x and new/x), that folder is removed.
 */
import { cleanPatchPath, joinLines, markerText, type PatchHunk, type PatchIssue, type PatchLine, type PatchOperation, type PatchParse } from './patchModel';

const DEV_NULL = '/dev/null';
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const NO_NEWLINE = '\\';

export function isUnifiedDiff(lines: readonly PatchLine[]): boolean {
  return lines.some((line, index) => {
    const text = markerText(line);
    return text.startsWith('diff --git ') || (text.startsWith('--- ') && markerText(lines[index + 1]).startsWith('+++ '));
  });
}

interface GitHeader {
  newFile: boolean;
  deletedFile: boolean;
  renameFrom?: string;
  renameTo?: string;
  /** From the `diff --git a/x b/x` line, when both names are the same. */
  name?: string;
}

export function parseUnifiedDiff(lines: readonly PatchLine[]): PatchParse {
  const issues: PatchIssue[] = [];
  const operations: PatchOperation[] = [];
  let at = 0;
  while (at < lines.length) {
    const text = markerText(lines[at]);
    const isGit = text.startsWith('diff --git ');
    const isPlain = text.startsWith('--- ') && markerText(lines[at + 1]).startsWith('+++ ');
    if (!isGit && !isPlain) {
      at++;
      continue;
    }
    const start = lines[at];
    const header: GitHeader = { newFile: false, deletedFile: false };
    if (isGit) {
      at = readGitHeader(lines, at, header, issues);
    }
    let oldName: string | undefined;
    let newName: string | undefined;
    const strip = isGit || hasGitPrefixes(markerText(lines[at]), markerText(lines[at + 1])) ? stripGitPrefix : (name: string) => name;
    if (markerText(lines[at]).startsWith('--- ') && markerText(lines[at + 1]).startsWith('+++ ')) {
      oldName = fileName(markerText(lines[at]).slice(4));
      newName = fileName(markerText(lines[at + 1]).slice(4));
      if (!isGit && strip !== stripGitPrefix) {
        [oldName, newName] = withoutDifferentFirstFolder(oldName, newName);
      }
      at += 2;
    }
    const hunks = readHunks(lines, at, issues);
    at = hunks.next;
    const operation = fileOperation(header, oldName === undefined ? undefined : strip(oldName), newName === undefined ? undefined : strip(newName), hunks.hunks, start, issues);
    if (operation) {
      operations.push(operation);
    }
  }
  if (operations.length === 0 && issues.length === 0) {
    issues.push({ patchLine: 1, message: 'expected a file in the diff: a "diff --git" line, or "---" and "+++" lines, then "@@" hunks' });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, format: 'unified', operations };
}

function readGitHeader(lines: readonly PatchLine[], from: number, header: GitHeader, issues: PatchIssue[]): number {
  const names = markerText(lines[from]).slice('diff --git '.length);
  const half = (names.length - 1) / 2;
  if (Number.isInteger(half) && names.charAt(half) === ' ' && stripGitPrefix(names.slice(0, half)) === stripGitPrefix(names.slice(half + 1))) {
    header.name = stripGitPrefix(unquote(names.slice(0, half)));
  }
  let at = from + 1;
  for (; at < lines.length; at++) {
    const text = markerText(lines[at]);
    if (text.startsWith('--- ') || text.startsWith('@@ ') || text.startsWith('diff --git ')) {
      break;
    }
    if (text.startsWith('new file mode')) {
      header.newFile = true;
    } else if (text.startsWith('deleted file mode')) {
      header.deletedFile = true;
    } else if (text.startsWith('rename from ')) {
      header.renameFrom = unquote(text.slice('rename from '.length));
    } else if (text.startsWith('rename to ')) {
      header.renameTo = unquote(text.slice('rename to '.length));
    } else if (text.startsWith('copy from ') || text.startsWith('copy to ')) {
      issues.push({ patchLine: lines[at].number, message: 'a copy is not supported; add the new file with its whole text instead' });
    } else if (text.startsWith('Binary files ') || text === 'GIT binary patch') {
      issues.push({ patchLine: lines[at].number, message: 'a binary change is not supported: only text files can be patched' });
    }
  }
  return at;
}

function readHunks(lines: readonly PatchLine[], from: number, issues: PatchIssue[]): { hunks: PatchHunk[]; next: number } {
  const hunks: PatchHunk[] = [];
  let at = from;
  while (at < lines.length && markerText(lines[at]).startsWith('@@')) {
    const start = lines[at];
    const match = HUNK_HEADER.exec(markerText(start));
    if (!match) {
      issues.push({ patchLine: start.number, message: 'expected a hunk header "@@ -<line>,<count> +<line>,<count> @@"' });
      return { hunks, next: lines.length };
    }
    const oldStart = Number(match[1]);
    const oldCount = match[2] === undefined ? 1 : Number(match[2]);
    const newStart = Number(match[3]);
    const newCount = match[4] === undefined ? 1 : Number(match[4]);
    const oldLines: string[] = [];
    const newLines: string[] = [];
    let oldNewline = true;
    let newNewline = true;
    let leading = 0;
    let trailing = 0;
    let changed = false;
    let last: 'both' | 'old' | 'new' | undefined;
    at++;
    while (at < lines.length && (oldLines.length < oldCount || newLines.length < newCount || lines[at].text.startsWith(NO_NEWLINE))) {
      const text = lines[at].text;
      const kind = text.charAt(0);
      if (kind === NO_NEWLINE) {
        if (last === 'both' || last === 'old') {
          oldNewline = false;
        }
        if (last === 'both' || last === 'new') {
          newNewline = false;
        }
      } else if (kind === ' ' || text === '' || text === '\r') {
        oldLines.push(text.slice(1));
        newLines.push(text.slice(1));
        last = 'both';
        if (changed) {
          trailing++;
        } else {
          leading++;
        }
      } else if (kind === '-' || kind === '+') {
        (kind === '-' ? oldLines : newLines).push(text.slice(1));
        last = kind === '-' ? 'old' : 'new';
        changed = true;
        trailing = 0;
      } else {
        break;
      }
      at++;
    }
    if (oldLines.length !== oldCount || newLines.length !== newCount) {
      const where = at < lines.length ? lines[at].number : start.number;
      issues.push({
        patchLine: where,
        message: `the hunk header at line ${start.number} announces ${oldCount} old and ${newCount} new lines, but ${oldLines.length} old and ${newLines.length} new lines follow; expected lines starting with " ", "-" or "+"`,
      });
      return { hunks, next: lines.length };
    }
    hunks.push({
      oldText: joinLines(oldLines, oldNewline),
      newText: joinLines(newLines, newNewline),
      placement: {
        patchLine: start.number,
        nearLine: newCount > 0 ? newStart - 1 : newStart,
        ...(oldStart <= 1 ? { atStart: true } : {}),
        // Like git apply: a hunk whose change reaches its last line, with context above it, ends the file.
        ...(trailing === 0 && leading > 0 ? { atEnd: true } : {}),
      },
    });
  }
  return { hunks, next: at };
}

function fileOperation(
  header: GitHeader, oldName: string | undefined, newName: string | undefined, hunks: readonly PatchHunk[], start: PatchLine, issues: PatchIssue[],
): PatchOperation | undefined {
  const from = header.renameFrom ?? (oldName === DEV_NULL ? undefined : oldName) ?? header.name;
  const to = header.renameTo ?? (newName === DEV_NULL ? undefined : newName) ?? header.name;
  const patchLine = start.number;
  if (header.newFile || oldName === DEV_NULL) {
    if (to === undefined) {
      issues.push({ patchLine, message: 'expected the added file\'s name on the "+++" line' });
      return undefined;
    }
    if (hunks.length > 1) {
      issues.push({ patchLine, message: 'expected one hunk for an added file' });
    }
    return { kind: 'add', path: cleanPatchPath(to), text: hunks[0]?.newText ?? '', patchLine };
  }
  if (header.deletedFile || newName === DEV_NULL) {
    if (from === undefined) {
      issues.push({ patchLine, message: 'expected the deleted file\'s name on the "---" line' });
      return undefined;
    }
    return { kind: 'delete', path: cleanPatchPath(from), hunks, patchLine };
  }
  if (from === undefined || to === undefined) {
    issues.push({ patchLine, message: 'expected the file\'s name on "---" and "+++" lines' });
    return undefined;
  }
  const moved = cleanPatchPath(from) !== cleanPatchPath(to);
  if (hunks.length === 0 && !moved) {
    // A change of mode only: nothing to do to the text.
    return undefined;
  }
  return { kind: 'update', path: cleanPatchPath(from), ...(moved ? { moveTo: cleanPatchPath(to) } : {}), hunks, patchLine };
}

/** The name on a "---" or "+++" line: unquoted, without the date diff -u writes after a tab. */
function fileName(field: string): string {
  const name = field.startsWith('"') ? field : field.split('\t')[0];
  return unquote(name.trimEnd());
}

/** "--- a/x" and "+++ b/x" (either may be /dev/null): git's prefixes, in a diff without a "diff --git" line. */
function hasGitPrefixes(oldLine: string, newLine: string): boolean {
  const oldName = oldLine.startsWith('--- ') ? fileName(oldLine.slice(4)) : '';
  const newName = newLine.startsWith('+++ ') ? fileName(newLine.slice(4)) : '';
  return (oldName === DEV_NULL || oldName.startsWith('a/')) && (newName === DEV_NULL || newName.startsWith('b/')) && oldName !== newName;
}

function stripGitPrefix(name: string): string {
  return name === DEV_NULL ? name : name.replace(/^[ab]\//, '');
}

function withoutDifferentFirstFolder(oldName: string, newName: string): [string, string] {
  const oldSlash = oldName.indexOf('/');
  const newSlash = newName.indexOf('/');
  if (oldName === DEV_NULL || newName === DEV_NULL || oldSlash <= 0 || newSlash <= 0 || oldName.slice(0, oldSlash) === newName.slice(0, newSlash)) {
    return [oldName, newName];
  }
  return [oldName.slice(oldSlash + 1), newName.slice(newSlash + 1)];
}

/** A name git quoted (C style, with octal bytes for non-ASCII characters), as text. */
function unquote(name: string): string {
  if (!name.startsWith('"') || !name.endsWith('"') || name.length < 2) {
    return name;
  }
  const bytes: number[] = [];
  const body = name.slice(1, -1);
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  for (let index = 0; index < body.length; index++) {
    const char = String.fromCodePoint(body.codePointAt(index) ?? 0);
    if (char !== '\\') {
      bytes.push(...utf8Bytes(char));
      index += char.length - 1;
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(index + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      index += 3;
    } else {
      bytes.push(escapes[body.charAt(index + 1)] ?? body.charCodeAt(index + 1));
      index++;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function utf8Bytes(char: string): number[] {
  return [...new TextEncoder().encode(char)];
}
