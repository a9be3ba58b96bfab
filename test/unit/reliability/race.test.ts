/**
 * Several processes edit different lines of one file at the same moment. With the
 * lock protocol every success stays in the file: the count of lost updates is 0.
 * MULTI_EDIT_RACE_ROUNDS sets the rounds of engine processes (default 200), and
 * MULTI_EDIT_CLI_RACE_ROUNDS those of whole CLI runs (default 25: each starts a Node).
 */
import * as assert from 'node:assert/strict';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recordFigure, recordLostBytes } from '../helpers/figures';
import { useTempDir } from '../helpers/tempDir';

const WORKER = path.join(__dirname, 'fixtures', 'raceWorker.js');
const CLI = path.resolve(__dirname, '../../../../dist/cli.js');
const PROCESSES = 4;
const ROUNDS = Number(process.env.MULTI_EDIT_RACE_ROUNDS ?? '200');
const CLI_ROUNDS = Number(process.env.MULTI_EDIT_CLI_RACE_ROUNDS ?? '25');
/** Each step rewrites one counter line; a lost step loses at least that line's new bytes. */
const STEP_BYTES = 'worker 0: 0\n'.length;

interface Outcome {
  readonly success: boolean;
  readonly code?: string;
}

function counterFile(dir: string): string {
  const target = path.join(dir, 'counters.txt');
  fs.writeFileSync(target, Array.from({ length: PROCESSES }, (_, worker) => `worker ${worker}: 0\n`).join(''));
  return target;
}

function countersIn(target: string): number[] {
  const text = fs.readFileSync(target, 'utf8');
  return Array.from({ length: PROCESSES }, (_, worker) => Number(new RegExp(`^worker ${worker}: (\\d+)$`, 'm').exec(text)?.[1] ?? -1));
}

function nextMessage(child: ChildProcess): Promise<Outcome> {
  return new Promise((resolve) => child.once('message', (message) => resolve(message as Outcome)));
}

function tally(outcomes: readonly Outcome[]): string {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) {
    const key = outcome.success ? 'succeeded' : outcome.code ?? 'failed';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => `${count} ${key}`).join(', ');
}

describe('reliability: writers racing on one file', function () {
  this.timeout(600_000);
  const dir = useTempDir('race');
  const figures: string[] = [];

  after(() => {
    recordFigure('rounds raced', figures.join('; '));
  });

  it(`loses no update when ${PROCESSES} engine processes commit to one file at once, ${ROUNDS} rounds`, async () => {
    const target = counterFile(dir());
    const workers = Array.from({ length: PROCESSES }, (_, worker) => fork(WORKER, [], { env: { ...process.env, WORKER: String(worker), TARGET: target }, stdio: 'ignore' }));
    const successes = new Array<number>(PROCESSES).fill(0);
    const outcomes: Outcome[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const replies = workers.map(nextMessage);
        for (const worker of workers) {
          worker.send('go');
        }
        for (const [index, reply] of (await Promise.all(replies)).entries()) {
          outcomes.push(reply);
          successes[index] += reply.success ? 1 : 0;
        }
      }
    } finally {
      for (const worker of workers) {
        worker.send('stop');
      }
    }
    const lost = successes.reduce((sum, count, worker) => sum + count - countersIn(target)[worker], 0);
    recordLostBytes('races', lost * STEP_BYTES);
    figures.push(`${ROUNDS} rounds × ${PROCESSES} engine processes (${tally(outcomes)}), ${lost} lost updates`);
    assert.equal(lost, 0);
    assert.deepEqual(fs.readdirSync(dir()), ['counters.txt']);
  });

  it(`loses no update when ${PROCESSES} CLI processes apply to one file at once, ${CLI_ROUNDS} rounds`, async () => {
    const target = counterFile(dir());
    const values = new Array<number>(PROCESSES).fill(0);
    const outcomes: Outcome[] = [];
    for (let round = 0; round < CLI_ROUNDS; round++) {
      const runs = values.map((value, worker) => runCli(dir(), worker, {
        file_path: target,
        edits: [{ old_string: `worker ${worker}: ${value}\n`, new_string: `worker ${worker}: ${value + 1}\n` }],
      }));
      for (const [worker, outcome] of (await Promise.all(runs)).entries()) {
        outcomes.push(outcome);
        values[worker] += outcome.success ? 1 : 0;
      }
    }
    const lost = values.reduce((sum, count, worker) => sum + count - countersIn(target)[worker], 0);
    recordLostBytes('races', lost * STEP_BYTES);
    figures.push(`${CLI_ROUNDS} rounds × ${PROCESSES} CLI processes (${tally(outcomes)}), ${lost} lost updates`);
    assert.equal(lost, 0);
    assert.deepEqual(fs.readdirSync(dir()).filter((name) => !name.endsWith('.json')), ['counters.txt']);
  });
});

function runCli(dir: string, worker: number, request: object): Promise<Outcome> {
  const requestPath = path.join(dir, `request-${worker}.json`);
  fs.writeFileSync(requestPath, JSON.stringify(request));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'apply', requestPath], { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
    child.on('error', reject);
    child.on('close', () => {
      const response = JSON.parse(stdout) as { success: boolean; error_code?: string };
      resolve({ success: response.success, ...(response.error_code ? { code: response.error_code } : {}) });
    });
  });
}
