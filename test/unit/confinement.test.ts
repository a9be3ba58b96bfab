/**
 * The Node store's confinement: a commit reaches its target through the directory it
 * opened and checked, so a directory swapped for a link afterwards gets no byte, and
 * a directory moved out of the folders is refused right before the rename.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import * as path from 'node:path';
import { holdTarget, type ConfinementRule } from '../../src/node/store/confinement';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import { useTempDir } from './helpers/tempDir';
import { wholeText } from '../../src/core/text/editedText';

// Windows needs a privilege to create symbolic links.
(process.platform === 'win32' ? describe.skip : describe)('Node store confinement: writes go through the directory that was checked', () => {
  const base = useTempDir('confine');
  let root: string;
  let outside: string;
  let rule: ConfinementRule;

  beforeEach(() => {
    root = path.join(base(), 'root');
    outside = path.join(base(), 'outside');
    fs.mkdirSync(path.join(root, 'dir'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(root, 'dir', 'f.txt'), 'old\n');
    fs.writeFileSync(path.join(outside, 'f.txt'), 'secret\n');
    rule = (real) => (real.startsWith(`${root}${path.sep}`) ? undefined : { code: 'OUTSIDE_WORKSPACE', detail: `${real} is outside` });
  });

  it('a commit to a target that resolves outside is refused before anything is written', async () => {
    fs.symlinkSync(outside, path.join(root, 'link'));
    const store = new NodeFileStore(fsPromises, { confine: rule });
    const target = path.join(root, 'link', 'f.txt');
    const read = await store.read(target);
    assert.ok(read.ok);
    const result = await store.commit([{ kind: 'update', path: target, text: wholeText('pwned\n'), bom: false, original: read.value }]);
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.code, 'OUTSIDE_WORKSPACE');
    assert.deepEqual(fs.readdirSync(outside), ['f.txt']);
    assert.equal(fs.readFileSync(path.join(outside, 'f.txt'), 'utf8'), 'secret\n');
  });

  // Only Linux names a handle's directory (/proc/self/fd); elsewhere the store writes by path.
  (process.platform === 'linux' ? it : it.skip)('after the directory is swapped for a link to outside, the held path still leads into the directory that was checked', async () => {
    const held = await holdTarget(path.join(root, 'dir', 'f.txt'), rule, 'f.txt');
    assert.ok(held.ok);
    try {
      fs.renameSync(path.join(root, 'dir'), path.join(root, 'aside'));
      fs.symlinkSync(outside, path.join(root, 'dir'));
      assert.equal(await held.value.confirm(), undefined, 'the held directory is still inside (moved aside within the root)');
      fs.writeFileSync(held.value.at, 'new\n');
      assert.equal(fs.readFileSync(path.join(root, 'aside', 'f.txt'), 'utf8'), 'new\n');
      assert.equal(fs.readFileSync(path.join(outside, 'f.txt'), 'utf8'), 'secret\n');
    } finally {
      await held.value.release();
    }
  });

  it('a held directory moved out of the folders is refused right before the rename', async () => {
    const held = await holdTarget(path.join(root, 'dir', 'f.txt'), rule, 'f.txt');
    assert.ok(held.ok);
    try {
      fs.renameSync(path.join(root, 'dir'), path.join(outside, 'dir'));
      assert.equal((await held.value.confirm())?.code, 'OUTSIDE_WORKSPACE');
    } finally {
      await held.value.release();
    }
  });
});
