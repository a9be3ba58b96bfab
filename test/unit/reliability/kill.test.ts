/**
 * The CLI killed at random moments of a 5-file commit, by SIGKILL, SIGINT or SIGTERM.
 * After the next run, every batch is all old or all new, and no lock, temp or journal
 * file is left. MULTI_EDIT_KILL_ROUNDS sets the number of kills (default 100).
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runRequest } from '../../../src/core/engine/engine';
import { NodeFileStore } from '../../../src/node/store/nodeFileStore';
import { TORN_LOCK_AGE_MS } from '../../../src/node/store/recovery';
import { bytesOffWholeState, recordFigure, recordLostBytes } from '../helpers/figures';
import { useTempDir } from '../helpers/tempDir';

const CLI = path.resolve(__dirname, '../../../../dist/cli.js');
const ROUNDS = Number(process.env.MULTI_EDIT_KILL_ROUNDS ?? '100');
const SIGNALS: readonly NodeJS.Signals[] = ['SIGKILL', 'SIGINT', 'SIGTERM'];
const NAMES = ['one.ts', 'two.ts', 'three.ts', 'four.ts', 'five.ts'];
/** Big enough that writing and syncing the batch takes a share of the run that random kills can hit. */
const LINES = 40_000;

const oldText = (name: string): string => Array.from({ length: LINES }, (_, line) => `export const ${name.replace('.ts', '')}${line} = ${line};\n`).join('');
const newText = (name: string): string => oldText(name).replace(`${name.replace('.ts', '')}0 = 0;`, `${name.replace('.ts', '')}0 = 'changed';`);

interface Run {
  readonly exit: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
}

function runCli(requestPath: string, killAfterMs?: number, signal?: NodeJS.Signals): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'apply', requestPath], { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
    child.on('error', reject);
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill(signal), killAfterMs);
    child.on('close', (exit, closedBy) => {
      clearTimeout(timer);
      resolve({ exit, signal: closedBy, stdout });
    });
  });
}

describe('reliability: the CLI killed in the middle of a 5-file commit', function () {
  this.timeout(900_000);
  const dir = useTempDir('kill');

  const file = (name: string): string => path.join(dir(), name);

  function seed(): void {
    for (const name of NAMES) {
      fs.writeFileSync(file(name), oldText(name));
    }
  }

  function writeRequest(): string {
    const requestPath = path.join(dir(), 'request.json');
    const stem = (name: string): string => name.replace('.ts', '');
    fs.writeFileSync(requestPath, JSON.stringify({
      files: NAMES.map((name) => ({ file_path: file(name), edits: [{ old_string: `${stem(name)}0 = 0;`, new_string: `${stem(name)}0 = 'changed';` }] })),
    }));
    return requestPath;
  }

  function state(): 'old' | 'new' | 'mixed' {
    const texts = NAMES.map((name) => fs.readFileSync(file(name), 'utf8'));
    recordLostBytes('kills', bytesOffWholeState(texts, NAMES.map(oldText), NAMES.map(newText)));
    if (texts.every((text, index) => text === oldText(NAMES[index]))) {
      return 'old';
    }
    return texts.every((text, index) => text === newText(NAMES[index])) ? 'new' : 'mixed';
  }

  const strays = (): string[] => fs.readdirSync(dir()).filter((name) => name.includes('.multi-edit-'));

  /**
   * A kill between creating a lock and writing its record leaves an empty lock, which
   * counts as live for the torn-lock age (docs/reliability.md). Ages such locks as the
   * clock would, and counts them.
   */
  function ageEmptyLocks(): number {
    const empty = strays().filter((name) => name.endsWith('-lock') && fs.statSync(path.join(dir(), name)).size === 0);
    const past = new Date(Date.now() - TORN_LOCK_AGE_MS - 5_000);
    for (const name of empty) {
      fs.utimesSync(path.join(dir(), name), past, past);
    }
    return empty.length;
  }

  it(`leaves every batch all old or all new, and nothing behind, over ${ROUNDS} kills at random moments`, async () => {
    seed();
    const requestPath = writeRequest();
    const started = Date.now();
    const calibration = await runCli(requestPath);
    const fullRunMs = Date.now() - started;
    assert.equal(calibration.exit, 0, calibration.stdout);
    const outcomes = { old: 0, new: 0, journals: 0, cancelled: 0, emptyLocks: 0 };
    const bySignal = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      seed();
      const signal = SIGNALS[round % SIGNALS.length];
      const run = await runCli(requestPath, Math.random() * fullRunMs * 1.1, signal);
      bySignal.set(signal, (bySignal.get(signal) ?? 0) + 1);
      outcomes.journals += strays().length > 0 ? 1 : 0;
      outcomes.emptyLocks += ageEmptyLocks();
      if (run.exit === 1) {
        assert.equal(JSON.parse(run.stdout).error_code, 'CANCELLED', run.stdout);
        assert.equal(state(), 'old', 'a CANCELLED run changed a file');
        outcomes.cancelled++;
      }
      // The next run: the same request, planned again (a dry run reads every file first).
      const request = JSON.parse(fs.readFileSync(requestPath, 'utf8')) as object;
      const next = (await runRequest('multi_edit_files', { ...request, dry_run: true }, { store: new NodeFileStore() })).response;
      assert.ok(next.success || next.error_code === 'MATCH_NOT_FOUND', JSON.stringify(next));
      const after = state();
      assert.notEqual(after, 'mixed', `round ${round} (${signal}): the batch is mixed`);
      assert.deepEqual(strays(), [], `round ${round} (${signal}): files left behind`);
      outcomes[after === 'old' ? 'old' : 'new']++;
    }
    recordFigure('processes killed', `${ROUNDS} CLI runs of a 5-file commit (${[...bySignal].map(([signal, count]) => `${count} ${signal}`).join(', ')}) at random moments of a ${fullRunMs} ms run: ${outcomes.cancelled} reported CANCELLED, ${outcomes.journals} left a journal for the next run (${outcomes.emptyLocks} of them an empty lock, cleared once ${TORN_LOCK_AGE_MS / 1000} s old); after it ${outcomes.old} batches all old, ${outcomes.new} all new, 0 mixed, 0 files left behind`);
  });
});
