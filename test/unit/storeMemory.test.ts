import * as assert from 'node:assert/strict';
import * as fsPromises from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { directFs, type NodeFsApi } from '../../src/node/store/fsApi';
import { newLockRecord, retireRecord, serializeRecord } from '../../src/node/store/lockRecord';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import { draftPath, retireDraft, sidecarPath } from '../../src/node/store/sidecars';
import { storeMemory } from '../../src/node/store/storeMemory';

const AGE_LIMIT_MS = 10_000;

describe('what the stores of a server remember of directories', () => {
  let dir: string;
  let file: string;
  let now: number;
  const memory = (): ReturnType<typeof storeMemory> => storeMemory(AGE_LIMIT_MS, () => now);

  beforeEach(async () => {
    dir = await fsPromises.realpath(await fsPromises.mkdtemp(path.join(os.tmpdir(), 'multi-edit-memory-')));
    file = path.join(dir, 'a.ts');
    await fsPromises.writeFile(file, 'const a = 1;\n');
    now = 1_000_000;
  });

  afterEach(async () => {
    await fsPromises.rm(dir, { recursive: true, force: true });
  });

  /** A draft as this process leaves one when it cannot remove it: a leftover that a sweep removes. */
  async function leftoverDraft(): Promise<string> {
    const draft = draftPath(dir);
    retireDraft(draft);
    await fsPromises.writeFile(draft, 'torn');
    return draft;
  }

  async function exists(target: string): Promise<boolean> {
    return fsPromises.access(target).then(() => true, () => false);
  }

  it('sweeps a directory once while the sweep is recent, and again once it is older than the limit', async () => {
    const shared = memory();
    assert.ok((await new NodeFileStore(directFs, { memory: shared }).read(file)).ok);
    const draft = await leftoverDraft();
    now += AGE_LIMIT_MS;
    assert.ok((await new NodeFileStore(directFs, { memory: shared }).read(file)).ok);
    assert.ok(await exists(draft), 'a call within the limit trusts the earlier sweep');
    now += 1;
    assert.ok((await new NodeFileStore(directFs, { memory: shared }).read(file)).ok);
    assert.equal(await exists(draft), false, 'a call after the limit sweeps again');
  });

  it('a store given no memory sweeps on its first read, whatever another store remembers', async () => {
    assert.ok((await new NodeFileStore(directFs, { memory: memory() }).read(file)).ok);
    const draft = await leftoverDraft();
    assert.ok((await new NodeFileStore(directFs).read(file)).ok);
    assert.equal(await exists(draft), false);
  });

  it('a batch left by a dead writer after the sweep is still undone before the next read', async () => {
    const shared = memory();
    assert.ok((await new NodeFileStore(directFs, { memory: shared }).read(file)).ok);
    // A writer that locked and staged, then died before its commit point: its lock is its journal.
    const record = newLockRecord([file], ['update']);
    retireRecord(record);
    await fsPromises.writeFile(sidecarPath(file, 'new'), 'const a = 2;\n');
    await fsPromises.writeFile(sidecarPath(file, 'lock'), serializeRecord(record));
    const read = await new NodeFileStore(directFs, { memory: shared }).read(file);
    assert.ok(read.ok);
    assert.equal(read.value.text, 'const a = 1;\n');
    assert.deepEqual(await fsPromises.readdir(dir), ['a.ts']);
  });

  it('looks for a lock without reading one that is not there, and still reads one that is', async () => {
    const lockReads: string[] = [];
    const counting: NodeFsApi = {
      ...directFs,
      readFile: ((target: string, encoding: 'utf8') => {
        lockReads.push(path.basename(target));
        return directFs.readFile(target, encoding);
      }) as NodeFsApi['readFile'],
    };
    const store = new NodeFileStore(counting);
    assert.ok((await store.stat(file)).ok);
    assert.ok((await store.read(file)).ok);
    assert.equal(lockReads.length, 0, `no lock read: ${lockReads.join(', ')}`);
    const record = newLockRecord([file], ['update']);
    retireRecord(record);
    await fsPromises.writeFile(sidecarPath(file, 'lock'), serializeRecord(record));
    assert.ok((await store.read(file)).ok);
    assert.ok(lockReads.includes(path.basename(sidecarPath(file, 'lock'))), 'a lock that is there is read');
    assert.equal(await exists(sidecarPath(file, 'lock')), false, 'and its dead batch undone');
  });
});
