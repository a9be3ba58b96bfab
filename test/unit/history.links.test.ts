// A large file's text before a request is kept by a hard link to its old inode, not copied
// into the record: the link is the very inode the request found, undo reads it back in the
// file's encoding (Latin-1, a UTF-8 BOM, UTF-16) and restores the bytes, and the link goes
// with its record (refused, evicted, over the bound). Where no link can be made (another
// device, a file with other names, a store that makes none, as VS Code's) a UTF-8 text is
// written beside the record as the file's bytes; any other text is copied in, as a small file's.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runRequest } from '../../src/core/engine/engine';
import type { EngineResponse, SuccessResponse, ErrorEnvelope } from '../../src/core/contract/schemas';
import type { HistoryEntry } from '../../src/core/contract/history';
import { nodeSyntaxGate } from '../../src/node/host/nodeSyntaxGate';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import { HistoryBook, type HistorySettings, sha256Text } from '../../src/shared/history/historyBook';
import { wholeText } from '../../src/core/text/editedText';
import { RequestHistory } from '../../src/shared/history/requestHistory';
import { StoreWithoutLinks } from './helpers/storeWithoutLinks';

interface Box {
  readonly root: string;
  readonly state: string;
}

/** The folders of the boxes made, removed once the tests are over. */
const boxes: string[] = [];
after(() => {
  for (const folder of boxes.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function box(stateParent?: string): Box {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-history-links-')));
  const root = path.join(base, 'project');
  fs.mkdirSync(root, { recursive: true });
  const state = stateParent ? fs.mkdtempSync(path.join(stateParent, 'multi-edit-history-state-')) : path.join(base, 'state');
  boxes.push(base, state);
  return { root, state };
}

function historyOf(where: Box, bounds: Partial<HistorySettings['bounds']> = {}): RequestHistory {
  return new RequestHistory({ enabled: true, folder: where.state, bounds: { maxRequests: bounds.maxRequests ?? 100, maxBytes: bounds.maxBytes ?? 1 << 30 } }, 'cli');
}

/** The CLI's gate: a refused edit is refused while the store has staged it and the record is pending. */
const { checker } = nodeSyntaxGate('refuse', () => undefined);

/** 100 KB of lines, the first naming `marker`. */
const largeText = (marker: string, lineBreak = '\n'): string => `const marker = "${marker}";${lineBreak}${`export const line = "café au lait";${lineBreak}`.repeat(3_000)}`;

async function edit(history: RequestHistory, where: Box, file: string, oldString: string, newString: string, extra: Record<string, unknown> = {}, store: NodeFileStore = new NodeFileStore()): Promise<EngineResponse> {
  const recorded = await history.record(where.root, store, (name) => path.relative(where.root, name));
  const { response } = await runRequest('multi_edit', { file_path: file, edits: [{ old_string: oldString, new_string: newString }], ...extra }, { store: recorded.store, root: where.root, requestId: recorded.requestId, syntaxChecker: checker });
  return recorded.finish(response);
}

function undo(history: RequestHistory, where: Box, id?: string, store: NodeFileStore = new NodeFileStore()): Promise<SuccessResponse | ErrorEnvelope> {
  return history.undo(where.root, id, false, { store, root: where.root });
}

/** The history folder of the box's root, and what it holds. */
function historyFolder(where: Box): { folder: string; names: string[] } {
  const [digest] = fs.readdirSync(where.state);
  const folder = path.join(where.state, digest);
  return { folder, names: fs.readdirSync(folder).sort() };
}

const originals = (where: Box): string[] => historyFolder(where).names.filter((name) => name.endsWith('.original'));

async function entries(history: RequestHistory, where: Box): Promise<HistoryEntry[]> {
  return history.list(where.root, new NodeFileStore(), 100);
}

/** A large file edited (old to new) with its history kept in a new box. */
async function largeFileEdited(): Promise<{ where: Box; file: string; history: RequestHistory }> {
  const where = box();
  const file = path.join(where.root, 'large.ts');
  fs.writeFileSync(file, largeText('old'));
  const history = historyOf(where);
  const applied = await edit(history, where, file, 'marker = "old"', 'marker = "new"');
  assert.ok(applied.success, JSON.stringify(applied));
  return { where, file, history };
}

describe('history: large texts kept by a link', () => {
  it('links the inode the request found, keeps the record small, and undo restores the bytes', async () => {
    const where = box();
    const file = path.join(where.root, 'large.ts');
    fs.writeFileSync(file, largeText('old'));
    const inode = fs.statSync(file).ino;
    const history = historyOf(where);
    const applied = await edit(history, where, file, 'marker = "old"', 'marker = "new"');
    assert.ok(applied.success, JSON.stringify(applied));
    assert.notEqual(fs.statSync(file).ino, inode, 'the store renamed a new file over the path');
    const [linked] = originals(where);
    assert.equal(fs.statSync(path.join(historyFolder(where).folder, linked)).ino, inode);
    const [record] = historyFolder(where).names.filter((name) => name.endsWith('.json') && !name.endsWith('.pending.json'));
    assert.ok(fs.statSync(path.join(historyFolder(where).folder, record)).size < 2_000, 'the record holds no copy of the text');
    const [entry] = await entries(history, where);
    assert.equal(entry.files[0].before?.text, undefined);
    assert.equal(entry.files[0].before?.original, linked);

    const undone = await undo(history, where);
    assert.ok(undone.success, JSON.stringify(undone));
    assert.equal(fs.readFileSync(file, 'utf8'), largeText('old'));
  });

  for (const [name, encode, extra] of [
    ['Latin-1 with CRLF', (text: string) => Buffer.from(text.replace(/\n/g, '\r\n'), 'latin1'), { encoding: 'iso-8859-1' }],
    ['UTF-8 with a BOM', (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]), {}],
    ['UTF-16 LE with a BOM', (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), {}],
  ] as const) {
    it(`undo reads a linked ${name} file back in its encoding and restores its bytes`, async () => {
      const where = box();
      const file = path.join(where.root, 'encoded.txt');
      const bytes = encode(largeText('old'));
      fs.writeFileSync(file, bytes);
      const history = historyOf(where);
      const applied = await edit(history, where, file, 'marker = "old"', 'marker = "new"', extra);
      assert.ok(applied.success, JSON.stringify(applied));
      assert.equal(originals(where).length, 1);
      assert.ok(!fs.readFileSync(file).equals(bytes));
      const undone = await undo(history, where);
      assert.ok(undone.success, JSON.stringify(undone));
      assert.ok(fs.readFileSync(file).equals(bytes), 'the bytes are back, BOM and line breaks included');
    });
  }

  it('a large file deleted and one moved by a patch are kept by links, and undo brings both back byte for byte', async () => {
    const where = box();
    const deleted = path.join(where.root, 'deleted.ts');
    const moved = path.join(where.root, 'moved-from.ts');
    fs.writeFileSync(deleted, largeText('deleted', '\r\n'));
    fs.writeFileSync(moved, `\uFEFF${largeText('moved')}`);
    const before = { deleted: fs.readFileSync(deleted), moved: fs.readFileSync(moved) };
    const history = historyOf(where);
    const recorded = await history.record(where.root, new NodeFileStore(), (name) => path.relative(where.root, name));
    const patch = ['*** Begin Patch', '*** Delete File: deleted.ts', '*** Update File: moved-from.ts', '*** Move to: moved-to.ts', '@@', '-const marker = "moved";', '+const marker = "arrived";', '*** End Patch'].join('\n');
    const applied = recorded.finish((await runRequest('multi_edit_patch', { patch }, { store: recorded.store, root: where.root, requestId: recorded.requestId })).response);
    assert.ok(applied.success, JSON.stringify(applied));
    assert.ok(!fs.existsSync(deleted) && !fs.existsSync(moved));
    assert.equal(originals(where).length, 2);
    const undone = await undo(history, where);
    assert.ok(undone.success, JSON.stringify(undone));
    assert.ok(fs.readFileSync(deleted).equals(before.deleted) && fs.readFileSync(moved).equals(before.moved), 'both files are back, CRLF and BOM included');
    assert.ok(!fs.existsSync(path.join(where.root, 'moved-to.ts')));
  });

  it('a small file stays in the record; a large one with another hard link, or on another device than the history, is copied beside it as its bytes', async () => {
    const where = box();
    const small = path.join(where.root, 'small.ts');
    fs.writeFileSync(small, 'const marker = "old";\n');
    const shared = path.join(where.root, 'shared.ts');
    fs.writeFileSync(shared, largeText('old'));
    const sharedInode = fs.statSync(shared).ino;
    fs.linkSync(shared, path.join(where.root, 'other-name.ts'));
    const history = historyOf(where);
    for (const file of [small, shared]) {
      const applied = await edit(history, where, file, 'marker = "old"', 'marker = "new"');
      assert.ok(applied.success, JSON.stringify(applied));
    }
    const [copy] = originals(where);
    const copyPath = path.join(historyFolder(where).folder, copy);
    assert.notEqual(fs.statSync(copyPath).ino, sharedInode, 'a copy, not a link: the file keeps its other name');
    assert.ok(fs.readFileSync(copyPath).equals(Buffer.from(largeText('old'), 'utf8')));
    const [sharedEntry, smallEntry] = await entries(history, where);
    assert.equal(smallEntry.files[0].before?.text, 'const marker = "old";\n');
    assert.deepEqual({ text: sharedEntry.files[0].before?.text, original: sharedEntry.files[0].before?.original }, { text: undefined, original: copy });
    assert.ok((await undo(history, where)).success);
    assert.equal(fs.readFileSync(shared, 'utf8'), largeText('old'));

    const shm = '/dev/shm';
    if (fs.existsSync(shm) && fs.statSync(shm).dev !== fs.statSync(where.root).dev) {
      const across = box(shm);
      const file = path.join(across.root, 'large.ts');
      fs.writeFileSync(file, largeText('old'));
      const elsewhere = historyOf(across);
      assert.ok((await edit(elsewhere, across, file, 'marker = "old"', 'marker = "new"')).success);
      assert.equal(originals(across).length, 1);
      assert.ok((await undo(elsewhere, across)).success);
      assert.equal(fs.readFileSync(file, 'utf8'), largeText('old'));
    }
  });

  for (const [name, bytes] of [
    ['with a BOM and CRLF', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(largeText('old', '\r\n'), 'utf8')])],
    // Characters of 1 to 4 bytes; the pair of surrogates after "x" starts at unit 65,535, where a slice of 64 K units would part it.
    ['with characters of every UTF-8 length, past 1 MB', Buffer.from(`const marker = "old";\n${'é€'.repeat(32_756)}x😀${'a 😀 б\n'.repeat(200_000)}`, 'utf8')],
  ] as const) {
    it(`where the store makes no link, a UTF-8 file ${name} is written beside the record byte for byte, and undo restores it`, async () => {
      const where = box();
      const file = path.join(where.root, 'document.txt');
      fs.writeFileSync(file, bytes);
      const history = historyOf(where);
      const applied = await edit(history, where, file, 'marker = "old"', 'marker = "new"', {}, new StoreWithoutLinks());
      assert.ok(applied.success, JSON.stringify(applied));
      const [copy] = originals(where);
      assert.ok(fs.readFileSync(path.join(historyFolder(where).folder, copy)).equals(bytes), 'the copy holds the bytes the file held');
      const [entry] = await entries(history, where);
      assert.equal(entry.files[0].before?.sha256, sha256Text(wholeText(new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes))), 'the digest is the text\'s, as a link\'s is');
      const undone = await undo(history, where, undefined, new StoreWithoutLinks());
      assert.ok(undone.success, JSON.stringify(undone));
      assert.ok(fs.readFileSync(file).equals(bytes));
    });
  }

  it('where the store makes no link, a Latin-1 text and a text with a lone surrogate stay in the record', async () => {
    const where = box();
    const latin1 = path.join(where.root, 'latin1.txt');
    fs.writeFileSync(latin1, Buffer.from(largeText('old'), 'latin1'));
    const history = historyOf(where);
    assert.ok((await edit(history, where, latin1, 'marker = "old"', 'marker = "new"', { encoding: 'iso-8859-1' }, new StoreWithoutLinks())).success);
    assert.deepEqual(originals(where), []);
    assert.equal((await entries(history, where))[0].files[0].before?.text, largeText('old'));

    // UTF-8 would write a lone surrogate as U+FFFD; a document can hold one that its file cannot.
    const book = await HistoryBook.open({ enabled: true, folder: where.state, bounds: { maxRequests: 100, maxBytes: 1 << 30 } }, where.root);
    const text = `${largeText('old')}\ud800`;
    const id = '20261129T000000000-lonely';
    assert.equal(await book.begin({ request_id: id, time: new Date().toISOString(), surface: 'vscode', summary: 'a.txt updated', files: [{ path: latin1, operation: 'update', before: { text, bom: false }, after: { sha256: sha256Text(wholeText('x')), bom: false } }] }), true);
    assert.deepEqual(originals(where), []);
    const record = JSON.parse(fs.readFileSync(path.join(historyFolder(where).folder, `${id}.pending.json`), 'utf8')) as HistoryEntry;
    assert.equal(record.files[0].before?.text, text);
  });

  it('a link changed since is not trusted: undo refuses the file, names it, and writes nothing', async () => {
    const { where, file, history } = await largeFileEdited();
    const [linked] = originals(where);
    fs.writeFileSync(path.join(historyFolder(where).folder, linked), largeText('tampered'));
    const undone = await undo(history, where);
    assert.equal(undone.success, false);
    assert.match(JSON.stringify(undone), /large\.ts/);
    assert.equal(fs.readFileSync(file, 'utf8'), largeText('new'));
  });

  it('a record whose link name leads out of the history folder is not followed', async () => {
    const { where, file, history } = await largeFileEdited();
    const { folder, names } = historyFolder(where);
    const [linked] = names.filter((name) => name.endsWith('.original'));
    const [record] = names.filter((name) => name.endsWith('.json'));
    fs.renameSync(path.join(folder, linked), path.join(where.state, linked));
    const json = fs.readFileSync(path.join(folder, record), 'utf8');
    fs.writeFileSync(path.join(folder, record), json.replace(`"original":"${linked}"`, `"original":"../${linked}"`));
    const undone = await undo(history, where);
    assert.equal(undone.success, false, 'the text outside the folder was not read back');
    assert.equal(fs.readFileSync(file, 'utf8'), largeText('new'));
  });

  it('a refused request, an evicted record and a request over the bound leave no link behind', async () => {
    const where = box();
    const file = path.join(where.root, 'large.js');
    fs.writeFileSync(file, largeText('old'));
    const history = historyOf(where, { maxRequests: 1 });
    const refused = await edit(history, where, file, 'const marker = "old";', 'const marker = ("old";');
    assert.equal(refused.success, false);
    assert.equal((refused as ErrorEnvelope).error_code, 'SYNTAX_REGRESSION');
    assert.deepEqual(originals(where), []);

    const first = await edit(history, where, file, 'marker = "old"', 'marker = "one"');
    const second = await edit(history, where, file, 'marker = "one"', 'marker = "two"');
    assert.ok(first.success && second.success);
    assert.deepEqual((await entries(history, where)).map((entry) => entry.request_id), [second.request_id]);
    assert.equal(originals(where).length, 1);
    assert.ok(originals(where)[0].startsWith(`${second.request_id}.`), 'the evicted record took its link with it');

    const bounded = box();
    const big = path.join(bounded.root, 'large.ts');
    fs.writeFileSync(big, largeText('old'));
    const tight = historyOf(bounded, { maxBytes: 50_000 });
    const over = await edit(tight, bounded, big, 'marker = "old"', 'marker = "new"');
    assert.ok(over.success);
    assert.deepEqual(over.warnings?.map((warning) => warning.code), ['HISTORY_NOT_KEPT'], 'the linked bytes count against the bound');
    assert.deepEqual(historyFolder(bounded).names, ['root.txt']);
  });
});
