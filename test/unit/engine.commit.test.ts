/** Planning, committing, rollback, busy files and cancellation. */
import * as assert from 'node:assert/strict';
import { commitPlan, planRequest } from '../../src/core/engine/engine';
import type { CancellationSignal } from '../../src/core/engine/options';
import { backoffDelays } from '../../src/core/engine/retry';
import { DEFAULT_RETRY } from '../../src/core/engine/options';
import { assertValidResponse, failureOf, recordingSleep, run, successOf } from './helpers/engineRun';
import { AtomicMemoryStore, MemoryStore } from './helpers/memoryStore';

const FILES = { '/w/a.ts': 'const a = 1;\n', '/w/b.ts': 'const b = 2;\n', '/w/c.ts': 'const c = 3;\n' };

function threeFileRequest(extra: object = {}): object {
  return {
    files: [
      { file_path: '/w/a.ts', edits: [{ old_string: 'a = 1', new_string: 'a = 10' }] },
      { file_path: '/w/b.ts', edits: [{ old_string: 'b = 2', new_string: 'b = 20' }] },
      { file_path: '/w/c.ts', edits: [{ old_string: 'c = 3', new_string: 'c = 30' }] },
    ],
    ...extra,
  };
}

describe('engine: multi-file requests', () => {
  it('applies every file and reports each', async () => {
    const store = new MemoryStore(FILES);
    const success = successOf(await run('multi_edit_files', threeFileRequest(), { store }));
    assert.equal(success.summary, 'Applied 3 edits (3 replacements) to 3 files');
    assert.deepEqual(success.files.map((file) => file.file_path), ['/w/a.ts', '/w/b.ts', '/w/c.ts']);
    assert.equal(success.file_path, undefined);
    assert.equal(store.text('/w/c.ts'), 'const c = 30;\n');
  });

  it('plans every file before writing any: a failing second file leaves the first untouched', async () => {
    const store = new MemoryStore(FILES);
    const request = threeFileRequest();
    (request as { files: { edits: object[] }[] }).files[1].edits = [{ old_string: 'b = 9', new_string: 'x' }];
    const envelope = failureOf(await run('multi_edit_files', request, { store }));
    assert.equal(envelope.file_index, 1);
    assert.equal(envelope.file_path, '/w/b.ts');
    assert.equal(envelope.edit_index, 0);
    assert.deepEqual(envelope.edit_status.map((status) => [status.file_index, status.file_path, status.edit_index]), [[1, '/w/b.ts', 0]]);
    assert.equal(store.writes.length, 0);
    assert.deepEqual(store.snapshot(), new MemoryStore(FILES).snapshot());
  });

  it('lists the edits of an unreadable file as skipped and still checks the other files', async () => {
    const store = new MemoryStore({ '/w/a.ts': FILES['/w/a.ts'], '/w/c.ts': FILES['/w/c.ts'] });
    const request = threeFileRequest();
    (request as { files: { edits: object[] }[] }).files[2].edits = [{ old_string: 'nope', new_string: 'x' }];
    const envelope = failureOf(await run('multi_edit_files', request, { store }));
    assert.equal(envelope.error_code, 'FILE_NOT_FOUND');
    assert.equal(envelope.file_index, 1);
    assert.equal(envelope.edit_index, undefined);
    assert.deepEqual(envelope.edit_status.map((status) => [status.file_index, status.edit_index, status.status, status.error_code]), [
      [1, 0, 'skipped', undefined],
      [2, 0, 'failed', 'MATCH_NOT_FOUND'],
    ]);
    assert.equal(envelope.summary, 'Fix: /w/b.ts (FILE_NOT_FOUND), /w/c.ts edit 1 (MATCH_NOT_FOUND); 1 edit not checked; 1 other edit would apply');
  });

  it('restores the files already written when a later write fails, and says which', async () => {
    const store = new MemoryStore(FILES);
    store.failOn('write', '/w/c.ts', { code: 'DISK_FULL', detail: 'no space left on the device', times: 1 });
    const envelope = failureOf(await run('multi_edit_files', threeFileRequest(), { store }));
    assert.equal(envelope.error_code, 'DISK_FULL');
    assert.deepEqual(envelope.rolled_back, ['/w/a.ts', '/w/b.ts']);
    assert.equal(envelope.file_path, '/w/c.ts');
    assert.equal(envelope.file_index, 2);
    assert.match(envelope.message, /^Could not write \/w\/c\.ts: no space left on the device; .*restored; no file was changed$/);
    assert.deepEqual(store.snapshot(), new MemoryStore(FILES).snapshot());
  });

  it('gives WRITE_FAILED and rolls back when the store throws during a write', async () => {
    const store = new MemoryStore(FILES);
    const write = store.write.bind(store);
    store.write = async (planned) => {
      if (planned.kind === 'update' && planned.path === '/w/b.ts' && planned.text.whole().includes('20')) {
        throw new Error('EIO: i/o error, write');
      }
      return write(planned);
    };
    const envelope = failureOf(await run('multi_edit_files', threeFileRequest(), { store }));
    assert.equal(envelope.error_code, 'WRITE_FAILED');
    assert.deepEqual(envelope.rolled_back, ['/w/a.ts']);
    assert.ok(!JSON.stringify(envelope).includes('EIO'));
    assert.deepEqual(store.snapshot(), new MemoryStore(FILES).snapshot());
  });

  it('fails the Nth write and restores in reverse order', async () => {
    const store = new MemoryStore(FILES);
    store.failNthWrite(2, { code: 'PERMISSION_DENIED', detail: 'permission denied' });
    const envelope = failureOf(await run('multi_edit_files', threeFileRequest(), { store }));
    assert.equal(envelope.error_code, 'PERMISSION_DENIED');
    assert.deepEqual(envelope.rolled_back, ['/w/a.ts']);
    assert.deepEqual(store.calls.filter((call) => call.startsWith('write')), ['write /w/a.ts', 'write /w/b.ts', 'write /w/a.ts']);
    assert.deepEqual(store.snapshot(), new MemoryStore(FILES).snapshot());
  });

  it('says so when a restore fails too', async () => {
    const store = new MemoryStore(FILES);
    store.failOn('write', '/w/c.ts', { code: 'WRITE_FAILED', detail: 'the device failed' });
    const write = store.write.bind(store);
    store.write = async (planned) => (planned.kind === 'update' && planned.path === '/w/a.ts' && planned.text.whole() === FILES['/w/a.ts']
      ? { ok: false, code: 'WRITE_FAILED', detail: 'the device failed' }
      : write(planned));
    const envelope = failureOf(await run('multi_edit_files', threeFileRequest(), { store }));
    assert.deepEqual(envelope.rolled_back, ['/w/b.ts']);
    assert.match(envelope.message, /putting back \/w\/a\.ts failed too/);
    assert.ok(envelope.recovery_hints[0].includes('/w/a.ts'));
  });

  it('commits through the store\'s batch commit when it has one', async () => {
    const store = new AtomicMemoryStore(FILES);
    successOf(await run('multi_edit_files', threeFileRequest(), { store }));
    assert.deepEqual(store.calls.filter((call) => !call.startsWith('stat') && !call.startsWith('read')), ['commit *']);
    assert.equal(store.writes.length, 3);
    assert.equal(store.text('/w/b.ts'), 'const b = 20;\n');
  });

  it('returns STALE_CONTENT from the batch commit and writes nothing', async () => {
    const store = new AtomicMemoryStore(FILES);
    const planned = await planRequest('multi_edit_files', threeFileRequest(), { store });
    assert.ok(planned.ok);
    store.put('/w/b.ts', 'const b = 2; // edited elsewhere\n');
    const envelope = failureOf(await commitPlan(planned.plan, { store }));
    assert.equal(envelope.error_code, 'STALE_CONTENT');
    assert.equal(envelope.next_action.action, 'reread_and_retry');
    assert.equal(envelope.rolled_back, undefined);
    assert.equal(store.writes.length, 0);
  });

  it('does not write a file whose edits cancel out', async () => {
    const store = new MemoryStore(FILES);
    const response = await run('multi_edit', {
      file_path: '/w/a.ts', edits: [{ old_string: 'a = 1', new_string: 'a = 2' }, { old_string: 'a = 2', new_string: 'a = 1' }],
    }, { store });
    assert.equal(successOf(response).edits_applied, 2);
    assert.equal(store.writes.length, 0);
  });
});

describe('engine: plan, then commit', () => {
  it('plans without writing, then commits the plan', async () => {
    const store = new MemoryStore(FILES);
    const planned = await planRequest('multi_edit', { file_path: '/w/a.ts', edits: [{ old_string: 'a = 1', new_string: 'a = 5' }] }, {
      store, displayPath: (path) => path.slice(3),
    });
    assert.ok(planned.ok);
    assert.equal(store.writes.length, 0);
    const [file] = planned.plan.files;
    assert.equal(file.path, '/w/a.ts');
    assert.equal(file.displayPath, 'a.ts');
    assert.equal(file.newText.whole(), 'const a = 5;\n');
    assert.equal(file.original.text, FILES['/w/a.ts']);
    assert.deepEqual([file.editsApplied, file.replacements], [1, 1]);
    const response = await commitPlan(planned.plan, { store });
    assertValidResponse(response);
    assert.equal(successOf(response).summary, 'Applied 1 edit (1 replacement) to a.ts', 'the plan keeps its display paths');
    assert.equal(store.text('/w/a.ts'), 'const a = 5;\n');
  });

  it('returns the envelope from planRequest when planning fails', async () => {
    const planned = await planRequest('multi_edit', { file_path: '/w/zzz.ts', edits: [{ old_string: 'a', new_string: 'b' }] }, { store: new MemoryStore() });
    assert.equal(planned.ok, false);
    assert.ok(!planned.ok && planned.envelope.error_code === 'FILE_NOT_FOUND');
  });

  it('renders a dry-run plan without writing', async () => {
    const store = new MemoryStore(FILES);
    const planned = await planRequest('multi_edit', { file_path: '/w/a.ts', edits: [{ old_string: 'a = 1', new_string: 'a = 5' }], dry_run: true }, { store });
    assert.ok(planned.ok);
    const success = successOf(await commitPlan(planned.plan, { store }));
    assert.equal(success.dry_run, true);
    assert.equal(store.writes.length, 0);
  });
});

describe('engine: busy files', () => {
  it('backs off from 100 ms, doubling, capped at 5 s', () => {
    assert.deepEqual(backoffDelays({ ...DEFAULT_RETRY, maxAttempts: 10, maxTotalMs: 1_000_000 }), [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
  });

  it('bounds the backoff by the total time', () => {
    assert.deepEqual(backoffDelays({ ...DEFAULT_RETRY, maxAttempts: 10, maxTotalMs: 1000 }), [100, 200, 400]);
  });

  it('succeeds when the file stops being busy within the retries', async () => {
    const store = new MemoryStore(FILES);
    store.failOn('read', '/w/a.ts', { code: 'FILE_BUSY', times: 3 });
    const { sleep, waits } = recordingSleep();
    successOf(await run('multi_edit', { file_path: '/w/a.ts', edits: [{ old_string: 'a = 1', new_string: 'a = 5' }] }, { store, sleep }));
    assert.deepEqual(waits, [100, 200, 400]);
  });

  it('retries busy writes too, and gives FILE_BUSY after the last attempt', async () => {
    const store = new MemoryStore(FILES);
    store.failOn('write', '/w/a.ts', { code: 'FILE_BUSY' });
    const { sleep, waits } = recordingSleep();
    const envelope = failureOf(await run('multi_edit', { file_path: '/w/a.ts', edits: [{ old_string: 'a = 1', new_string: 'a = 5' }] }, {
      store, sleep, retry: { maxAttempts: 8, maxTotalMs: 60_000 },
    }));
    assert.equal(envelope.error_code, 'FILE_BUSY');
    assert.deepEqual(waits, [100, 200, 400, 800, 1600, 3200, 5000]);
    assert.equal(store.text('/w/a.ts'), FILES['/w/a.ts']);
  });
});

describe('engine: cancellation', () => {
  it('stops between files and writes nothing', async () => {
    const store = new MemoryStore(FILES);
    const cancellation = { isCancellationRequested: false };
    const read = store.read.bind(store);
    store.read = async (path) => {
      cancellation.isCancellationRequested = true;
      return read(path);
    };
    const envelope = failureOf(await run('multi_edit_files', threeFileRequest(), { store, cancellation }));
    assert.equal(envelope.error_code, 'CANCELLED');
    assert.equal(envelope.next_action.action, 'stop');
    assert.deepEqual(store.calls, ['stat /w/a.ts', 'stat /w/b.ts', 'stat /w/c.ts', 'read /w/a.ts']);
  });

  it('stops before the commit and writes nothing', async () => {
    const store = new MemoryStore(FILES);
    const cancellation: CancellationSignal = { isCancellationRequested: false };
    const planned = await planRequest('multi_edit_files', threeFileRequest(), { store, cancellation });
    assert.ok(planned.ok);
    const envelope = failureOf(await commitPlan(planned.plan, { store, cancellation: { isCancellationRequested: true } }));
    assert.equal(envelope.error_code, 'CANCELLED');
    assert.equal(store.writes.length, 0);
  });

  it('stops retrying a busy file once cancelled', async () => {
    const store = new MemoryStore(FILES);
    store.failOn('read', '/w/a.ts', { code: 'FILE_BUSY' });
    const cancellation = { isCancellationRequested: false };
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
      cancellation.isCancellationRequested = true;
    };
    const envelope = failureOf(await run('multi_edit', { file_path: '/w/a.ts', edits: [{ old_string: 'a', new_string: 'b' }] }, { store, sleep, cancellation }));
    assert.equal(envelope.error_code, 'CANCELLED');
    assert.deepEqual(waits, [100]);
  });
});
