// Undo and the files it cannot read, through the real engine and the real Node store on disk: the
// record keeps the bytes each file holds after the request, and undo reads a file up to that size
// even past its limit. A file it cannot read is STALE_CONTENT when the failure proves a change (it
// grew past that size, is a FIFO now, no longer decodes), and otherwise the read's own code
// (FILE_TOO_LARGE past a limit no kept size explains, FILE_BUSY after the retries): nobody found a
// change. Nothing is written either way.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runRequest } from '../../src/core/engine/engine';
import type { HistoryEntry } from '../../src/core/contract/history';
import type { EngineResponse, ErrorEnvelope, SuccessResponse } from '../../src/core/contract/schemas';
import type { FileStore } from '../../src/core/store/fileStore';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import { RequestHistory } from '../../src/shared/history/requestHistory';
import { CLI } from './helpers/cliRun';

const NOBODY = 65534;

interface Sandbox {
  readonly root: string;
  readonly state: string;
  readonly history: RequestHistory;
}

/** The folders of the sandboxes made, removed once the tests are over. */
const sandboxes: string[] = [];
after(() => {
  for (const base of sandboxes.splice(0)) fs.rmSync(base, { recursive: true, force: true });
});

function sandbox(): Sandbox {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-undo-unreadable-')));
  sandboxes.push(base);
  const root = path.join(base, 'project');
  fs.mkdirSync(root, { recursive: true });
  const state = path.join(base, 'state');
  return { root, state, history: new RequestHistory({ enabled: true, folder: state, bounds: { maxRequests: 100, maxBytes: 1 << 30 } }, 'cli') };
}

/** The undo's limit in these tests; the files are larger, the requests were applied with the default. */
const UNDO_LIMIT = 64 * 1024;

/** About 100 KB of lines (more than UNDO_LIMIT), the first naming `marker`. */
const largeText = (marker: string): string => `const marker = "${marker}";\n${'export const line = "café au lait";\n'.repeat(3_000)}`;

async function apply(box: Sandbox, tool: string, input: Record<string, unknown>): Promise<EngineResponse> {
  const recorded = await box.history.record(box.root, new NodeFileStore(), (file) => path.relative(box.root, file));
  const { response } = await runRequest(tool, input, { store: recorded.store, root: box.root, requestId: recorded.requestId });
  return recorded.finish(response);
}

function undo(box: Sandbox, options: { readonly maxFileBytes?: number; readonly dryRun?: boolean; readonly store?: FileStore } = {}): Promise<SuccessResponse | ErrorEnvelope> {
  return box.history.undo(box.root, undefined, options.dryRun ?? false, {
    store: options.store ?? new NodeFileStore(), root: box.root, displayPath: (file) => path.relative(box.root, file), limits: { maxFileBytes: options.maxFileBytes ?? UNDO_LIMIT },
    retry: { maxAttempts: 3, maxTotalMs: 1000 }, sleep: async () => undefined,
  });
}

function assertStale(response: SuccessResponse | ErrorEnvelope, why: RegExp): asserts response is ErrorEnvelope {
  assert.ok(!response.success, JSON.stringify(response));
  assert.equal(response.error_code, 'STALE_CONTENT', response.message);
  assert.match(response.message, why);
  assert.match(response.message, /outside Multi-Edit\. No file was changed$/);
}

/** The record of request `id` on disk, and a way to write it back changed (as an older version would have written it). */
function recordOf(box: Sandbox, id: string): { readonly entry: HistoryEntry; readonly write: (entry: HistoryEntry) => void } {
  const [folder] = fs.readdirSync(box.state);
  const file = path.join(box.state, folder, `${id}.json`);
  return { entry: JSON.parse(fs.readFileSync(file, 'utf8')) as HistoryEntry, write: (entry) => fs.writeFileSync(file, JSON.stringify(entry)) };
}

/** Applies the marker edit to a large file; returns its path, its bytes before and after, and the request id. */
async function largeFileEdited(box: Sandbox): Promise<{ file: string; before: Buffer; after: Buffer; id: string }> {
  const file = path.join(box.root, 'large.ts');
  fs.writeFileSync(file, largeText('old'));
  const before = fs.readFileSync(file);
  assert.ok(before.length > UNDO_LIMIT);
  const applied = await apply(box, 'multi_edit', { file_path: file, edits: [{ old_string: 'marker = "old"', new_string: 'marker = "newer"' }] });
  assert.ok(applied.success && applied.request_id, JSON.stringify(applied));
  return { file, before, after: fs.readFileSync(file), id: applied.request_id };
}

function assertTooLarge(response: SuccessResponse | ErrorEnvelope, file: string): asserts response is ErrorEnvelope {
  assert.ok(!response.success, JSON.stringify(response));
  assert.equal(response.error_code, 'FILE_TOO_LARGE', response.message);
  assert.equal(response.category, 'filesystem');
  assert.equal(response.file_path, file);
  assert.doesNotMatch(response.message, /outside Multi-Edit|changed since it was applied/);
  assert.match(response.message, /No file was changed$/);
  assert.ok(response.recovery_hints.some((hint) => hint.includes('--max-file-size')), response.recovery_hints.join(' | '));
}

describe('undo and the files it cannot read', () => {
  it('the record keeps the bytes each file holds after the request: UTF-8 with a BOM, UTF-16 and an added file exactly, another encoding not at all', async () => {
    const box = sandbox();
    const utf8 = path.join(box.root, 'bom.ts');
    const utf16 = path.join(box.root, 'wide.txt');
    const latin1 = path.join(box.root, 'latin.txt');
    fs.writeFileSync(utf8, `\uFEFFconst name = "café";\n`);
    fs.writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('naïve = 1\r\n', 'utf16le')]));
    fs.writeFileSync(latin1, Buffer.from('cr\xe8me = 1\n', 'latin1'));
    const applied = await apply(box, 'multi_edit_files', {
      files: [
        { file_path: utf8, edits: [{ old_string: '"café"', new_string: '"crème brûlée 🍮"' }] },
        { file_path: utf16, edits: [{ old_string: 'naïve = 1', new_string: 'naïveté = 22' }] },
        { file_path: latin1, encoding: 'iso-8859-1', edits: [{ old_string: 'crème = 1', new_string: 'crème = 2' }] },
      ],
    });
    assert.ok(applied.success && applied.request_id, JSON.stringify(applied));
    const added = await apply(box, 'multi_edit_patch', { patch: '*** Begin Patch\n*** Add File: added.ts\n+export const déjà = "vu";\n*** End Patch' });
    assert.ok(added.success && added.request_id, JSON.stringify(added));

    const files = recordOf(box, applied.request_id).entry.files;
    const bytesAfter = (file: string): number | undefined => files.find((kept) => kept.path === file)?.after?.bytes;
    assert.equal(bytesAfter(utf8), fs.statSync(utf8).size);
    assert.equal(bytesAfter(utf16), fs.statSync(utf16).size);
    assert.equal(bytesAfter(latin1), undefined);
    assert.equal(recordOf(box, added.request_id).entry.files[0].after?.bytes, fs.statSync(path.join(box.root, 'added.ts')).size);
  });

  it('undo reads a file up to the size the request left it at, past its limit, and restores it byte for byte', async () => {
    const box = sandbox();
    const { file, before, after, id } = await largeFileEdited(box);
    assert.equal(recordOf(box, id).entry.files[0].after?.bytes, after.length);
    const undone = await undo(box);
    assert.ok(undone.success, JSON.stringify(undone));
    assert.equal(undone.undone_request_id, id);
    assert.deepEqual(fs.readFileSync(file), before);
  });

  it('a record without that size is FILE_TOO_LARGE, not STALE_CONTENT, in a dry run too; nothing is written; a limit that covers the file undoes it', async () => {
    const box = sandbox();
    const { file, before, after, id } = await largeFileEdited(box);
    const record = recordOf(box, id);
    record.write({ ...record.entry, files: record.entry.files.map((kept) => ({ ...kept, after: kept.after && { ...kept.after, bytes: undefined } })) });

    for (const dryRun of [true, false]) {
      const refused = await undo(box, { dryRun });
      assertTooLarge(refused, file);
      assert.equal(refused.dry_run, dryRun);
      assert.match(refused.message, new RegExp(`^Cannot undo request ${id}: large\\.ts has more than ${UNDO_LIMIT} bytes, the size limit, so whether it changed since could not be checked`));
      assert.deepEqual(fs.readFileSync(file), after);
    }
    assert.equal(recordOf(box, id).entry.undone_at, undefined, 'the request is still undoable');

    const undone = await undo(box, { maxFileBytes: after.length });
    assert.ok(undone.success, JSON.stringify(undone));
    assert.deepEqual(fs.readFileSync(file), before);
  });

  it('a file that grew past what the request left is STALE_CONTENT at once, naming the size; read whole, it is changed all the same', async () => {
    const box = sandbox();
    const { file, after, id } = await largeFileEdited(box);
    fs.appendFileSync(file, '// appended by hand\n');
    const grown = fs.readFileSync(file);

    assertStale(await undo(box), new RegExp(`large\\.ts grew past the ${after.length} bytes the request left it with outside Multi-Edit`));
    assert.deepEqual(fs.readFileSync(file), grown);

    assertStale(await undo(box, { maxFileBytes: grown.length }), /large\.ts was changed outside Multi-Edit/);
    assert.deepEqual(fs.readFileSync(file), grown);
    assert.equal(recordOf(box, id).entry.undone_at, undefined);
  });

  it('a file that is a FIFO now, or no longer decodes, is STALE_CONTENT with the read\'s reason; nothing is written', async () => {
    const box = sandbox();
    const { file, id } = await largeFileEdited(box);
    fs.rmSync(file);
    execFileSync('mkfifo', [file]);
    assertStale(await undo(box), /large\.ts was changed \(the path is a FIFO[^)]*\) outside Multi-Edit/);
    assert.ok(fs.statSync(file).isFIFO(), 'the FIFO is left as it was');

    fs.rmSync(file);
    fs.writeFileSync(file, Buffer.concat([Buffer.from('const marker = "newer";\n'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])]));
    assertStale(await undo(box), /large\.ts was changed \(the file is text, but not UTF-8[^)]*\) outside Multi-Edit/);
    assert.equal(recordOf(box, id).entry.undone_at, undefined, 'the request is still undoable');
  });

  it('a file busy past the retries is FILE_BUSY, not STALE_CONTENT; busy for less, it is waited for and undone', async () => {
    const box = sandbox();
    const { file, before } = await largeFileEdited(box);
    // The Node store cannot make a file busy on Linux (no mandatory locks): this one answers as Windows does for a file another process holds open.
    let busyReads = 0;
    const busyFor = (reads: number): FileStore => {
      const inner = new NodeFileStore();
      busyReads = 0;
      return Object.assign(Object.create(inner) as FileStore, {
        read: (...args: Parameters<FileStore['read']>) => (args[0] === file && busyReads++ < reads
          ? Promise.resolve({ ok: false as const, code: 'FILE_BUSY' as const, detail: 'another process has the file open' })
          : inner.read(...args)),
      });
    };
    const refused = await undo(box, { store: busyFor(10), maxFileBytes: 1 << 20 });
    assert.ok(!refused.success);
    assert.equal(refused.error_code, 'FILE_BUSY', refused.message);
    assert.match(refused.message, /large\.ts cannot be read \(another process has the file open\), so whether it changed since could not be checked\. No file was changed$/);
    assert.equal(busyReads, 3, 'read as often as the retry policy allows');
    assert.notDeepEqual(fs.readFileSync(file), before);

    const undone = await undo(box, { store: busyFor(2), maxFileBytes: 1 << 20 });
    assert.ok(undone.success, JSON.stringify(undone));
    assert.deepEqual(fs.readFileSync(file), before);
  });

  it('a file too large to read where the request deleted one is STALE_CONTENT: it exists again, whatever its size', async () => {
    const box = sandbox();
    const file = path.join(box.root, 'gone.ts');
    fs.writeFileSync(file, largeText('gone'));
    const applied = await apply(box, 'multi_edit_patch', { patch: '*** Begin Patch\n*** Delete File: gone.ts\n*** End Patch' });
    assert.ok(applied.success, JSON.stringify(applied));
    fs.writeFileSync(file, largeText('back'));

    const refused = await undo(box);
    assert.ok(!refused.success);
    assert.equal(refused.error_code, 'STALE_CONTENT');
    assert.match(refused.message, /gone\.ts exists again outside Multi-Edit/);
    assert.equal(fs.readFileSync(file, 'utf8'), largeText('back'));
  });

  it('the CLI, as a user who may not read the file any more: PERMISSION_DENIED, nothing written; readable again, undone', function () {
    // Root reads any file: as root, the CLI runs as nobody, from a copy of dist/ that nobody can load.
    const asRoot = process.getuid?.() === 0;
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-undo-denied-')));
    try {
      fs.chmodSync(base, 0o755);
      const dist = path.join(base, 'dist');
      fs.cpSync(path.dirname(CLI), dist, { recursive: true, filter: (source) => !source.endsWith('.map') && !source.includes(`${path.sep}tree-sitter`) });
      const root = path.join(base, 'project');
      const state = path.join(base, 'state');
      fs.mkdirSync(root);
      fs.mkdirSync(state);
      const file = path.join(root, 'app.ts');
      fs.writeFileSync(file, 'export const retries = 3;\n');
      if (asRoot) {
        for (const owned of [root, state, file]) fs.chownSync(owned, NOBODY, NOBODY);
      }
      const cli = (...args: string[]): { status: number | null; stdout: string } => spawnSync(process.execPath, [path.join(dist, 'cli.js'), ...args, '--format', 'json'], {
        cwd: root, encoding: 'utf8', env: { ...process.env, MULTI_EDIT_HISTORY_DIR: state }, ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
      });
      fs.writeFileSync(path.join(base, 'request.json'), JSON.stringify({ file_path: file, edits: [{ old_string: 'retries = 3', new_string: 'retries = 5' }] }));
      assert.equal(cli('apply', '--syntax-check', 'off', path.join(base, 'request.json')).status, 0);
      fs.chmodSync(file, 0o000);

      const refused = cli('undo');
      assert.equal(refused.status, 1, refused.stdout);
      const envelope = JSON.parse(refused.stdout) as ErrorEnvelope;
      assert.equal(envelope.error_code, 'PERMISSION_DENIED', envelope.message);
      assert.match(envelope.message, /app\.ts cannot be read \([^)]*\), so whether it changed since could not be checked\. No file was changed$/);
      fs.chmodSync(file, 0o644);
      assert.equal(fs.readFileSync(file, 'utf8'), 'export const retries = 5;\n');

      const undone = cli('undo');
      assert.equal(undone.status, 0, undone.stdout);
      assert.equal(fs.readFileSync(file, 'utf8'), 'export const retries = 3;\n');
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
