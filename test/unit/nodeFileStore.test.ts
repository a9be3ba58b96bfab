import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { runRequest } from '../../src/core/engine/engine';
import type { StoredText } from '../../src/core/store/fileStore';
import { directFs } from '../../src/node/store/fsApi';
import { NodeFileStore, type NodeFsApi } from '../../src/node/store/nodeFileStore';
import { wholeText } from '../../src/core/text/editedText';

const STORE_MODULE = path.resolve(__dirname, '../../src/node/store/nodeFileStore.js');
const NOBODY = 65534;

function errnoError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated failure, /internal/detail`), { code });
}

async function readOk(store: NodeFileStore, file: string): Promise<StoredText> {
  const result = await store.read(file);
  assert.ok(result.ok, `read failed: ${JSON.stringify(result)}`);
  return result.value;
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** Whether this process may make a private mount namespace (root on Linux with unshare). */
function canUnshareMounts(): boolean {
  return isRoot() && spawnSync('unshare', ['-m', 'true']).status === 0;
}

function skipWithReason(context: Mocha.Context, reason: string): never {
  console.log(`      skipped: ${reason}`);
  context.skip();
}

interface ChildReport {
  read: { ok: boolean; code?: string };
  write?: { ok: boolean; code?: string; detail?: string };
  listing: string[];
  content: string;
}

/**
 * Runs read-then-write through the real store in a child process, so the OS (not a
 * fake) produces the failure: as another user, or inside a private mount.
 */
const CHILD_SCRIPT = `
const fs = require('node:fs');
const path = require('node:path');
const { NodeFileStore } = require(process.env.STORE_MODULE);
const file = process.env.TARGET_FILE;
(async () => {
  if (process.env.FILL_BYTES) fs.writeFileSync(file, 'x'.repeat(Number(process.env.FILL_BYTES)));
  const store = new NodeFileStore();
  const read = await store.read(file);
  // The new text as the engine hands it on (an EditedText, held whole).
  const text = read.ok ? 'y'.repeat(read.value.text.length + 1) : '';
  const edited = { length: text.length, charCodeAt: (at) => text.charCodeAt(at), slice: (from, to) => text.slice(from, to), startsWith: (search, at) => text.startsWith(search, at), parts: () => [text], whole: () => text };
  const write = read.ok ? await store.commit([{ kind: 'update', path: file, text: edited, bom: false, original: read.value }]) : undefined;
  let content = '';
  try { content = fs.readFileSync(file, 'utf8'); } catch { content = '<unreadable>'; }
  const listing = fs.readdirSync(path.dirname(file));
  console.log(JSON.stringify({ read: { ok: read.ok, code: read.code }, write, listing, content }));
})();
`;

let storeBundle: string | undefined;

/**
 * The store as one file that any user can read. The checkout may sit in a directory only its
 * owner can enter (mktemp -d makes 0700 ones), where a child running as nobody could not load it.
 */
function storeModuleForAnyUser(): string {
  if (storeBundle === undefined) {
    const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-store-bundle-'));
    fs.chmodSync(bundleDir, 0o755);
    storeBundle = path.join(bundleDir, 'nodeFileStore.js');
    // jsonc-parser's main build is UMD, which a bundle cannot resolve: take its ES module build, as esbuild.mjs does.
    buildSync({ entryPoints: [STORE_MODULE], bundle: true, platform: 'node', format: 'cjs', outfile: storeBundle, logLevel: 'error', mainFields: ['module', 'main'] });
    fs.chmodSync(storeBundle, 0o644);
  }
  return storeBundle;
}

after(() => {
  if (storeBundle !== undefined) {
    fs.rmSync(path.dirname(storeBundle), { recursive: true, force: true });
  }
});

function runChild(command: string, args: string[], file: string, extraEnv: Record<string, string> = {}, uid?: number): ChildReport {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    env: { ...process.env, STORE_MODULE: uid === undefined ? STORE_MODULE : storeModuleForAnyUser(), TARGET_FILE: file, CHILD_SCRIPT, ...extraEnv },
    ...(uid === undefined ? {} : { uid, gid: uid }),
  });
  assert.equal(result.status, 0, `child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ChildReport;
}

/** As root, permissions do not apply; the child then runs as nobody so that they do. */
function runChildUnprivileged(file: string): ChildReport {
  return runChild(process.execPath, ['-e', CHILD_SCRIPT], file, {}, isRoot() ? NOBODY : undefined);
}

/** Runs the child inside a private mount namespace after `mountCommand` (which may use "$DIR"). */
function runChildInMount(mountCommand: string, file: string, extraEnv: Record<string, string> = {}): ChildReport {
  const script = `${mountCommand} && exec "$NODE" -e "$CHILD_SCRIPT"`;
  return runChild('unshare', ['-m', 'sh', '-c', script], file, { DIR: path.dirname(file), NODE: process.execPath, ...extraEnv });
}

describe('NodeFileStore', () => {
  let dir: string;
  let store: NodeFileStore;

  beforeEach(async () => {
    dir = await fsPromises.mkdtemp(path.join(os.tmpdir(), 'multi-edit-store-'));
    store = new NodeFileStore();
  });

  afterEach(async () => {
    await fsPromises.chmod(dir, 0o700);
    await fsPromises.rm(dir, { recursive: true, force: true });
  });

  const file = (name: string): string => path.join(dir, name);

  describe('read', () => {
    it('returns the text, no BOM and a version', async () => {
      await fsPromises.writeFile(file('a.ts'), 'const a = 1;\n');
      const stored = await readOk(store, file('a.ts'));
      assert.equal(stored.text, 'const a = 1;\n');
      assert.equal(stored.bom, false);
      assert.ok(stored.version, 'a read carries a version for the commit to check');
    });

    it('strips a UTF-8 BOM from the text and remembers it', async () => {
      await fsPromises.writeFile(file('bom.ts'), Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('x = 1\n')]));
      const stored = await readOk(store, file('bom.ts'));
      assert.equal(stored.text, 'x = 1\n');
      assert.equal(stored.bom, true);
    });

    it('keeps CRLF line endings in the text', async () => {
      await fsPromises.writeFile(file('crlf.txt'), 'one\r\ntwo\r\n');
      assert.equal((await readOk(store, file('crlf.txt'))).text, 'one\r\ntwo\r\n');
    });

    it('gives INVALID_ENCODING for bytes that are not UTF-8', async () => {
      await fsPromises.writeFile(file('latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
      const result = await store.read(file('latin1.txt'));
      assert.ok(!result.ok);
      assert.equal(result.code, 'INVALID_ENCODING');
    });

    it('gives INVALID_ENCODING for binary content with NUL bytes, even when it is valid UTF-8', async () => {
      await fsPromises.writeFile(file('image.bin'), Buffer.from('PNG\u0000\u0000IHDR'));
      const result = await store.read(file('image.bin'));
      assert.ok(!result.ok);
      assert.equal(result.code, 'INVALID_ENCODING');
      assert.match(result.detail, /NUL/);
    });

    it('gives FILE_NOT_FOUND for a missing file (ENOENT)', async () => {
      const result = await store.read(file('missing.ts'));
      assert.deepEqual(result, { ok: false, code: 'FILE_NOT_FOUND', detail: 'no file exists at this path' });
    });

    it('gives FILE_NOT_FOUND when a parent of the path is a file (ENOTDIR)', async () => {
      await fsPromises.writeFile(file('plain.txt'), 'x');
      const result = await store.read(path.join(file('plain.txt'), 'child.ts'));
      assert.ok(!result.ok);
      assert.equal(result.code, 'FILE_NOT_FOUND');
      assert.match(result.detail, /not a directory/);
    });

    it('gives IS_DIRECTORY for a directory', async () => {
      const result = await store.read(dir);
      assert.ok(!result.ok);
      assert.equal(result.code, 'IS_DIRECTORY');
    });

    it('gives SYMLINK_LOOP for a loop of symbolic links (ELOOP)', async () => {
      await fsPromises.symlink(file('b'), file('a'));
      await fsPromises.symlink(file('a'), file('b'));
      const result = await store.read(file('a'));
      assert.ok(!result.ok);
      assert.equal(result.code, 'SYMLINK_LOOP');
    });

    it('never puts raw Node error text in a detail', async () => {
      const result = await store.read(file('missing.ts'));
      assert.ok(!result.ok);
      assert.doesNotMatch(result.detail, /ENOENT|open '|multi-edit-store-/);
    });
  });

  describe('stat', () => {
    it('reports size and whether the path is a directory', async () => {
      await fsPromises.writeFile(file('a.ts'), '12345');
      const fileStat = await store.stat(file('a.ts'));
      const dirStat = await store.stat(dir);
      assert.ok(fileStat.ok && dirStat.ok);
      assert.deepEqual({ kind: fileStat.value.kind, size: fileStat.value.size }, { kind: 'file', size: 5 });
      assert.deepEqual({ kind: dirStat.value.kind, size: dirStat.value.size }, { kind: 'directory', size: (await fsPromises.stat(dir)).size });
    });

    it('maps ENOENT to FILE_NOT_FOUND', async () => {
      const result = await store.stat(file('missing.ts'));
      assert.ok(!result.ok);
      assert.equal(result.code, 'FILE_NOT_FOUND');
    });
  });

  describe('write', () => {
    it('writes the text and keeps a BOM and CRLF byte for byte', async () => {
      const original = Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('one\r\ntwo\r\n')]);
      await fsPromises.writeFile(file('win.txt'), original);
      const stored = await readOk(store, file('win.txt'));
      const result = await store.commit([{ kind: 'update', path: file('win.txt'), text: wholeText(stored.text.replace('two', 'TWO')), bom: stored.bom, original: stored }]);
      assert.deepEqual(result, { ok: true, value: undefined });
      assert.deepEqual(await fsPromises.readFile(file('win.txt')), Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('one\r\nTWO\r\n')]));
    });

    it('closes the file it compared once the new one is in place, while the directory is being synced', async () => {
      await fsPromises.writeFile(file('c.ts'), 'const c = 1;\n');
      const steps: string[] = [];
      const watching: NodeFsApi = {
        ...directFs,
        replaceIfUnchanged: (target, expected, replacement) => {
          steps.push('rename');
          return directFs.replaceIfUnchanged?.(target, expected, replacement) ?? false;
        },
        open: async (target, flags, mode) => {
          const handle = await directFs.open(target, flags, mode);
          // Under the lock the commit opens the file itself only to compare it.
          const name = target === dir ? 'directory' : path.basename(target) === 'c.ts' ? 'compared file' : path.basename(target);
          return {
            stat: (options) => handle.stat(options),
            read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
            writeFile: (data) => handle.writeFile(data),
            sync: async () => {
              steps.push(`${name} sync starts`);
              await handle.sync();
              steps.push(`${name} sync ends`);
            },
            close: async () => {
              steps.push(`${name} closed`);
              await handle.close();
            },
          };
        },
      };
      const watched = new NodeFileStore(watching);
      const stored = await readOk(watched, file('c.ts'));
      steps.length = 0;
      assert.ok((await watched.commit([{ kind: 'update', path: file('c.ts'), text: wholeText('const c = 2;\n'), bom: false, original: stored }])).ok);
      const at = (step: string): number => steps.indexOf(step);
      assert.ok(at('rename') >= 0 && at('directory sync starts') > at('rename'), steps.join(', '));
      assert.ok(at('compared file closed') > at('directory sync starts') && at('compared file closed') < at('directory sync ends'), steps.join(', '));
      assert.equal(await fsPromises.readFile(file('c.ts'), 'utf8'), 'const c = 2;\n');
    });

    it('keeps the file mode (755 stays 755)', async () => {
      await fsPromises.writeFile(file('run.sh'), '#!/bin/sh\necho hi\n');
      await fsPromises.chmod(file('run.sh'), 0o755);
      const stored = await readOk(store, file('run.sh'));
      assert.ok((await store.commit([{ kind: 'update', path: file('run.sh'), text: wholeText('#!/bin/sh\necho bye\n'), bom: false, original: stored }])).ok);
      assert.equal((await fsPromises.stat(file('run.sh'))).mode & 0o7777, 0o755);
    });

    it('keeps a mode the umask would narrow (666, 777) and a private one (600)', async () => {
      const umask = process.umask(0o022);
      try {
        for (const mode of [0o666, 0o777, 0o600]) {
          await fsPromises.writeFile(file('m.txt'), 'old\n');
          await fsPromises.chmod(file('m.txt'), mode);
          const stored = await readOk(store, file('m.txt'));
          assert.ok((await store.commit([{ kind: 'update', path: file('m.txt'), text: wholeText('new\n'), bom: false, original: stored }])).ok);
          assert.equal((await fsPromises.stat(file('m.txt'))).mode & 0o7777, mode, mode.toString(8));
        }
      } finally {
        process.umask(umask);
      }
    });

    it('keeps the owner when the writer may give the file away', async function () {
      if (!isRoot()) {
        skipWithReason(this, 'only root can hand a file to another owner');
      }
      await fsPromises.writeFile(file('theirs.ts'), 'a\n');
      await fsPromises.chown(file('theirs.ts'), NOBODY, NOBODY);
      const stored = await readOk(store, file('theirs.ts'));
      assert.ok((await store.commit([{ kind: 'update', path: file('theirs.ts'), text: wholeText('b\n'), bom: false, original: stored }])).ok);
      const stats = await fsPromises.stat(file('theirs.ts'));
      assert.deepEqual([stats.uid, stats.gid], [NOBODY, NOBODY]);
    });

    it('leaves no temp file after a success', async () => {
      await fsPromises.writeFile(file('a.ts'), 'old\n');
      const stored = await readOk(store, file('a.ts'));
      assert.ok((await store.commit([{ kind: 'update', path: file('a.ts'), text: wholeText('new\n'), bom: false, original: stored }])).ok);
      assert.deepEqual(await fsPromises.readdir(dir), ['a.ts']);
    });

    it('writes through a symbolic link to its target and keeps the link', async () => {
      await fsPromises.mkdir(file('real'));
      await fsPromises.writeFile(file('real/target.ts'), 'old\n');
      await fsPromises.symlink(file('real/target.ts'), file('link.ts'));
      const stored = await readOk(store, file('link.ts'));
      assert.ok((await store.commit([{ kind: 'update', path: file('link.ts'), text: wholeText('new\n'), bom: false, original: stored }])).ok);
      assert.ok((await fsPromises.lstat(file('link.ts'))).isSymbolicLink());
      assert.equal(await fsPromises.readFile(file('real/target.ts'), 'utf8'), 'new\n');
      assert.deepEqual(await fsPromises.readdir(file('real')), ['target.ts']);
    });

    it('gives STALE_CONTENT when the file changed after it was read, and leaves it alone', async () => {
      await fsPromises.writeFile(file('a.ts'), 'old\n');
      const stored = await readOk(store, file('a.ts'));
      await fsPromises.writeFile(file('a.ts'), 'theirs\n');
      const result = await store.commit([{ kind: 'update', path: file('a.ts'), text: wholeText('mine\n'), bom: false, original: stored }]);
      assert.ok(!result.ok);
      assert.equal(result.code, 'STALE_CONTENT');
      assert.equal(await fsPromises.readFile(file('a.ts'), 'utf8'), 'theirs\n');
      assert.deepEqual(await fsPromises.readdir(dir), ['a.ts']);
    });

    it('gives STALE_CONTENT when only the modification time moved (same size)', async () => {
      await fsPromises.writeFile(file('a.ts'), 'abc\n');
      const stored = await readOk(store, file('a.ts'));
      await fsPromises.writeFile(file('a.ts'), 'xyz\n');
      await fsPromises.utimes(file('a.ts'), new Date(2001, 1, 1), new Date(2001, 1, 1));
      const result = await store.commit([{ kind: 'update', path: file('a.ts'), text: wholeText('mine\n'), bom: false, original: stored }]);
      assert.ok(!result.ok);
      assert.equal(result.code, 'STALE_CONTENT');
    });

    it('skips the staleness check when the original carries no version (a rollback restoring its own write)', async () => {
      await fsPromises.writeFile(file('a.ts'), 'edited\n');
      const result = await store.commit([{ kind: 'update', path: file('a.ts'), text: wholeText('restored\n'), bom: false, original: { text: 'edited\n', bom: false } }]);
      assert.ok(result.ok);
      assert.equal(await fsPromises.readFile(file('a.ts'), 'utf8'), 'restored\n');
    });

    it('gives SYMLINK_LOOP when writing through a loop of links', async () => {
      await fsPromises.symlink(file('b'), file('a'));
      await fsPromises.symlink(file('a'), file('b'));
      const result = await store.commit([{ kind: 'update', path: file('a'), text: wholeText('x'), bom: false, original: { text: '', bom: false } }]);
      assert.ok(!result.ok);
      assert.equal(result.code, 'SYMLINK_LOOP');
    });

    describe('when the file system fails part way (injected)', () => {
      const cases: ReadonlyArray<[errno: string, code: string]> = [
        ['ENOSPC', 'DISK_FULL'],
        ['EROFS', 'READ_ONLY_FS'],
        ['EACCES', 'PERMISSION_DENIED'],
        ['EBUSY', 'FILE_BUSY'],
        ['EAGAIN', 'FILE_BUSY'],
        ['EIO', 'WRITE_FAILED'],
      ];
      for (const [errno, code] of cases) {
        it(`maps ${errno} from the rename to ${code}, removes the temp file and leaves the file unchanged`, async () => {
          await fsPromises.writeFile(file('a.ts'), 'old\n');
          const failingRename: NodeFsApi = { ...fsPromises, rename: async () => { throw errnoError(errno); } };
          const faulty = new NodeFileStore(failingRename);
          const stored = await readOk(faulty, file('a.ts'));
          const result = await faulty.commit([{ kind: 'update', path: file('a.ts'), text: wholeText('new\n'), bom: false, original: stored }]);
          assert.ok(!result.ok);
          assert.equal(result.code, code);
          assert.doesNotMatch(result.detail, /simulated|\/internal\//);
          assert.equal(await fsPromises.readFile(file('a.ts'), 'utf8'), 'old\n');
          assert.deepEqual(await fsPromises.readdir(dir), ['a.ts']);
        });
      }

      it('removes a half-written temp file when writing its bytes fails', async () => {
        await fsPromises.writeFile(file('a.ts'), 'old\n');
        const failingWrite: NodeFsApi = {
          ...fsPromises,
          open: (async (target: string, flags: string, mode?: number) => {
            const handle = await fsPromises.open(target, flags, mode);
            if (flags === 'wx') {
              handle.writeFile = async () => { await handle.write('partial'); throw errnoError('ENOSPC'); };
            }
            return handle;
          }) as NodeFsApi['open'],
        };
        const faulty = new NodeFileStore(failingWrite);
        const stored = await readOk(faulty, file('a.ts'));
        const result = await faulty.commit([{ kind: 'update', path: file('a.ts'), text: wholeText('new\n'), bom: false, original: stored }]);
        assert.ok(!result.ok);
        assert.equal(result.code, 'DISK_FULL');
        assert.equal(await fsPromises.readFile(file('a.ts'), 'utf8'), 'old\n');
        assert.deepEqual(await fsPromises.readdir(dir), ['a.ts']);
      });
    });
  });

  describe('under the engine', () => {
    it('gives FILE_TOO_LARGE for a file over the engine\'s size limit', async () => {
      await fsPromises.writeFile(file('big.log'), 'x'.repeat(2048));
      const response = (await runRequest('multi_edit', { file_path: file('big.log'), edits: [{ old_string: 'x', new_string: 'y', replace_all: true }] }, {
        store,
        limits: { maxFileBytes: 1024 },
      })).response;
      assert.ok(!response.success);
      assert.equal(response.error_code, 'FILE_TOO_LARGE');
      assert.equal(await fsPromises.readFile(file('big.log'), 'utf8'), 'x'.repeat(2048));
    });

    it('gives FILE_TOO_LARGE after reading a larger file, whose buffer the next read reuses', async () => {
      // The store keeps spare read buffers: one larger than the next read's limit must not let that read run past it.
      await fsPromises.writeFile(file('huge.txt'), 'h'.repeat(256 * 1024));
      assert.equal((await readOk(store, file('huge.txt'))).text.length, 256 * 1024);
      await fsPromises.writeFile(file('big.log'), 'x'.repeat(2048));
      const read = await store.read(file('big.log'), 1024);
      assert.ok(!read.ok);
      assert.equal(read.code, 'FILE_TOO_LARGE');
      const exact = await store.read(file('big.log'), 2048);
      assert.ok(exact.ok && exact.value.text.length === 2048);
    });

    it('restores the first file byte for byte when the second file\'s write fails', async () => {
      const firstBytes = Buffer.from('\uFEFFalpha\r\nbeta\r\n', 'utf8');
      await fsPromises.writeFile(file('first.txt'), firstBytes);
      await fsPromises.chmod(file('first.txt'), 0o640);
      await fsPromises.writeFile(file('second.txt'), 'gamma\n');
      const failOnSecond: NodeFsApi = {
        ...fsPromises,
        rename: async (from, to) => {
          if (String(to).endsWith('second.txt')) {
            throw errnoError('EIO');
          }
          return fsPromises.rename(from, to);
        },
      };
      const response = (await runRequest('multi_edit_files', {
        files: [
          { file_path: file('first.txt'), edits: [{ old_string: 'alpha', new_string: 'ALPHA' }] },
          { file_path: file('second.txt'), edits: [{ old_string: 'gamma', new_string: 'GAMMA' }] },
        ],
      }, { store: new NodeFileStore(failOnSecond) })).response;
      assert.ok(!response.success);
      assert.equal(response.error_code, 'WRITE_FAILED');
      assert.deepEqual(response.rolled_back, [file('first.txt')]);
      assert.deepEqual(await fsPromises.readFile(file('first.txt')), firstBytes);
      assert.equal((await fsPromises.stat(file('first.txt'))).mode & 0o7777, 0o640);
      assert.equal(await fsPromises.readFile(file('second.txt'), 'utf8'), 'gamma\n');
      assert.deepEqual((await fsPromises.readdir(dir)).sort(), ['first.txt', 'second.txt']);
    });
  });

  describe('real permission and device failures', () => {
    it('gives PERMISSION_DENIED for a file the user may not read (EACCES)', async () => {
      await fsPromises.chmod(dir, 0o755);
      await fsPromises.writeFile(file('secret.ts'), 'x\n');
      await fsPromises.chmod(file('secret.ts'), 0o000);
      const report = runChildUnprivileged(file('secret.ts'));
      assert.deepEqual(report.read, { ok: false, code: 'PERMISSION_DENIED' });
    });

    it('gives PERMISSION_DENIED for a read-only file in a writable directory, and leaves it unchanged', async () => {
      await fsPromises.chmod(dir, 0o777);
      await fsPromises.writeFile(file('locked.ts'), 'x\n');
      await fsPromises.chmod(file('locked.ts'), 0o444);
      const report = runChildUnprivileged(file('locked.ts'));
      assert.equal(report.write?.code, 'PERMISSION_DENIED');
      assert.equal(report.content, 'x\n');
      assert.deepEqual(report.listing, ['locked.ts']);
    });

    it('gives PERMISSION_DENIED when the directory does not allow the temp file', async () => {
      await fsPromises.writeFile(file('shared.ts'), 'x\n');
      await fsPromises.chmod(file('shared.ts'), 0o666);
      await fsPromises.chmod(dir, 0o555);
      const report = runChildUnprivileged(file('shared.ts'));
      assert.equal(report.write?.code, 'PERMISSION_DENIED');
      assert.equal(report.content, 'x\n');
      assert.deepEqual(report.listing, ['shared.ts']);
    });

    it('gives READ_ONLY_FS on a read-only mount (EROFS), and leaves the file unchanged', function () {
      if (!canUnshareMounts()) {
        skipWithReason(this, 'a read-only bind mount needs root and unshare(1) for a private mount namespace');
      }
      fs.writeFileSync(file('mounted.ts'), 'x\n');
      const report = runChildInMount('mount --bind "$DIR" "$DIR" && mount -o remount,bind,ro "$DIR"', file('mounted.ts'));
      assert.equal(report.write?.code, 'READ_ONLY_FS');
      assert.equal(report.content, 'x\n');
      assert.deepEqual(report.listing, ['mounted.ts']);
    });

    it('gives DISK_FULL on a full file system (ENOSPC), and leaves no temp file', function () {
      if (!canUnshareMounts()) {
        skipWithReason(this, 'a tiny tmpfs needs root and unshare(1) for a private mount namespace');
      }
      const fillBytes = 40 * 1024;
      const report = runChildInMount('mount -t tmpfs -o size=64k tmpfs "$DIR"', file('big.txt'), { FILL_BYTES: String(fillBytes) });
      assert.equal(report.write?.code, 'DISK_FULL');
      assert.equal(report.content, 'x'.repeat(fillBytes));
      assert.deepEqual(report.listing, ['big.txt']);
    });
  });
});
