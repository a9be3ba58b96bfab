/**
 * The Node store's commit protocol, step by step: locks between writers, a crash at
 * every step of a commit, a failure at every step, an interruption at every step.
 * Whatever happens, each batch ends all old or all new, and no lock, temp or journal
 * file stays behind once the next run has touched the files.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runRequest } from '../../../src/core/engine/engine';
import type { CancellationSignal } from '../../../src/core/engine/options';
import type { EngineResponse } from '../../../src/core/contract/schemas';
import { newLockRecord, retireRecord, serializeRecord, type LockRecord } from '../../../src/node/store/lockRecord';
import { storeFailureFromError } from '../../../src/core/store/fsErrors';
import { NodeFileStore } from '../../../src/node/store/nodeFileStore';
import { TORN_LOCK_AGE_MS } from '../../../src/node/store/recovery';
import { sidecarPath } from '../../../src/node/store/sidecars';
import { bytesOffWholeState, recordFigure, recordLostBytes } from '../helpers/figures';
import { errnoError, faultyFs, type Step } from './fixtures/faultyFs';
import { useTempDir } from '../helpers/tempDir';

const CRASHING_COMMIT = path.join(__dirname, 'fixtures', 'crashingCommit.js');
const NAMES = ['a.txt', 'b.txt', 'c.txt'];
const OLD = (name: string): string => `${name} line one\n${name} line two\n`;
const NEW = (name: string): string => `${name} LINE ONE\n${name} line two\n`;
const FAST_RETRY = { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1, maxTotalMs: 10 };

/** The suite's folder (useTempDir, set where the suite is described). */
let dir: () => string;
const file = (name: string): string => path.join(dir(), name);

function seed(): void {
  for (const name of NAMES) {
    fs.writeFileSync(file(name), OLD(name));
  }
}

function batchRequest(): object {
  return { files: NAMES.map((name) => ({ file_path: file(name), edits: [{ old_string: `${name} line one`, new_string: `${name} LINE ONE` }] })) };
}

type BatchState = 'all old' | 'all new' | 'mixed';

/** Checks the batch as `source` left it, and counts any byte that is off a whole state as lost. */
function batchState(source?: string): BatchState {
  const texts = NAMES.map((name) => fs.readFileSync(file(name), 'utf8'));
  if (source) {
    recordLostBytes(source, bytesOffWholeState(texts, NAMES.map(OLD), NAMES.map(NEW)));
  }
  if (texts.every((text, index) => text === OLD(NAMES[index]))) {
    return 'all old';
  }
  return texts.every((text, index) => text === NEW(NAMES[index])) ? 'all new' : 'mixed';
}

function leftovers(): string[] {
  return fs.readdirSync(dir()).filter((name) => !NAMES.includes(name));
}

/** What the next run does first: reading any file of the batch recovers the batch. */
async function touchWithNextRun(name: string): Promise<void> {
  const read = await new NodeFileStore().read(file(name));
  assert.ok(read.ok, `the next run could not read ${name}: ${JSON.stringify(read)}`);
}

function writeLock(target: string, record: LockRecord): void {
  fs.writeFileSync(sidecarPath(target, 'lock'), serializeRecord(record));
}

/** A record as a process that has ended would have left it. */
function deadRecord(files: readonly string[]): LockRecord {
  const record = newLockRecord(files);
  retireRecord(record);
  const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return { ...record, pid: Number(ended.stdout) };
}

/**
 * A crash between creating a lock and filling it leaves an empty lock, which cannot
 * name its owner; it is cleared once older than the torn-lock age. Ages such locks as
 * the clock would, and counts them.
 */
function ageTornLocks(): string[] {
  const torn: string[] = [];
  for (const name of NAMES) {
    const lockPath = sidecarPath(file(name), 'lock');
    if (fs.existsSync(lockPath) && fs.readFileSync(lockPath, 'utf8') === '') {
      const past = new Date(Date.now() - TORN_LOCK_AGE_MS - 5_000);
      fs.utimesSync(lockPath, past, past);
      torn.push(name);
    }
  }
  return torn;
}

function liveProcess(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
}

async function apply(options: { fs?: ReturnType<typeof faultyFs>['fs']; cancellation?: CancellationSignal } = {}): Promise<EngineResponse> {
  return runRequest('multi_edit_files', batchRequest(), {
    store: new NodeFileStore(options.fs),
    retry: FAST_RETRY,
    ...(options.cancellation ? { cancellation: options.cancellation } : {}),
  }).then((run) => run.response);
}

/** Steps of one clean commit of the batch, as the faulty fs counts them. */
async function stepsOfOneCommit(kinds?: readonly Step[]): Promise<number> {
  seed();
  const counting = faultyFs({ at: Number.POSITIVE_INFINITY, ...(kinds ? { steps: kinds } : {}), action: () => undefined });
  const response = await apply({ fs: counting.fs });
  assert.ok(response.success);
  return counting.taken.length;
}

describe('reliability: the commit protocol', function () {
  dir = useTempDir('commit');
  this.timeout(120_000);

  describe('locks between writers', () => {
    it('a lock held by a live process gives FILE_BUSY after the backoff, names the holder, and touches nothing', async () => {
      seed();
      const holder = liveProcess();
      try {
        const record = { ...newLockRecord([file('b.txt')]), pid: holder.pid ?? 0 };
        retireRecord(record);
        writeLock(file('b.txt'), record);
        const response = await apply();
        assert.ok(!response.success);
        assert.equal(response.error_code, 'FILE_BUSY');
        assert.match(response.message, new RegExp(`process ${holder.pid}`));
        assert.equal(batchState(), 'all old');
        assert.deepEqual(leftovers(), ['.b.txt.multi-edit-lock']);
      } finally {
        holder.kill('SIGKILL');
      }
    });

    it('a lock from another host is never taken over', async () => {
      seed();
      const record = { ...newLockRecord([file('a.txt')]), host: 'another-host.example', pid: 1 };
      retireRecord(record);
      writeLock(file('a.txt'), record);
      const response = await apply();
      assert.ok(!response.success);
      assert.equal(response.error_code, 'FILE_BUSY');
      assert.match(response.message, /another-host\.example/);
      assert.equal(batchState(), 'all old');
    });

    it('a torn lock (no record) is busy while young and removed once older than the torn-lock age', async () => {
      seed();
      fs.writeFileSync(sidecarPath(file('c.txt'), 'lock'), '');
      const young = await apply();
      assert.ok(!young.success);
      assert.equal(young.error_code, 'FILE_BUSY');
      const past = new Date(Date.now() - TORN_LOCK_AGE_MS - 5_000);
      fs.utimesSync(sidecarPath(file('c.txt'), 'lock'), past, past);
      const old = await apply();
      assert.ok(old.success, JSON.stringify(old));
      assert.equal(batchState(), 'all new');
      assert.deepEqual(leftovers(), []);
    });

    it('a lock left by a dead process is recovered, and the edit goes through', async () => {
      seed();
      writeLock(file('a.txt'), deadRecord([file('a.txt')]));
      const response = await apply();
      assert.ok(response.success, JSON.stringify(response));
      assert.equal(batchState(), 'all new');
      assert.deepEqual(leftovers(), []);
    });
  });

  describe('a batch left by a crash is finished or undone by the next run', () => {
    it('before its commit point: undone, every file old', async () => {
      seed();
      const record = deadRecord(NAMES.map(file));
      for (const name of NAMES) {
        writeLock(file(name), record);
        fs.writeFileSync(sidecarPath(file(name), 'new'), NEW(name));
        fs.linkSync(file(name), sidecarPath(file(name), 'old'));
      }
      await touchWithNextRun('c.txt');
      assert.equal(batchState(), 'all old');
      assert.deepEqual(leftovers(), []);
    });

    /** Every file locked and staged by a dead process, and the commit marker written: the batch is past its commit point. */
    function leaveCommittedBatch(): void {
      seed();
      const record = deadRecord(NAMES.map(file));
      for (const name of NAMES) {
        writeLock(file(name), record);
        fs.linkSync(file(name), sidecarPath(file(name), 'old'));
        fs.writeFileSync(sidecarPath(file(name), 'new'), NEW(name));
      }
      fs.writeFileSync(sidecarPath(file('a.txt'), 'commit'), `${record.batch}\n`);
    }

    it('after its commit point, with one file renamed: finished, every file new', async () => {
      leaveCommittedBatch();
      fs.renameSync(sidecarPath(file('a.txt'), 'new'), file('a.txt'));
      await touchWithNextRun('b.txt');
      assert.equal(batchState(), 'all new');
      assert.deepEqual(leftovers(), []);
    });

    it('reads of every file at once, in one process, each wait for the recovery and see the finished batch', async () => {
      leaveCommittedBatch();
      const store = new NodeFileStore();
      const reads = await Promise.all(NAMES.map((name) => store.read(file(name))));
      assert.deepEqual(reads.map((read) => (read.ok ? read.value.text : read.code)), NAMES.map((name) => NEW(name)));
      assert.deepEqual(leftovers(), []);
    });
  });

  for (const links of ['hard links', 'no hard links (as FAT: copies instead)'] as const) {
  it(`a crash (SIGKILL) at every step of a 3-file commit leaves the batch all old or all new after the next run, and nothing behind: ${links}`, async function () {
    this.timeout(600_000);
    const noHardLinks = links !== 'hard links';
    seed();
    const steps = noHardLinks ? JSON.parse(spawnSync(process.execPath, [CRASHING_COMMIT], { env: { ...process.env, REQUEST: JSON.stringify(batchRequest()), NO_HARD_LINKS: '1' }, encoding: 'utf8', timeout: 30_000 }).stdout).steps as number : await stepsOfOneCommit();
    const outcomes: Record<BatchState, number> = { 'all old': 0, 'all new': 0, mixed: 0 };
    let killed = 0;
    let leftBehindBeforeRecovery = 0;
    let tornLocks = 0;
    for (let at = 1; at <= steps; at++) {
      fs.rmSync(dir(), { recursive: true, force: true });
      fs.mkdirSync(dir());
      seed();
      const child = spawnSync(process.execPath, [CRASHING_COMMIT], {
        env: { ...process.env, REQUEST: JSON.stringify(batchRequest()), CRASH_AT: String(at), ...(noHardLinks ? { NO_HARD_LINKS: '1' } : {}) },
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(child.signal, 'SIGKILL', `step ${at} did not crash: ${child.stdout}${child.stderr}`);
      killed++;
      leftBehindBeforeRecovery += leftovers().length > 0 ? 1 : 0;
      tornLocks += ageTornLocks().length;
      // The next run is the same request again, as a caller would retry it: it reads every file of the batch.
      for (const name of NAMES) {
        await touchWithNextRun(name);
      }
      const state = batchState('crashes');
      outcomes[state]++;
      assert.notEqual(state, 'mixed', `a crash at step ${at} left the batch mixed`);
      assert.deepEqual(leftovers(), [], `a crash at step ${at} left files behind after recovery`);
    }
    recordFigure(noHardLinks ? 'processes killed without hard links' : 'processes killed', `${killed} SIGKILLs, one at every disk step of a 3-file commit${noHardLinks ? ' on a file system without hard links' : ''} (${outcomes['all old']} ended all old, ${outcomes['all new']} all new, ${outcomes.mixed} mixed; ${leftBehindBeforeRecovery} left a journal that the next run recovered, ${tornLocks} of them an empty lock, cleared once ${TORN_LOCK_AGE_MS / 1000} s old)`);
    assert.ok(outcomes['all old'] > 0 && outcomes['all new'] > 0, 'the crash points should fall on both sides of the commit point');
  });
  }

  it('a failure at every step of a 3-file commit leaves the batch all old or all new, with the right code and nothing behind', async () => {
    const steps = await stepsOfOneCommit();
    let injected = 0;
    const codes = new Map<string, number>();
    for (const errno of ['EIO', 'ENOSPC', 'EACCES']) {
      for (let at = 1; at <= steps; at++) {
        fs.rmSync(dir(), { recursive: true, force: true });
        fs.mkdirSync(dir());
        seed();
        const faulty = faultyFs({ at, action: () => { throw errnoError(errno); } });
        const response = await apply({ fs: faulty.fs });
        injected++;
        const state = batchState();
        if (response.success) {
          // A failure while cleaning up after the last rename does not undo a finished commit.
          assert.equal(state, 'all new', `step ${at} (${errno}): success but ${state}`);
        } else {
          // Reads before the first lock is opened are planning; the re-read under the lock is part of the commit.
          const planning = !faulty.taken.slice(0, at).some((step) => step.startsWith('open '));
          const phase = planning ? 'read' : 'write';
          const code = storeFailureFromError(errnoError(errno), phase).code;
          assert.equal(response.error_code, code, `step ${at} (${errno} on ${faulty.taken[at - 1]})`);
          codes.set(code, (codes.get(code) ?? 0) + 1);
          if (!response.message.includes('for now')) {
            assert.equal(state, 'all old', `step ${at} (${errno}): ${response.message}`);
          }
          if (phase === 'write' && !response.message.includes('for now')) {
            assert.match(response.message, /no file was changed/);
          }
        }
        for (const name of NAMES) {
          await touchWithNextRun(name);
        }
        assert.notEqual(batchState('faults'), 'mixed', `step ${at} (${errno}) left the batch mixed`);
        assert.deepEqual(leftovers(), [], `step ${at} (${errno}) left files behind`);
      }
    }
    recordFigure('faults injected', `${injected} (EIO, ENOSPC, EACCES at each of ${steps} disk steps of a 3-file request, reads included: ${[...codes].map(([code, count]) => `${count} ${code}`).join(', ')}), 0 mixed batches, 0 files left behind`);
  });

  it('an interruption at every step of a 3-file commit gives CANCELLED with every file old, or success with every file new', async () => {
    const steps = await stepsOfOneCommit();
    let cancelled = 0;
    let completed = 0;
    for (let at = 1; at <= steps; at++) {
      fs.rmSync(dir(), { recursive: true, force: true });
      fs.mkdirSync(dir());
      seed();
      const cancellation = { isCancellationRequested: false };
      const faulty = faultyFs({ at, action: () => { cancellation.isCancellationRequested = true; } });
      const response = await apply({ fs: faulty.fs, cancellation });
      batchState('interruptions');
      if (response.success) {
        completed++;
        assert.equal(batchState(), 'all new');
      } else {
        cancelled++;
        assert.equal(response.error_code, 'CANCELLED', response.message);
        assert.equal(batchState(), 'all old', `interrupted at step ${at}: ${response.message}`);
      }
      assert.deepEqual(leftovers(), [], `interrupted at step ${at}: files left behind`);
    }
    recordFigure('interruptions', `a signal at each of ${steps} disk steps of a 3-file commit: ${cancelled} CANCELLED with every file old, ${completed} too late to undo and reported as success with every file new`);
  });
});
