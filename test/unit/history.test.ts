// The history of applied requests and undo, through the real engine and the real Node
// store on disk: a patch that updates, adds, deletes and moves files (CRLF, BOM, an
// executable file) is undone byte for byte; a file changed since refuses the undo and
// changes nothing; later-then-earlier undo restores the first state; bounds evict the
// oldest; the history folder is owner-only; no history is written when it is off.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { runRequest } from '../../src/core/engine/engine';
import type { EngineResponse, ErrorEnvelope, SuccessResponse } from '../../src/core/contract/schemas';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import { HistoryBook, type HistorySettings, sha256Text } from '../../src/shared/history/historyBook';
import { wholeText } from '../../src/core/text/editedText';
import { RequestHistory } from '../../src/shared/history/requestHistory';

interface Sandbox {
  readonly root: string;
  readonly state: string;
}

/** The folders of the sandboxes made, removed once the tests are over. */
const sandboxes: string[] = [];
after(() => {
  for (const base of sandboxes.splice(0)) fs.rmSync(base, { recursive: true, force: true });
});

function sandbox(): Sandbox {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-history-')));
  sandboxes.push(base);
  const root = path.join(base, 'project');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  return { root, state: path.join(base, 'state') };
}

function settings(box: Sandbox, overrides: Partial<HistorySettings['bounds']> & { enabled?: boolean } = {}): HistorySettings {
  return { enabled: overrides.enabled ?? true, folder: box.state, bounds: { maxRequests: overrides.maxRequests ?? 100, maxBytes: overrides.maxBytes ?? 1 << 30 } };
}

/** Every file under the root, with its bytes and mode, so two states compare whole. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).sort()) {
    const file = path.join(root, name);
    const stats = fs.statSync(file);
    if (stats.isFile()) {
      files[name] = `${(stats.mode & 0o777).toString(8)} ${fs.readFileSync(file).toString('hex')}`;
    }
  }
  return files;
}

async function applyPatch(history: RequestHistory, root: string, patch: string): Promise<EngineResponse> {
  const recorded = await history.record(root, new NodeFileStore(), (file) => path.relative(root, file));
  const { response } = await runRequest('multi_edit_patch', { patch }, { store: recorded.store, root, requestId: recorded.requestId });
  return recorded.finish(response);
}

function undo(history: RequestHistory, root: string, id?: string, dryRun = false): Promise<SuccessResponse | ErrorEnvelope> {
  return history.undo(root, id, dryRun, { store: new NodeFileStore(), root });
}

const FOUR_OPERATIONS = [
  '*** Begin Patch',
  '*** Update File: src/crlf.ts',
  '@@',
  '-const a = 1;',
  '+const a = 2;',
  '*** Add File: src/added.ts',
  '+export const added = true;',
  '*** Delete File: src/deleted.ts',
  '*** Update File: src/tool.sh',
  '@@',
  '-echo old',
  '+echo new',
  '*** Update File: src/old-name.ts',
  '*** Move to: src/new-name.ts',
  '@@',
  '-export const name = "old";',
  '+export const name = "new";',
  '*** End Patch',
].join('\n');

function writeFixtures(root: string): void {
  fs.writeFileSync(path.join(root, 'src/crlf.ts'), '\uFEFFconst a = 1;\r\nconst b = 2;\r\n');
  fs.writeFileSync(path.join(root, 'src/deleted.ts'), '\uFEFFexport const gone = 1;\r\n');
  fs.writeFileSync(path.join(root, 'src/tool.sh'), '#!/bin/sh\necho old\n', { mode: 0o755 });
  fs.chmodSync(path.join(root, 'src/tool.sh'), 0o755);
  fs.writeFileSync(path.join(root, 'src/old-name.ts'), 'export const name = "old";\n');
}

describe('history and undo', () => {
  it('a patch of every operation (CRLF, BOM, an executable file) gets a request_id, and undo restores every file byte for byte', async () => {
    const box = sandbox();
    writeFixtures(box.root);
    const before = snapshot(box.root);
    const history = new RequestHistory(settings(box), 'cli');
    const applied = await applyPatch(history, box.root, FOUR_OPERATIONS);
    assert.ok(applied.success, JSON.stringify(applied));
    assert.match(applied.request_id ?? '', /^\d{8}T\d{9}-[0-9a-z]{6}$/);
    assert.notDeepEqual(snapshot(box.root), before);

    const preview = await undo(history, box.root, undefined, true);
    assert.ok(preview.success, JSON.stringify(preview));
    assert.equal(preview.files.length, 5);
    assert.ok(preview.files.every((file) => typeof file.diff === 'string'));
    assert.notDeepEqual(snapshot(box.root), before, 'a dry run writes nothing');

    const undone = await undo(history, box.root);
    assert.ok(undone.success, JSON.stringify(undone));
    assert.equal(undone.undone_request_id, applied.request_id);
    assert.deepEqual(snapshot(box.root), before);
    assert.equal(undone.request_id, undefined, 'an undo is not itself a request of the history');
  });

  it('a dry run gets no request_id and writes no history', async () => {
    const box = sandbox();
    writeFixtures(box.root);
    const history = new RequestHistory(settings(box), 'cli');
    const recorded = await history.record(box.root, new NodeFileStore(), (file) => file);
    const { response } = await runRequest('multi_edit_patch', { patch: FOUR_OPERATIONS, dry_run: true }, { store: recorded.store, root: box.root, requestId: recorded.requestId });
    assert.ok(response.success);
    assert.equal(response.request_id, undefined);
    assert.deepEqual(await history.list(box.root, new NodeFileStore(), 10), []);
  });

  it('undo of a file changed since is refused with STALE_CONTENT naming the file and the later request, and changes nothing', async () => {
    const box = sandbox();
    const file = path.join(box.root, 'src/a.ts');
    fs.writeFileSync(file, 'one\ntwo\n');
    const history = new RequestHistory(settings(box), 'mcp');
    const first = await applyPatch(history, box.root, '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n+ONE\n*** End Patch');
    const second = await applyPatch(history, box.root, '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-two\n+TWO\n*** End Patch');
    assert.ok(first.success && second.success);
    const now = snapshot(box.root);
    const refused = await undo(history, box.root, first.request_id);
    assert.equal(refused.success, false);
    assert.ok(!refused.success);
    assert.equal(refused.error_code, 'STALE_CONTENT');
    assert.equal(refused.file_path, file);
    assert.match(refused.message, new RegExp(`a\\.ts was changed by request ${second.request_id}`));
    assert.equal(refused.next_action.action, 'ask_user');
    assert.ok(refused.recovery_hints.some((hint) => hint.includes(second.request_id ?? '?')));
    assert.deepEqual(snapshot(box.root), now);

    fs.appendFileSync(file, 'by hand\n');
    const outside = await undo(history, box.root);
    assert.ok(!outside.success);
    assert.match(outside.message, /changed outside Multi-Edit/);
  });

  it('undoing the later request, then the earlier one, restores the first state; the default takes the latest not yet undone', async () => {
    const box = sandbox();
    fs.writeFileSync(path.join(box.root, 'src/a.ts'), 'one\ntwo\n');
    const first = snapshot(box.root);
    const history = new RequestHistory(settings(box), 'cli');
    assert.ok((await applyPatch(history, box.root, '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n+ONE\n*** End Patch')).success);
    assert.ok((await applyPatch(history, box.root, '*** Begin Patch\n*** Add File: src/b.ts\n+b\n*** End Patch')).success);
    assert.ok((await undo(history, box.root)).success);
    assert.ok((await undo(history, box.root)).success);
    assert.deepEqual(snapshot(box.root), first);
    const none = await undo(history, box.root);
    assert.ok(!none.success);
    assert.equal(none.error_code, 'VALIDATION_FAILED');
    assert.match(none.message, /every request kept there was undone already/);
  });

  it('the history survives a new process (a new RequestHistory) and is listed newest first', async () => {
    const box = sandbox();
    fs.writeFileSync(path.join(box.root, 'src/a.ts'), 'one\n');
    const applied = await applyPatch(new RequestHistory(settings(box), 'mcp'), box.root, '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n+ONE\n*** End Patch');
    assert.ok(applied.success);
    const later = new RequestHistory(settings(box), 'cli');
    const listed = await later.list(box.root, new NodeFileStore(), 10);
    assert.deepEqual(listed.map((entry) => [entry.request_id, entry.surface, entry.summary]), [[applied.request_id, 'mcp', 'src/a.ts updated']]);
    assert.ok((await undo(later, box.root, applied.request_id)).success);
    assert.equal(fs.readFileSync(path.join(box.root, 'src/a.ts'), 'utf8'), 'one\n');
  });

  it('keeps at most maxRequests records and maxBytes of them, the oldest going first', async () => {
    const box = sandbox();
    fs.writeFileSync(path.join(box.root, 'src/a.ts'), 'x\n');
    const byCount = new RequestHistory(settings(box, { maxRequests: 3 }), 'cli');
    const ids: string[] = [];
    for (let round = 0; round < 5; round++) {
      const response = await applyPatch(byCount, box.root, `*** Begin Patch\n*** Update File: src/a.ts\n@@\n-${round === 0 ? 'x' : `r${round - 1}`}\n+r${round}\n*** End Patch`);
      assert.ok(response.success, JSON.stringify(response));
      ids.push(response.request_id ?? '');
    }
    assert.deepEqual((await byCount.list(box.root, new NodeFileStore(), 10)).map((entry) => entry.request_id), ids.slice(2).reverse());

    const bySize = sandbox();
    fs.writeFileSync(path.join(bySize.root, 'src/big.txt'), `${'y'.repeat(40_000)}\n`);
    const small = new RequestHistory(settings(bySize, { maxBytes: 100_000 }), 'cli');
    for (let round = 0; round < 4; round++) {
      assert.ok((await applyPatch(small, bySize.root, `*** Begin Patch\n*** Add File: src/n${round}.txt\n+n\n*** Update File: src/big.txt\n@@\n-${round === 0 ? 'y'.repeat(40_000) : `z${round - 1}`}\n+z${round}\n*** End Patch`)).success);
    }
    const folder = fs.readdirSync(bySize.state).map((name) => path.join(bySize.state, name))[0];
    const total = fs.readdirSync(folder).filter((name) => name.endsWith('.json')).reduce((sum, name) => sum + fs.statSync(path.join(folder, name)).size, 0);
    assert.ok(total <= 100_000, `the history holds ${total} bytes`);
    assert.ok((await small.list(bySize.root, new NodeFileStore(), 10)).length >= 1);
  });

  it('a request larger than the bound is applied with a HISTORY_NOT_KEPT warning', async () => {
    const box = sandbox();
    fs.writeFileSync(path.join(box.root, 'src/big.txt'), `${'y'.repeat(10_000)}\n`);
    const history = new RequestHistory(settings(box, { maxBytes: 1_000 }), 'cli');
    const response = await applyPatch(history, box.root, `*** Begin Patch\n*** Update File: src/big.txt\n@@\n-${'y'.repeat(10_000)}\n+short\n*** End Patch`);
    assert.ok(response.success);
    assert.deepEqual(response.warnings?.map((warning) => warning.code), ['HISTORY_NOT_KEPT']);
  });

  it('with history off, nothing is written to the state folder', async () => {
    const box = sandbox();
    fs.writeFileSync(path.join(box.root, 'src/a.ts'), 'one\n');
    const response = await applyPatch(new RequestHistory(settings(box, { enabled: false }), 'cli'), box.root, '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n+ONE\n*** End Patch');
    assert.ok(response.success);
    assert.ok(response.request_id, 'the id is given whether or not it is kept');
    assert.equal(fs.existsSync(box.state), false);
  });

  it('the history folder and its records are owner-only', async function () {
    if (process.platform === 'win32') this.skip();
    const box = sandbox();
    fs.writeFileSync(path.join(box.root, 'src/a.ts'), 'one\n');
    assert.ok((await applyPatch(new RequestHistory(settings(box), 'cli'), box.root, '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n+ONE\n*** End Patch')).success);
    const folder = path.join(box.state, fs.readdirSync(box.state)[0]);
    assert.equal(fs.statSync(box.state).mode & 0o777, 0o700);
    assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
    for (const name of fs.readdirSync(folder)) {
      assert.equal(fs.statSync(path.join(folder, name)).mode & 0o777, 0o600, name);
    }
  });

  it('a record left pending by a crash is kept when the files hold the request, and dropped when they do not', async () => {
    const box = sandbox();
    const file = path.join(box.root, 'src/a.ts');
    fs.writeFileSync(file, 'one\n');
    const book = await HistoryBook.open(settings(box), box.root);
    const files = [{ path: file, operation: 'update' as const, before: { text: 'one\n', bom: false }, after: { sha256: sha256Text(wholeText('ONE\n')), bom: false } }];
    await book.begin({ request_id: '20260101T000000000-aaaaaa', time: '2026-01-01T00:00:00.000Z', surface: 'cli', summary: 'src/a.ts updated', files });
    fs.writeFileSync(file, 'ONE\n');
    await book.begin({ request_id: '20260101T000000001-bbbbbb', time: '2026-01-01T00:00:00.001Z', surface: 'cli', summary: 'never applied', files: [{ ...files[0], before: { text: 'ONE\n', bom: false }, after: { sha256: 'not-the-file', bom: false } }] });
    const history = new RequestHistory(settings(box), 'cli');
    const listed = await history.list(box.root, new NodeFileStore(), 10);
    assert.deepEqual(listed.map((entry) => entry.request_id), ['20260101T000000000-aaaaaa']);
    const folder = path.join(box.state, fs.readdirSync(box.state)[0]);
    assert.deepEqual(fs.readdirSync(folder).filter((name) => name.includes('pending')), []);
  });
});

describe('history: the order of requests', () => {
  it('is the order they committed in: a request that started first but committed last is the one undo takes back first', async () => {
    const box = sandbox();
    const file = path.join(box.root, 'a.txt');
    fs.writeFileSync(file, 'one two\n');
    const book = await HistoryBook.open(settings(box), box.root);
    // Request ...aaaaaa started first, but waited for the file's lock: ...bbbbbb committed "two" to "2" before it.
    const byLater = { path: file, operation: 'update' as const, before: { text: 'one two\n', bom: false }, after: { sha256: sha256Text(wholeText('one 2\n')), bom: false } };
    await book.begin({ request_id: '20260101T000000001-bbbbbb', time: '2026-01-01T00:00:01.000Z', surface: 'cli', summary: 'a.txt updated', files: [byLater] });
    await book.commit('20260101T000000001-bbbbbb');
    const byEarlier = { ...byLater, before: { text: 'one 2\n', bom: false }, after: { sha256: sha256Text(wholeText('1 2\n')), bom: false } };
    await book.begin({ request_id: '20260101T000000000-aaaaaa', time: '2026-01-01T00:00:02.000Z', surface: 'cli', summary: 'a.txt updated', files: [byEarlier] });
    await book.commit('20260101T000000000-aaaaaa');
    fs.writeFileSync(file, '1 2\n');
    const history = new RequestHistory(settings(box), 'cli');
    const store = new NodeFileStore();
    assert.deepEqual((await history.list(box.root, store, 10)).map((entry) => entry.request_id), ['20260101T000000000-aaaaaa', '20260101T000000001-bbbbbb']);
    const first = await history.undo(box.root, undefined, false, { store });
    assert.equal(first.success, true, JSON.stringify(first));
    assert.equal(fs.readFileSync(file, 'utf8'), 'one 2\n');
    const second = await history.undo(box.root, undefined, false, { store });
    assert.equal(second.success, true, JSON.stringify(second));
    assert.equal(fs.readFileSync(file, 'utf8'), 'one two\n');
  });
});

describe('history: the digest of a text', () => {
  const whole = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
  const MIB = 1 << 20;

  it('is the SHA-256 of its UTF-8 bytes, with a surrogate pair, a lone surrogate or a CRLF where a slice of the hashing ends', () => {
    for (const around of ['😀', '\ud83d', '\ude00', '\ud83d\ud83d\ude00', '\r\n', 'é']) {
      for (const shift of [-2, -1, 0, 1]) {
        const text = `${'a'.repeat(MIB + shift)}${around}${'b'.repeat(3)}`;
        assert.equal(sha256Text(wholeText(text)), whole(text), `${JSON.stringify(around)} at ${MIB + shift}`);
      }
    }
  });

  it('agrees with hashing the whole string on random texts of several slices', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('\ud83d', '\ude00', '😀')), { minLength: 1, maxLength: 8 }), fc.nat(3), (parts, slices) => {
      const text = `${'x'.repeat(Math.max(0, slices * MIB - 1))}${parts.join('')}`;
      return sha256Text(wholeText(text)) === whole(text);
    }), { numRuns: 25 });
  });
});
