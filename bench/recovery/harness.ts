/**
 * Runs every recovery fixture through a tool and a reader: the agent's mistaken
 * request first, then whatever the reader builds from the reply, for at most five
 * rounds (a request, a re-read and a directory listing each count as one). The
 * outcome of each run is compared with the intended result, which only the harness
 * knows: a success that leaves other text than intended is a wrong edit.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type InsideIndentationPolicy, runRequest } from '../../src/core/index';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import type { AgentKnowledge, EditPair, EditRequest, Envelope, Observations, Reader, ToolReply } from './readers';

export const MAX_ROUNDS = 5;

export const FIXTURES_DIR = resolve(__dirname, '../../../bench/recovery/fixtures');

export interface Fixture {
  readonly id: string;
  readonly class: string;
  readonly title: string;
  /** The file's name in its directory, as the fixture stores it. */
  readonly file: string;
  /** The name the agent sent, when it mistyped the path. */
  readonly sent_file?: string;
  /** Line endings the stored file gets: all CRLF, or CRLF on a 1-based inclusive range of lines. */
  readonly eol?: 'crlf' | { readonly crlf_lines: readonly [number, number] };
  readonly bom?: boolean;
  /** Edits someone else made after the agent read the file (a stale read). */
  readonly changed_on_disk?: readonly EditPair[];
  /** The edits that give the intended result, exact against the file on disk. */
  readonly intended: readonly EditPair[];
  /** The request the agent sent. */
  readonly sent: readonly EditPair[];
  readonly knows?: AgentKnowledge;
}

export type Outcome = 'converged' | 'wrong edit' | 'gave up' | 'dropped edit' | 'out of rounds';

export interface RunResult {
  readonly fixture: string;
  readonly outcome: Outcome;
  /** Rounds used, the first request included. */
  readonly rounds: number;
  readonly note?: string;
}

export type Tool = (path: string, request: EditRequest) => Promise<ToolReply>;

export function multiEditTool(insideIndentation: InsideIndentationPolicy): Tool {
  const store = new NodeFileStore();
  return async (_path, request) => {
    const { response } = await runRequest('multi_edit', request, { store, limits: { insideIndentation } });
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
  return async (_path, request) => {
    try {
      const diff = await lib.applyFileEdits(request.file_path, request.edits.map((edit) => ({ oldText: edit.old_string, newText: edit.new_string })));
      return { success: true, message: diff };
    } catch (error) {
      return { success: false, message: error instanceof Error ? error.message : String(error) };
    }
  };
}

export async function loadFixtures(): Promise<Fixture[]> {
  const ids = (await readdir(FIXTURES_DIR)).sort();
  return Promise.all(ids.map(async (id) => ({ id, ...JSON.parse(await readFile(join(FIXTURES_DIR, id, 'fixture.json'), 'utf8')) }) as Fixture));
}

/** The stored file with the fixture's line endings and BOM. */
export function asStored(fixture: Fixture, text: string): string {
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

export interface PreparedFixture {
  readonly onDisk: string;
  readonly intended: string;
}

export async function prepare(fixture: Fixture): Promise<PreparedFixture> {
  const read = asStored(fixture, await readFile(join(FIXTURES_DIR, fixture.id, fixture.file), 'utf8'));
  const onDisk = applyExactly(read, fixture.changed_on_disk ?? [], `${fixture.id} changed_on_disk`);
  return { onDisk, intended: applyExactly(onDisk, fixture.intended, `${fixture.id} intended`) };
}

export async function runFixture(fixture: Fixture, tool: Tool, reader: Reader): Promise<RunResult> {
  const { onDisk, intended } = await prepare(fixture);
  const directory = await mkdtemp(join(tmpdir(), 'recovery-'));
  const path = join(directory, fixture.file);
  const result = (outcome: Outcome, rounds: number, note?: string): RunResult => ({ fixture: fixture.id, outcome, rounds, ...(note ? { note } : {}) });
  try {
    await writeFile(path, onDisk);
    const knows = fixture.knows ?? {};
    let request: EditRequest = { file_path: join(directory, fixture.sent_file ?? fixture.file), edits: fixture.sent.map((edit) => ({ ...edit })) };
    let seen: Observations = {};
    let reply = await tool(path, request);
    for (let rounds = 1; ; ) {
      if (reply.success) {
        const now = await readFile(path, 'utf8');
        return now === intended ? result('converged', rounds) : result('wrong edit', rounds, 'a success left other text than intended');
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
        const now = await readFile(path, 'utf8');
        return now === intended ? result('converged', rounds - 1) : result('dropped edit', rounds - 1, 'the reader dropped an edit that was never applied');
      }
      if (step.kind === 'read') {
        seen = { ...seen, fileText: await readFile(step.path, 'utf8').catch(() => '') };
        continue;
      }
      if (step.kind === 'list') {
        seen = { ...seen, names: await readdir(step.directory) };
        continue;
      }
      request = step.request;
      reply = await tool(path, request);
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

export async function runColumns(fixtures: readonly Fixture[], columns: readonly Column[]): Promise<ColumnSummary[]> {
  const summaries: ColumnSummary[] = [];
  for (const column of columns) {
    const results: RunResult[] = [];
    for (const fixture of fixtures) {
      results.push(await runFixture(fixture, column.tool, column.reader));
    }
    const count = (predicate: (result: RunResult) => boolean): number => results.filter(predicate).length;
    summaries.push({
      label: column.label,
      results,
      withinTwo: count((r) => r.outcome === 'converged' && r.rounds <= 2),
      converged: count((r) => r.outcome === 'converged'),
      wrong: count((r) => r.outcome === 'wrong edit'),
      dropped: count((r) => r.outcome === 'dropped edit'),
      gaveUp: count((r) => r.outcome === 'gave up' || r.outcome === 'out of rounds'),
    });
  }
  return summaries;
}
