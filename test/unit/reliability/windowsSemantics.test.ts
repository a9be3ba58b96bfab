/**
 * What Windows does to a commit that Linux and Wine do not show: a file some handle
 * holds open cannot be renamed over or removed (a sharing violation, EPERM, EBUSY or
 * EACCES), and virus scanners, indexers and editors hold files for moments at a time.
 * The file system here refuses exactly that, by tracking the handles the store opens
 * and the ones a test opens as "another program", so the Node store's Windows path
 * (openFilesPinNames) runs for real against those refusals on any system.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import * as path from 'node:path';
import type { StoredText } from '../../../src/core/store/fileStore';
import type { NodeFsApi } from '../../../src/node/store/fsApi';
import { NodeFileStore } from '../../../src/node/store/nodeFileStore';
import { useTempDir } from '../helpers/tempDir';
import { wholeText } from '../../../src/core/text/editedText';

function sharingViolation(code: string, target: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated sharing violation, '${target}'`), { code });
}

interface WindowsLikeFs {
  readonly fs: NodeFsApi;
  /** Paths held open by "another program" (a scanner): renames over them and removals of them fail. */
  readonly heldElsewhere: Map<string, string>;
  /** How many renames and removals were refused. */
  refusals: number;
  /** Per held path: the program lets go after refusing this many more steps. */
  readonly letsGoAfter: Map<string, number>;
}

/** fs/promises that refuses to replace or remove a file any handle holds open, as Windows does. */
function windowsLikeFs(pinNames: boolean): WindowsLikeFs {
  const openCount = new Map<string, number>();
  const state: WindowsLikeFs = { fs: undefined as unknown as NodeFsApi, heldElsewhere: new Map(), refusals: 0, letsGoAfter: new Map() };
  const refuseIfHeld = (target: string): void => {
    const elsewhere = state.heldElsewhere.get(target);
    if ((openCount.get(target) ?? 0) > 0 || elsewhere !== undefined) {
      state.refusals++;
      const left = state.letsGoAfter.get(target);
      if (left !== undefined) {
        state.letsGoAfter.set(target, left - 1);
        if (left <= 1) {
          state.heldElsewhere.delete(target);
        }
      }
      throw sharingViolation(elsewhere ?? 'EPERM', target);
    }
  };
  (state as { fs: NodeFsApi }).fs = {
    ...fsPromises,
    openFilesPinNames: pinNames,
    open: (async (file: string, flags: string | number, mode?: number) => {
      const handle = await fsPromises.open(file, flags, mode);
      openCount.set(file, (openCount.get(file) ?? 0) + 1);
      const close = handle.close.bind(handle);
      handle.close = async () => {
        openCount.set(file, (openCount.get(file) ?? 1) - 1);
        return close();
      };
      return handle;
    }) as NodeFsApi['open'],
    rename: async (from, to) => {
      refuseIfHeld(String(to));
      return fsPromises.rename(from, to);
    },
    unlink: async (file) => {
      refuseIfHeld(String(file));
      return fsPromises.unlink(file);
    },
  };
  return state;
}

describe('reliability: Windows sharing violations (simulated file system)', () => {
  const dir = useTempDir('windows');
  const file = (name: string): string => path.join(dir(), name);

  async function readOk(store: NodeFileStore, name: string): Promise<StoredText> {
    const read = await store.read(file(name));
    assert.ok(read.ok, JSON.stringify(read));
    return read.value;
  }

  it('updates a file on a system that pins open files: the compared file is closed before the rename', async () => {
    fs.writeFileSync(file('a.ts'), 'old\n');
    const windows = windowsLikeFs(true);
    const store = new NodeFileStore(windows.fs);
    const result = await store.commit([{ kind: 'update', path: file('a.ts'), text: wholeText('new\n'), bom: false, original: await readOk(store, 'a.ts') }]);
    assert.deepEqual(result, { ok: true, value: undefined });
    assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'new\n');
    assert.equal(windows.refusals, 0);
    assert.deepEqual(fs.readdirSync(dir()), ['a.ts']);
  });

  it('the same store keeping the compared file open is refused there (what the store did before)', async () => {
    fs.writeFileSync(file('a.ts'), 'old\n');
    const windows = windowsLikeFs(false);
    const store = new NodeFileStore(windows.fs);
    const result = await store.commit([{ kind: 'update', path: file('a.ts'), text: wholeText('new\n'), bom: false, original: await readOk(store, 'a.ts') }]);
    assert.ok(!result.ok && result.code === 'PERMISSION_DENIED', JSON.stringify(result));
    assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'old\n');
  });

  for (const errno of ['EPERM', 'EBUSY', 'EACCES']) {
    it(`retries a file another program holds for a moment (${errno}), then commits`, async () => {
      fs.writeFileSync(file('a.ts'), 'old\n');
      const windows = windowsLikeFs(true);
      const store = new NodeFileStore(windows.fs);
      const original = await readOk(store, 'a.ts');
      windows.heldElsewhere.set(file('a.ts'), errno);
      windows.letsGoAfter.set(file('a.ts'), 3);
      const result = await store.commit([{ kind: 'update', path: file('a.ts'), text: wholeText('new\n'), bom: false, original }]);
      assert.deepEqual(result, { ok: true, value: undefined });
      assert.equal(windows.refusals, 3);
      assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'new\n');
      assert.deepEqual(fs.readdirSync(dir()), ['a.ts']);
    });
  }

  it('a file held throughout is a retryable FILE_BUSY naming the sharing violation, and nothing changes', async () => {
    fs.writeFileSync(file('a.ts'), 'old\n');
    const windows = windowsLikeFs(true);
    const store = new NodeFileStore(windows.fs);
    const original = await readOk(store, 'a.ts');
    windows.heldElsewhere.set(file('a.ts'), 'EBUSY');
    const started = Date.now();
    const result = await store.commit([{ kind: 'update', path: file('a.ts'), text: wholeText('new\n'), bom: false, original }]);
    const waited = Date.now() - started;
    assert.ok(!result.ok && result.code === 'FILE_BUSY', JSON.stringify(result));
    assert.match(result.detail, /sharing violation/);
    assert.match(result.detail, /EBUSY/);
    assert.ok(waited >= 1000 && waited < 5000, `gave up after ${waited} ms`);
    assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'old\n');
    assert.deepEqual(fs.readdirSync(dir()), ['a.ts']);
  });

  it('a batch whose second file stays held is undone whole: the first file is put back', async () => {
    fs.writeFileSync(file('a.ts'), 'a old\n');
    fs.writeFileSync(file('b.ts'), 'b old\n');
    const windows = windowsLikeFs(true);
    const store = new NodeFileStore(windows.fs);
    const a = await readOk(store, 'a.ts');
    const b = await readOk(store, 'b.ts');
    windows.heldElsewhere.set(file('b.ts'), 'EACCES');
    const result = await store.commit([
      { kind: 'update', path: file('a.ts'), text: wholeText('a new\n'), bom: false, original: a },
      { kind: 'update', path: file('b.ts'), text: wholeText('b new\n'), bom: false, original: b },
    ]);
    assert.ok(!result.ok && result.code === 'FILE_BUSY', JSON.stringify(result));
    assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'a old\n');
    assert.equal(fs.readFileSync(file('b.ts'), 'utf8'), 'b old\n');
    assert.deepEqual(fs.readdirSync(dir()).sort(), ['a.ts', 'b.ts']);
  });

  it('where files are not pinned, EACCES on the rename is a permission, not retried', async () => {
    fs.writeFileSync(file('a.ts'), 'old\n');
    const posix = windowsLikeFs(false);
    const store = new NodeFileStore(posix.fs);
    const original = await readOk(store, 'a.ts');
    posix.heldElsewhere.set(file('a.ts'), 'EACCES');
    const result = await store.commit([{ kind: 'update', path: file('a.ts'), text: wholeText('new\n'), bom: false, original }]);
    assert.ok(!result.ok && result.code === 'PERMISSION_DENIED', JSON.stringify(result));
    assert.equal(posix.refusals, 1);
  });

  it('a moved file keeps its mode (an executable stays executable)', async function () {
    if (process.platform === 'win32') {
      this.skip(); // Windows keeps no executable bit.
    }
    fs.writeFileSync(file('run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    fs.chmodSync(file('run.sh'), 0o755);
    const store = new NodeFileStore();
    const original = await readOk(store, 'run.sh');
    const result = await store.commit([{ kind: 'move', from: file('run.sh'), path: file('bin/run.sh'), text: wholeText('#!/bin/sh\necho bye\n'), bom: false, original }]);
    assert.deepEqual(result, { ok: true, value: undefined });
    assert.equal(fs.statSync(file('bin/run.sh')).mode & 0o777, 0o755);
  });
});
