/**
 * Runs every recovery fixture through a tool and a reader: the agent's mistaken
 * request first, then whatever the reader builds from the reply, for at most five
 * rounds (a request, a re-read and a directory listing each count as one). The
 * outcome of each run is compared with the intended result, which only the harness
 * knows: a success that leaves other text than intended is a wrong edit.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type InsideIndentationPolicy, runRequest } from '../../src/core/index';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import type { AgentKnowledge, EditPair, Envelope, Observations, Reader, Request, ToolReply } from './readers';

export const MAX_ROUNDS = 5;

export const FIXTURES_DIR = resolve(__dirname, '../../../bench/recovery/fixtures');

/** One file of a request: the file as stored, what the agent sent for it and what it meant. */
export interface FileCase {
  /** The file's path under the fixture's directory (it may name a subdirectory). */
  readonly file: string;
  /** The name the agent sent, when it mistyped the path. */
  readonly sent_file?: string;
  /** 'backslashes': the agent wrote the whole path with backslashes, as on Windows. */
  readonly sent_path_style?: 'backslashes';
  /** Line endings the stored file gets: all CRLF, or CRLF on a 1-based inclusive range of lines. */
  readonly eol?: 'crlf' | { readonly crlf_lines: readonly [number, number] };
  readonly bom?: boolean;
  /** Edits someone else made after the agent read the file (a stale read). */
  readonly changed_on_disk?: readonly EditPair[];
  /** The edits that give the intended result, exact against the file on disk. */
  readonly intended: readonly EditPair[];
  /** The request the agent sent. */
  readonly sent: readonly EditPair[];
}

export interface Fixture extends FileCase {
  readonly id: string;
  readonly class: string;
  readonly title: string;
  /** The public report the class comes from. */
  readonly source?: string;
  /**
   * 'held-out': written before the changes it measures, and never tuned on. 'earlier-held-out':
   * held out in an earlier round of changes, and part of the tuned set since.
   */
  readonly split?: Split;
  /** Further files of the same request (a multi_edit_files request). */
  readonly also?: readonly FileCase[];
  /** Files of the same directory that the request does not name; they must stay as they are. */
  readonly siblings?: readonly string[];
  readonly knows?: AgentKnowledge;
}

export type Split = 'held-out' | 'earlier-held-out';

/** The files a fixture's request names, in order. */
export function fileCases(fixture: Fixture): FileCase[] {
  return [fixture, ...(fixture.also ?? [])];
}

export type Outcome = 'converged' | 'wrong edit' | 'gave up' | 'dropped edit' | 'out of rounds';

export interface RunResult {
  readonly fixture: string;
  readonly outcome: Outcome;
  /** Rounds used, the first request included. */
  readonly rounds: number;
  readonly note?: string;
}

export type Tool = (request: Request) => Promise<ToolReply>;

export function multiEditTool(insideIndentation: InsideIndentationPolicy): Tool {
  const store = new NodeFileStore();
  return async (request) => {
    const [tool, input] = request.files.length === 1 ? ['multi_edit', request.files[0]] : ['multi_edit_files', request];
    const { response } = await runRequest(tool, input, { store, limits: { insideIndentation } });
    return response.success
      ? { success: true, message: response.summary }
      : { success: false, message: response.message, envelope: response as unknown as Envelope };
  };
}

interface PeerLib {
  applyFileEdits(filePath: string, edits: { oldText: string; newText: string }[], dryRun?: boolean): Promise<string>;
}

/** applyFileEdits of @modelcontextprotocol/server-filesystem: its message is the only reply it has. */
export async function peerTool(): Promise<Tool> {
  const specifier = '@modelcontextprotocol/server-filesystem/dist/lib.js';
  const lib = (await import(specifier)) as PeerLib;
  // One file after the other, as the peer has no multi-file request: a later failure leaves earlier files written.
  return async (request) => {
    const diffs: string[] = [];
    for (const file of request.files) {
      try {
        diffs.push(await lib.applyFileEdits(file.file_path, file.edits.map((edit) => ({ oldText: edit.old_string, newText: edit.new_string }))));
      } catch (error) {
        return { success: false, message: error instanceof Error ? error.message : String(error) };
      }
    }
    return { success: true, message: diffs.join('\n') };
  };
}

export async function loadFixtures(): Promise<Fixture[]> {
  const ids = (await readdir(FIXTURES_DIR)).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return Promise.all(ids.map(async (id) => ({ id, ...JSON.parse(await readFile(join(FIXTURES_DIR, id, 'fixture.json'), 'utf8')) }) as Fixture));
}

/** The stored file with the fixture's line endings and BOM. */
export function asStored(fixture: FileCase, text: string): string {
  let stored = text;
  if (fixture.eol === 'crlf') {
    stored = stored.replace(/\n/g, '\r\n');
  } else if (fixture.eol) {
    const [from, to] = fixture.eol.crlf_lines;
    stored = stored.split('\n').map((line, at) => (at + 1 >= from && at + 1 <= to ? `${line}\r` : line)).join('\n');
  }
  return fixture.bom ? `\ufeff${stored}` : stored;
}

/** Exact, unique replacement: the harness's own way to the intended text. */
function applyExactly(text: string, edits: readonly EditPair[], what: string): string {
  let current = text;
  for (const edit of edits) {
    const first = current.indexOf(edit.old_string);
    if (first === -1 || current.indexOf(edit.old_string, first + 1) !== -1) {
      throw new Error(`${what}: "${edit.old_string.slice(0, 40)}" does not occur exactly once`);
    }
    current = current.slice(0, first) + edit.new_string + current.slice(first + edit.old_string.length);
  }
  return current;
}

export interface PreparedFile {
  readonly file: string;
  readonly onDisk: string;
  readonly intended: string;
}

export interface PreparedFixture {
  /** The request's files, in order; the first is the fixture's own file. */
  readonly files: readonly PreparedFile[];
  /** Sibling files: on disk, and unchanged when the request is done. */
  readonly siblings: readonly { readonly file: string; readonly text: string }[];
  /** The first file's texts, as most fixtures have only it. */
  readonly onDisk: string;
  readonly intended: string;
}

async function fixtureText(fixture: Fixture, file: string): Promise<string> {
  return readFile(join(FIXTURES_DIR, fixture.id, file), 'utf8');
}

export async function prepare(fixture: Fixture): Promise<PreparedFixture> {
  const files = await Promise.all(fileCases(fixture).map(async (one) => {
    const read = asStored(one, await fixtureText(fixture, one.file));
    const onDisk = applyExactly(read, one.changed_on_disk ?? [], `${fixture.id} ${one.file} changed_on_disk`);
    return { file: one.file, onDisk, intended: applyExactly(onDisk, one.intended, `${fixture.id} ${one.file} intended`) };
  }));
  const siblings = await Promise.all((fixture.siblings ?? []).map(async (file) => ({ file, text: await fixtureText(fixture, file) })));
  return { files, siblings, onDisk: files[0].onDisk, intended: files[0].intended };
}

/** The path the agent sent for a file of the request. */
function sentPath(directory: string, one: FileCase): string {
  const path = join(directory, one.sent_file ?? one.file);
  return one.sent_path_style === 'backslashes' ? path.replace(/\//g, '\\') : path;
}

export async function runFixture(fixture: Fixture, tool: Tool, reader: Reader): Promise<RunResult> {
  const prepared = await prepare(fixture);
  const directory = await mkdtemp(join(tmpdir(), 'recovery-'));
  const result = (outcome: Outcome, rounds: number, note?: string): RunResult => ({ fixture: fixture.id, outcome, rounds, ...(note ? { note } : {}) });
  const stored = [...prepared.files.map((file) => ({ file: file.file, text: file.onDisk })), ...prepared.siblings];
  /** Every file as the fixture means it to end: the request's files as intended, the siblings untouched. */
  const asIntended = async (): Promise<boolean> => {
    const expected = [...prepared.files.map((file) => ({ file: file.file, text: file.intended })), ...prepared.siblings];
    const now = await Promise.all(expected.map((file) => readFile(join(directory, file.file), 'utf8')));
    return expected.every((file, at) => now[at] === file.text);
  };
  try {
    for (const file of stored) {
      await mkdir(dirname(join(directory, file.file)), { recursive: true });
      await writeFile(join(directory, file.file), file.text);
    }
    const knows = fixture.knows ?? {};
    let request: Request = { files: fileCases(fixture).map((one) => ({ file_path: sentPath(directory, one), edits: one.sent.map((edit) => ({ ...edit })) })) };
    let seen: Observations = {};
    let reply = await tool(request);
    for (let rounds = 1; ; ) {
      if (reply.success) {
        return (await asIntended()) ? result('converged', rounds) : result('wrong edit', rounds, 'a success left other text than intended');
      }
      if (rounds >= MAX_ROUNDS) {
        return result('out of rounds', rounds);
      }
      const step = reader.next(request, reply, knows, seen);
      rounds++;
      if (step.kind === 'give_up') {
        return result('gave up', rounds - 1, step.why);
      }
      if (step.kind === 'done') {
        return (await asIntended()) ? result('converged', rounds - 1) : result('dropped edit', rounds - 1, 'the reader dropped an edit that was never applied');
      }
      if (step.kind === 'read') {
        const texts = new Map(seen.fileTexts);
        for (const path of step.paths) {
          const text = await readFile(path, 'utf8').catch(() => undefined);
          if (text !== undefined) {
            texts.set(path, text);
          }
        }
        seen = { ...seen, fileTexts: texts };
        continue;
      }
      if (step.kind === 'list') {
        const names = new Map(seen.names);
        for (const listed of step.directories) {
          names.set(listed, await readdir(listed).catch(() => []));
        }
        seen = { ...seen, names };
        continue;
      }
      request = step.request;
      reply = await tool(request);
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export interface Column {
  readonly label: string;
  readonly tool: Tool;
  readonly reader: Reader;
}

export interface ColumnSummary {
  readonly label: string;
  readonly results: readonly RunResult[];
  /** Fixtures that converged within 2 rounds, and within 5. */
  readonly withinTwo: number;
  readonly converged: number;
  readonly wrong: number;
  readonly dropped: number;
  readonly gaveUp: number;
}

export function summarize(label: string, results: readonly RunResult[]): ColumnSummary {
  const count = (predicate: (result: RunResult) => boolean): number => results.filter(predicate).length;
  return {
    label,
    results,
    withinTwo: count((r) => r.outcome === 'converged' && r.rounds <= 2),
    converged: count((r) => r.outcome === 'converged'),
    wrong: count((r) => r.outcome === 'wrong edit'),
    dropped: count((r) => r.outcome === 'dropped edit'),
    gaveUp: count((r) => r.outcome === 'gave up' || r.outcome === 'out of rounds'),
  };
}

export async function runColumns(fixtures: readonly Fixture[], columns: readonly Column[]): Promise<ColumnSummary[]> {
  const summaries: ColumnSummary[] = [];
  for (const column of columns) {
    const results: RunResult[] = [];
    for (const fixture of fixtures) {
      results.push(await runFixture(fixture, column.tool, column.reader));
    }
    summaries.push(summarize(column.label, results));
  }
  return summaries;
}
