/**
 * Files added, deleted and moved in one commit with updates, through the Node store:
 * all or nothing after a failure, an interruption or a SIGKILL at every disk step
 * (the next run finishes or undoes the batch), and the store's re-check at commit
 * when the tree changed after the plan. Lock creation is killed at each of its
 * steps too: no lock file is ever empty.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PlannedChange } from '../../../src/core/store/fileStore';
import { parseRecord } from '../../../src/node/store/lockRecord';
import { NodeFileStore } from '../../../src/node/store/nodeFileStore';
import { recordFigure, recordLostBytes } from '../helpers/figures';
import { errnoError, faultyFs } from './fixtures/faultyFs';
import { plannedChanges, type ChangeSpec } from './fixtures/fileChanges';
import { useTempDir } from '../helpers/tempDir';
import { wholeText } from '../../../src/core/text/editedText';

const CRASHING_CHANGES = path.join(__dirname, 'fixtures', 'crashingChanges.js');

/** The tree before and after the batch: file name to text, absent when the file must not exist. */
const OLD: Readonly<Record<string, string>> = { 'u.txt': 'update me\n', 'gone.txt': 'delete me\n', 'from.txt': 'move me\n' };
const NEW: Readonly<Record<string, string>> = { 'u.txt': 'updated\n', 'new.txt': 'added\n', 'sub/to.txt': 'moved\n' };
const NAMES = [...new Set([...Object.keys(OLD), ...Object.keys(NEW)])];

/** The suite's folder (useTempDir, set where the suite is described); seed() empties and refills it. */
let dir: () => string;
const file = (name: string): string => path.join(dir(), name);

function specs(): ChangeSpec[] {
  return [
    { kind: 'update', path: file('u.txt'), text: NEW['u.txt'] },
    { kind: 'add', path: file('new.txt'), text: NEW['new.txt'] },
    { kind: 'delete', path: file('gone.txt') },
    { kind: 'move', from: file('from.txt'), path: file('sub/to.txt'), text: NEW['sub/to.txt'] },
  ];
}

function seed(): void {
  fs.rmSync(dir(), { recursive: true, force: true });
  fs.mkdirSync(path.join(dir(), 'sub'), { recursive: true });
  for (const [name, text] of Object.entries(OLD)) {
    fs.writeFileSync(file(name), text);
  }
}

function textOf(name: string): string | undefined {
  if (!fs.existsSync(file(name))) {
    return undefined;
  }
  return fs.statSync(file(name)).isDirectory() ? '(a directory)' : fs.readFileSync(file(name), 'utf8');
}

type TreeState = 'all old' | 'all new' | 'mixed';

function treeState(source?: string): TreeState {
  const texts = NAMES.map(textOf);
  const off = (expected: Readonly<Record<string, string>>): number => texts.reduce((sum, text, index) => sum + (text === expected[NAMES[index]] ? 0 : Buffer.byteLength(text ?? expected[NAMES[index]] ?? '')), 0);
  if (source) {
    recordLostBytes(source, Math.min(off(OLD), off(NEW)));
  }
  return off(OLD) === 0 ? 'all old' : off(NEW) === 0 ? 'all new' : 'mixed';
}

/** Every name in the tree that is not a file of the batch: sidecars, drafts, anything left behind. */
function leftovers(): string[] {
  const found: string[] = [];
  for (const directory of [dir(), path.join(dir(), 'sub')]) {
    for (const name of fs.readdirSync(directory)) {
      const relative = path.relative(dir(), path.join(directory, name));
      if (!NAMES.includes(relative) && relative !== 'sub') {
        found.push(relative);
      }
    }
  }
  return found;
}

/** Lock files that hold no record of their owner. */
function emptyLocks(): string[] {
  return leftovers().filter((name) => name.endsWith('.multi-edit-lock') && parseRecord(fs.readFileSync(file(name), 'utf8')) === undefined);
}

/** What the next run does first: looking at any file of the batch finishes or undoes it. */
async function touchWithNextRun(): Promise<void> {
  const store = new NodeFileStore();
  for (const name of NAMES) {
    await store.stat(file(name));
  }
}

async function commit(options: { fs?: ReturnType<typeof faultyFs>['fs']; isCancelled?: () => boolean } = {}): ReturnType<NodeFileStore['commit']> {
  const changes = await plannedChanges(new NodeFileStore(), specs());
  return new NodeFileStore(options.fs).commit(changes, options.isCancelled);
}

function crashAt(at: number): { signal: NodeJS.Signals | null; output: string } {
  const child = spawnSync(process.execPath, [CRASHING_CHANGES], {
    env: { ...process.env, CHANGES: JSON.stringify(specs()), ...(at > 0 ? { CRASH_AT: String(at) } : {}) },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { signal: child.signal, output: `${child.stdout}${child.stderr}` };
}

describe('reliability: added, deleted and moved files in one commit', function () {
  this.timeout(180_000);
  dir = useTempDir('fileops');

  beforeEach(() => {
    seed();
  });

  it('updates, adds, deletes and moves in one batch, and leaves nothing behind', async () => {
    const result = await commit();
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(treeState(), 'all new');
    assert.deepEqual(leftovers(), []);
  });

  it('a single add, delete or move commits alone, and a new file gets the usual mode', async () => {
    const store = new NodeFileStore();
    assert.ok((await store.commit([{ kind: 'add', path: file('alone.txt'), text: wholeText('x\n'), bom: true }])).ok);
    assert.deepEqual([...fs.readFileSync(file('alone.txt'))].slice(0, 3), [0xef, 0xbb, 0xbf]);
    const umask = process.umask();
    assert.equal(fs.statSync(file('alone.txt')).mode & 0o777, 0o666 & ~umask);
    const [remove] = await plannedChanges(store, [{ kind: 'delete', path: file('alone.txt') }]);
    assert.ok((await store.commit([remove])).ok);
    assert.equal(fs.existsSync(file('alone.txt')), false);
    const [move] = await plannedChanges(store, [{ kind: 'move', from: file('from.txt'), path: file('moved.txt'), text: 'moved\n' }]);
    assert.ok((await store.commit([move])).ok);
    assert.deepEqual([textOf('from.txt'), textOf('moved.txt')], [undefined, 'moved\n']);
    assert.deepEqual(leftovers().filter((name) => name !== 'alone.txt' && name !== 'moved.txt'), []);
  });

  describe('the tree changed after the plan: the store says so at commit, and nothing changes', () => {
    const cases: { name: string; change: () => void; code: string }[] = [
      { name: 'a file appeared where one is added', change: () => fs.writeFileSync(file('new.txt'), 'theirs\n'), code: 'FILE_EXISTS' },
      { name: 'a file appeared at a move\'s destination', change: () => fs.writeFileSync(file('sub/to.txt'), 'theirs\n'), code: 'FILE_EXISTS' },
      { name: 'a directory appeared where one is added', change: () => fs.mkdirSync(file('new.txt')), code: 'FILE_EXISTS' },
      { name: 'the file to delete is gone', change: () => fs.rmSync(file('gone.txt')), code: 'FILE_NOT_FOUND' },
      { name: 'the file to delete became a directory', change: () => { fs.rmSync(file('gone.txt')); fs.mkdirSync(file('gone.txt')); }, code: 'IS_DIRECTORY' },
      { name: 'the file to move is gone', change: () => fs.rmSync(file('from.txt')), code: 'FILE_NOT_FOUND' },
      { name: 'the file to delete was edited', change: () => fs.writeFileSync(file('gone.txt'), 'edited elsewhere\n'), code: 'STALE_CONTENT' },
      { name: 'the file to move was edited', change: () => fs.writeFileSync(file('from.txt'), 'edited elsewhere\n'), code: 'STALE_CONTENT' },
    ];
    for (const { name, change, code } of cases) {
      it(`${name}: ${code}`, async () => {
        const changes = await plannedChanges(new NodeFileStore(), specs());
        change();
        const before = NAMES.map(textOf);
        const result = await new NodeFileStore().commit(changes);
        assert.ok(!result.ok);
        assert.equal(result.code, code, result.detail);
        assert.deepEqual(NAMES.map(textOf), before, 'nothing changed');
        assert.deepEqual(leftovers().filter((left) => !['new.txt', 'gone.txt'].includes(left)), []);
      });
    }
  });

  it('a SIGKILL at every disk step of the batch leaves the tree all old or all new after the next run, and nothing behind', () => {
    const clean = crashAt(0);
    const steps = (JSON.parse(clean.output) as { taken: string[] }).taken.length;
    const outcomes: Record<TreeState, number> = { 'all old': 0, 'all new': 0, mixed: 0 };
    return (async () => {
      for (let at = 1; at <= steps; at++) {
        seed();
        const child = crashAt(at);
        assert.equal(child.signal, 'SIGKILL', `step ${at} did not crash: ${child.output}`);
        assert.deepEqual(emptyLocks(), [], `a crash at step ${at} left an empty lock`);
        await touchWithNextRun();
        const state = treeState('file operations killed');
        outcomes[state]++;
        assert.notEqual(state, 'mixed', `a crash at step ${at} left the tree mixed: ${JSON.stringify(NAMES.map(textOf))}`);
        assert.deepEqual(leftovers(), [], `a crash at step ${at} left files behind after recovery`);
      }
      recordFigure('processes killed', `${steps} SIGKILLs, one at every disk step of a batch that updates, adds, deletes and moves a file (${outcomes['all old']} ended all old, ${outcomes['all new']} all new, ${outcomes.mixed} mixed, 0 files left behind)`);
      assert.ok(outcomes['all old'] > 0 && outcomes['all new'] > 0, 'the crash points should fall on both sides of the commit point');
    })();
  });

  it('a SIGKILL at every step of creating the locks never leaves an empty lock, nor anything after the next run', async () => {
    const taken = (JSON.parse(crashAt(0).output) as { taken: string[] }).taken;
    const staging = taken.findIndex((step) => step.includes('.multi-edit-new'));
    const lockSteps = taken.slice(0, staging).flatMap((step, index) => (/multi-edit-(draft|lock)/.test(step) ? [index + 1] : []));
    assert.ok(lockSteps.length >= 10, `lock creation took ${lockSteps.length} steps`);
    for (const at of lockSteps) {
      seed();
      const child = crashAt(at);
      assert.equal(child.signal, 'SIGKILL', `step ${at} did not crash: ${child.output}`);
      assert.deepEqual(emptyLocks(), [], `a crash at step ${at} (${taken[at - 1]}) left an empty lock`);
      await touchWithNextRun();
      assert.equal(treeState(), 'all old');
      assert.deepEqual(leftovers(), [], `a crash at step ${at} (${taken[at - 1]}) left files behind after recovery`);
    }
    recordFigure('locks killed', `${lockSteps.length} SIGKILLs, one at every step of creating the locks of a 5-file batch (drafts written, synced, linked, removed): 0 empty locks, 0 files left behind after the next run`);
  });

  it('a failure or an interruption at every disk step leaves the tree all old or all new, and nothing behind', async () => {
    seed();
    const counting = faultyFs({ at: Number.POSITIVE_INFINITY, action: () => undefined });
    assert.ok((await commit({ fs: counting.fs })).ok);
    const steps = counting.taken.length;
    let tried = 0;
    for (let at = 1; at <= steps; at++) {
      for (const kind of ['EIO', 'interrupt'] as const) {
        seed();
        let cancelled = false;
        const faulty = faultyFs({ at, action: () => { if (kind === 'EIO') { throw errnoError('EIO'); } cancelled = true; } });
        const changes: PlannedChange[] = await plannedChanges(new NodeFileStore(), specs());
        const result = await new NodeFileStore(faulty.fs).commit(changes, () => cancelled);
        tried++;
        const state = treeState();
        if (result.ok) {
          assert.equal(state, 'all new', `${kind} at step ${at}: success but ${state}`);
        } else if ((result.unrestored ?? []).length === 0) {
          assert.equal(state, 'all old', `${kind} at step ${at} (${faulty.taken[at - 1]}): ${result.code} ${result.detail}`);
        }
        await touchWithNextRun();
        assert.notEqual(treeState('file operations faulted'), 'mixed', `${kind} at step ${at} left the tree mixed`);
        assert.deepEqual(leftovers(), [], `${kind} at step ${at} (${faulty.taken[at - 1]}) left files behind`);
      }
    }
    recordFigure('faults injected', `${tried} on a batch that updates, adds, deletes and moves a file (EIO and an interruption at each of ${steps} disk steps): 0 mixed trees, 0 files left behind`);
  });
});
