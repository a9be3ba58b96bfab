/**
 * `multi-edit patch` killed at random moments of a patch that updates two files,
 * adds one, deletes one and moves one. After the next run, the tree is entirely
 * old or entirely new (names and bytes), and no lock, temp or journal file is left.
 * MULTI_EDIT_PATCH_KILL_ROUNDS sets the number of kills (default 30).
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runPatchUnder } from '../helpers/patchHost';
import { TORN_LOCK_AGE_MS } from '../../../src/node/store/recovery';
import { recordFigure } from '../helpers/figures';
import { useTempDir } from '../helpers/tempDir';

const CLI = path.resolve(__dirname, '../../../../dist/cli.js');
const ROUNDS = Number(process.env.MULTI_EDIT_PATCH_KILL_ROUNDS ?? '30');
const SIGNALS: readonly NodeJS.Signals[] = ['SIGKILL', 'SIGINT', 'SIGTERM'];
/** Big enough that the commit takes a share of the run that random kills can hit. */
const LINES = 40_000;
const PATCH_FILE = 'change.patch';

const big = (stem: string): string => Array.from({ length: LINES }, (_, line) => `export const ${stem}${line} = ${line};\n`).join('');
const changed = (stem: string, value: string): string => big(stem).replace(`${stem}0 = 0;`, `${stem}0 = ${value};`);

type Tree = Readonly<Record<string, string>>;

const OLD: Tree = { 'one.ts': big('one'), 'two.ts': big('two'), 'gone.ts': big('gone'), 'from.ts': big('from') };
const NEW: Tree = { 'one.ts': changed('one', "'one'"), 'two.ts': changed('two', "'two'"), 'added.ts': 'export const added = true;\n', 'to.ts': changed('from', "'moved'") };

const PATCH = [
  '*** Begin Patch',
  '*** Update File: one.ts',
  '@@',
  '-export const one0 = 0;',
  "+export const one0 = 'one';",
  '*** Update File: two.ts',
  '@@',
  '-export const two0 = 0;',
  "+export const two0 = 'two';",
  '*** Add File: added.ts',
  '+export const added = true;',
  '*** Delete File: gone.ts',
  '*** Update File: from.ts',
  '*** Move to: to.ts',
  '@@',
  '-export const from0 = 0;',
  "+export const from0 = 'moved';",
  '*** End Patch',
  '',
].join('\n');

interface Run {
  readonly exit: number | null;
  readonly stdout: string;
}

function runPatch(dir: string, killAfterMs?: number, signal?: NodeJS.Signals): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'patch', '--syntax-check', 'off', '--root', dir, path.join(dir, PATCH_FILE)], { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
    child.on('error', reject);
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill(signal), killAfterMs);
    child.on('close', (exit) => {
      clearTimeout(timer);
      resolve({ exit, stdout });
    });
  });
}

describe('reliability: multi-edit patch killed in the middle of a patch that updates, adds, deletes and moves', function () {
  this.timeout(900_000);
  const dir = useTempDir('patch-kill');

  function seed(): void {
    for (const name of fs.readdirSync(dir())) {
      fs.rmSync(path.join(dir(), name), { recursive: true, force: true });
    }
    for (const [name, text] of Object.entries(OLD)) {
      fs.writeFileSync(path.join(dir(), name), text);
    }
    fs.writeFileSync(path.join(dir(), PATCH_FILE), PATCH);
  }

  /** The tree without the patch file: 'old', 'new', or what differs. */
  function state(): 'old' | 'new' | string {
    const names = fs.readdirSync(dir()).filter((name) => name !== PATCH_FILE).sort();
    const matches = (tree: Tree): boolean => names.join(',') === Object.keys(tree).sort().join(',')
      && names.every((name) => fs.readFileSync(path.join(dir(), name), 'utf8') === tree[name]);
    return matches(OLD) ? 'old' : matches(NEW) ? 'new' : `mixed: ${names.join(', ')}`;
  }

  /** A kill between creating a lock and writing its record can leave an empty lock; ages it as the clock would. */
  function ageEmptyLocks(): number {
    const empty = fs.readdirSync(dir()).filter((name) => name.includes('.multi-edit-') && name.endsWith('-lock') && fs.statSync(path.join(dir(), name)).size === 0);
    const past = new Date(Date.now() - TORN_LOCK_AGE_MS - 5_000);
    for (const name of empty) {
      fs.utimesSync(path.join(dir(), name), past, past);
    }
    return empty.length;
  }

  it(`leaves the tree all old or all new, and nothing behind, over ${ROUNDS} kills at random moments`, async () => {
    seed();
    const started = Date.now();
    const calibration = await runPatch(dir());
    const fullRunMs = Date.now() - started;
    assert.equal(calibration.exit, 0, calibration.stdout);
    assert.equal(state(), 'new', 'an uninterrupted run applies the whole patch');
    const outcomes = { old: 0, new: 0, cancelled: 0, leftForNextRun: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      seed();
      const signal = SIGNALS[round % SIGNALS.length];
      const run = await runPatch(dir(), Math.random() * fullRunMs * 1.1, signal);
      outcomes.leftForNextRun += fs.readdirSync(dir()).some((name) => name.includes('.multi-edit-')) ? 1 : 0;
      ageEmptyLocks();
      if (run.exit === 1) {
        assert.equal(JSON.parse(run.stdout).error_code, 'CANCELLED', run.stdout);
        assert.equal(state(), 'old', 'a CANCELLED run changed the tree');
        outcomes.cancelled++;
      }
      // The next run: the same patch, planned again as a dry run, which reads the files first.
      const next = await runPatchUnder(dir(), { patch: PATCH, dry_run: true });
      assert.ok(next.success || ['FILE_NOT_FOUND', 'FILE_EXISTS', 'MATCH_NOT_FOUND'].includes(next.error_code), JSON.stringify(next));
      const after = state();
      assert.ok(after === 'old' || after === 'new', `round ${round} (${signal}): ${after}`);
      assert.deepEqual(fs.readdirSync(dir()).filter((name) => name.includes('.multi-edit-')), [], `round ${round} (${signal}): files left behind`);
      outcomes[after === 'old' ? 'old' : 'new']++;
    }
    recordFigure('patches killed', `${ROUNDS} runs of a patch updating 2 files, adding 1, deleting 1 and moving 1, killed at random moments of a ${fullRunMs} ms run: ${outcomes.cancelled} reported CANCELLED, ${outcomes.leftForNextRun} left work for the next run; after it ${outcomes.old} trees all old, ${outcomes.new} all new, 0 mixed, 0 files left behind`);
  });
});
