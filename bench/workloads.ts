/**
 * The six workloads of the benchmark, each scaled to a target size: the files they
 * edit and the request they send. Every file is plain ASCII source-like text, so a
 * byte is a character and sizes read the same on disk and in memory.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface EditPair {
  readonly old_string: string;
  readonly new_string: string;
  readonly replace_all?: boolean;
}

export interface FileEditsInput {
  readonly file_path: string;
  readonly edits: readonly EditPair[];
}

/** What a run leaves: the expected error code, or none for a success. */
export type Expected = { readonly success: true } | { readonly success: false; readonly errorCode: string };

export interface Workload {
  readonly id: WorkloadId;
  readonly label: string;
  readonly bytes: number;
  /** The files and their original text; a run that writes is undone by writing these back. */
  readonly files: ReadonlyMap<string, string>;
  readonly request: { readonly files: readonly FileEditsInput[]; readonly dryRun: boolean };
  readonly expected: Expected;
  /** Whether a successful run changes the files (false for failures and dry runs). */
  readonly writes: boolean;
}

export const WORKLOAD_IDS = ['edits200', 'ambiguous', 'notFound', 'replaceAll', 'multiFile', 'dryRunDiff'] as const;
export type WorkloadId = (typeof WORKLOAD_IDS)[number];

export const WORKLOAD_LABELS: Record<WorkloadId, string> = {
  edits200: '200 unique edits',
  ambiguous: 'ambiguous old_string (100,000 matches per 10 MB)',
  notFound: 'not found, longest prefix near the end',
  replaceAll: 'replace_all of a token on every line',
  multiFile: 'multi-file: files of 50 KB, one edit each',
  dryRunDiff: 'dry run with diffs, 200 edits',
};

const MULTI_FILE_BYTES = 50 * 1024;
/** The ambiguous workload has this many matches per 10 MB. */
const MATCHES_PER_10_MB = 100_000;
const TEN_MB = 10 * 1024 * 1024;

function sourceLine(index: number): string {
  return `  const value${index} = compute(${index}, "item-${index}"); // line ${index}`;
}

/** Source-like lines whose total size (with newlines) reaches `bytes`. */
export function sourceLines(bytes: number): string[] {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index++) {
    const line = sourceLine(index);
    lines.push(line);
    size += line.length + 1;
  }
  return lines;
}

/** An edit the syntax gate must parse: it adds an argument to a call, where a rename of words is settled by reading them. */
export const withArgument = (line: string): string => line.replace('compute(', 'compute(0, ');
const renamed = (line: string): string => line.replace('compute(', 'recompute(');

/** `count` edits of whole lines spread evenly through the file, each unique by its line number. */
function spreadEdits(lines: readonly string[], count: number): EditPair[] {
  return Array.from({ length: count }, (_, index) => {
    const line = lines[Math.floor(((index + 0.5) * lines.length) / count)];
    return { old_string: line, new_string: renamed(line) };
  });
}

/** Lines of equal length, each holding "retry();" once, so the matches scale with the size. */
function ambiguousText(bytes: number): string {
  const matches = Math.max(2, Math.round((MATCHES_PER_10_MB * bytes) / TEN_MB));
  const lineBytes = Math.floor(bytes / matches);
  const lines = Array.from({ length: matches }, (_, index) => {
    return `if (attempt${index} > limit) { retry(); } //`.padEnd(lineBytes - 1, ' pad');
  });
  return `${lines.join('\n')}\n`;
}

/**
 * `count` files of 50 KB under `folder`, added to `files`, and the request that makes
 * one edit in the middle of each.
 */
function multiFileRequest(count: number, folder: string, files: Map<string, string>, edit: (line: string) => string = renamed): Workload['request'] {
  const lines = sourceLines(MULTI_FILE_BYTES);
  const middle = lines[lines.length >> 1];
  const entries: FileEditsInput[] = [];
  for (let index = 0; index < count; index++) {
    const path = join(folder, `file${String(index).padStart(4, '0')}.ts`);
    files.set(path, `// file ${index}\n${lines.join('\n')}\n`);
    entries.push({ file_path: path, edits: [{ old_string: middle, new_string: edit(middle) }] });
  }
  return { files: entries, dryRun: false };
}

/**
 * The multi-file workload with exactly `count` files of 50 KB, written under `directory`; its
 * edits rename a word, or with `gateParses` add an argument, which the syntax gate parses.
 */
export async function multiFileWorkload(count: number, directory: string, gateParses = false): Promise<Workload> {
  const folder = join(directory, `multiFile-${count}-files${gateParses ? '-parsed' : ''}`);
  await mkdir(folder, { recursive: true });
  const files = new Map<string, string>();
  const request = multiFileRequest(count, folder, files, gateParses ? withArgument : renamed);
  return finishWorkload('multiFile', files, request, { success: true });
}

/** Builds a workload of `bytes` under `directory` and writes its files. */
export async function createWorkload(id: WorkloadId, bytes: number, directory: string): Promise<Workload> {
  const folder = join(directory, `${id}-${bytes}`);
  await mkdir(folder, { recursive: true });
  const files = new Map<string, string>();
  const single = (text: string): string => {
    const path = join(folder, 'file.ts');
    files.set(path, text);
    return path;
  };
  let request: Workload['request'];
  let expected: Expected = { success: true };
  switch (id) {
    case 'edits200':
    case 'dryRunDiff': {
      const lines = sourceLines(bytes);
      const path = single(`${lines.join('\n')}\n`);
      request = { files: [{ file_path: path, edits: spreadEdits(lines, 200) }], dryRun: id === 'dryRunDiff' };
      break;
    }
    case 'ambiguous': {
      const path = single(ambiguousText(bytes));
      request = { files: [{ file_path: path, edits: [{ old_string: 'retry();', new_string: 'retryOnce();' }] }], dryRun: false };
      expected = { success: false, errorCode: 'AMBIGUOUS_MATCH' };
      break;
    }
    case 'notFound': {
      const lines = sourceLines(bytes);
      const near = lines.length - 5;
      // Three lines that are in the file, then a fourth whose end differs: the longest prefix is near the end.
      const oldString = [...lines.slice(near - 3, near), `${lines[near]} // changed`].join('\n');
      const path = single(`${lines.join('\n')}\n`);
      request = { files: [{ file_path: path, edits: [{ old_string: oldString, new_string: 'replacement' }] }], dryRun: false };
      expected = { success: false, errorCode: 'MATCH_NOT_FOUND' };
      break;
    }
    case 'replaceAll': {
      const lines = sourceLines(bytes);
      const path = single(`${lines.join('\n')}\n`);
      request = { files: [{ file_path: path, edits: [{ old_string: 'compute(', new_string: 'evaluate(', replace_all: true }] }], dryRun: false };
      break;
    }
    case 'multiFile': {
      request = multiFileRequest(Math.max(1, Math.round(bytes / MULTI_FILE_BYTES)), folder, files);
      break;
    }
  }
  return finishWorkload(id, files, request, expected);
}

async function finishWorkload(id: WorkloadId, files: Map<string, string>, request: Workload['request'], expected: Expected): Promise<Workload> {
  await restoreFiles(files);
  return {
    id,
    label: WORKLOAD_LABELS[id],
    bytes: [...files.values()].reduce((sum, text) => sum + text.length, 0),
    files,
    request,
    expected,
    writes: expected.success && !request.dryRun,
  };
}

export async function restoreFiles(files: ReadonlyMap<string, string>): Promise<void> {
  for (const [path, text] of files) {
    await writeFile(path, text, 'utf8');
  }
}

/** The request as the tools take it: multi_edit for one file, multi_edit_files for several. */
export function toolRequest(workload: Workload): { tool: 'multi_edit' | 'multi_edit_files'; input: Record<string, unknown> } {
  const { files, dryRun } = workload.request;
  if (files.length === 1) {
    return { tool: 'multi_edit', input: { file_path: files[0].file_path, edits: files[0].edits, ...(dryRun ? { dry_run: true } : {}) } };
  }
  return { tool: 'multi_edit_files', input: { files, ...(dryRun ? { dry_run: true } : {}) } };
}

/** The text each file should hold after the request, by plain sequential replacement. */
export function expectedTexts(workload: Workload): Map<string, string> {
  const result = new Map<string, string>();
  for (const file of workload.request.files) {
    let text = workload.files.get(file.file_path) as string;
    for (const edit of file.edits) {
      text = edit.replace_all ? text.split(edit.old_string).join(edit.new_string) : text.replace(edit.old_string, () => edit.new_string);
    }
    result.set(file.file_path, text);
  }
  return result;
}
