// Undo and the size limit, through the real engine and the real Node store on disk: the record
// keeps the bytes each file holds after the request, undo reads a file up to that size even past
// its limit, and a file it cannot read within its limit is FILE_TOO_LARGE, never STALE_CONTENT
// (the limit stopped the read; nobody found a change), with nothing written.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runRequest } from '../../src/core/engine/engine';
import type { HistoryEntry } from '../../src/core/contract/history';
import type { EngineResponse, ErrorEnvelope, SuccessResponse } from '../../src/core/contract/schemas';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import { RequestHistory } from '../../src/shared/history/requestHistory';

interface Sandbox {
  readonly root: string;
  readonly state: string;
  readonly history: RequestHistory;
}

function sandbox(): Sandbox {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-undo-size-')));
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

function undo(box: Sandbox, options: { readonly maxFileBytes?: number; readonly dryRun?: boolean } = {}): Promise<SuccessResponse | ErrorEnvelope> {
  return box.history.undo(box.root, undefined, options.dryRun ?? false, {
    store: new NodeFileStore(), root: box.root, displayPath: (file) => path.relative(box.root, file), limits: { maxFileBytes: options.maxFileBytes ?? UNDO_LIMIT },
  });
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

describe('undo and the size limit', () => {
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

  it('a file that grew past what the request left is FILE_TOO_LARGE naming both sizes; read whole, it is STALE_CONTENT', async () => {
    const box = sandbox();
    const { file, after, id } = await largeFileEdited(box);
    fs.appendFileSync(file, '// appended by hand\n');
    const grown = fs.readFileSync(file);

    const refused = await undo(box);
    assertTooLarge(refused, file);
    assert.match(refused.message, new RegExp(`large\\.ts has more than the ${after.length} bytes the request left it with, and the size limit is ${UNDO_LIMIT} bytes`));
    assert.deepEqual(fs.readFileSync(file), grown);

    const stale = await undo(box, { maxFileBytes: grown.length });
    assert.ok(!stale.success);
    assert.equal(stale.error_code, 'STALE_CONTENT');
    assert.match(stale.message, /large\.ts was changed outside Multi-Edit/);
    assert.deepEqual(fs.readFileSync(file), grown);
    assert.equal(recordOf(box, id).entry.undone_at, undefined);
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
});
