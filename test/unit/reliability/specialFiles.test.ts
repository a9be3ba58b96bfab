/**
 * Only regular files are ever opened: FIFOs, sockets, devices and /proc-like files
 * get NOT_REGULAR_FILE at once (no hang, no endless read) and stay what they were.
 * Links that lead nowhere, or in a loop, or twice to one file, are named for what
 * they are.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { runRequest } from '../../../src/core/engine/engine';
import type { EngineResponse } from '../../../src/core/contract/schemas';
import { NodeFileStore } from '../../../src/node/store/nodeFileStore';
import { recordFigure } from '../helpers/figures';
import { useTempDir } from '../helpers/tempDir';

const CLI = path.resolve(__dirname, '../../../../dist/cli.js');

function edit(filePath: string): object {
  return { file_path: filePath, edits: [{ old_string: 'a', new_string: 'b' }] };
}

async function apply(input: object, tool = 'multi_edit'): Promise<EngineResponse> {
  return (await runRequest(tool, input, { store: new NodeFileStore(), retry: { maxAttempts: 1 } })).response;
}

function codeOf(response: EngineResponse): string {
  assert.ok(!response.success, `expected a failure, got ${JSON.stringify(response)}`);
  return response.error_code;
}

/** The first block device the system shows, if any: only its type is looked at. */
function someBlockDevice(): string | undefined {
  for (const name of fs.readdirSync('/dev')) {
    const device = path.join('/dev', name);
    try {
      if (fs.lstatSync(device).isBlockDevice()) {
        return device;
      }
    } catch {
      // Devices come and go; the next one will do.
    }
  }
  return undefined;
}

describe('reliability: special files and links', () => {
  const dir = useTempDir('special');
  const tried: string[] = [];

  after(() => {
    recordFigure('special files', `${tried.length} kinds tried, each given its code at once and left as it was (${tried.join(', ')})`);
  });

  it('refuses a FIFO without waiting for a writer, and leaves it a FIFO', async () => {
    const fifo = path.join(dir(), 'pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    assert.equal(codeOf(await apply(edit(fifo))), 'NOT_REGULAR_FILE');
    assert.ok(fs.lstatSync(fifo).isFIFO());
    tried.push('FIFO');
  });

  it('refuses a FIFO that a writer is feeding, and never replaces it by a regular file', async () => {
    const fifo = path.join(dir(), 'fed');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const writer = spawn('sh', ['-c', `printf 'a a a' > '${fifo}'`], { stdio: 'ignore' });
    try {
      assert.equal(codeOf(await apply(edit(fifo))), 'NOT_REGULAR_FILE');
      assert.ok(fs.lstatSync(fifo).isFIFO());
    } finally {
      writer.kill('SIGKILL');
    }
    tried.push('fed FIFO');
  });

  it('refuses a Unix socket', async () => {
    const socketPath = path.join(dir(), 'sock');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      assert.equal(codeOf(await apply(edit(socketPath))), 'NOT_REGULAR_FILE');
      assert.ok(fs.lstatSync(socketPath).isSocket());
    } finally {
      server.close();
    }
    tried.push('socket');
  });

  it('refuses /dev/zero at once instead of reading it until memory runs out', async () => {
    const before = process.memoryUsage().rss;
    assert.equal(codeOf(await apply(edit('/dev/zero'))), 'NOT_REGULAR_FILE');
    assert.ok(process.memoryUsage().rss - before < 64 * 1024 * 1024);
    tried.push('/dev/zero');
  });

  it('refuses /dev/null, a character device, and leaves it a device', async () => {
    assert.equal(codeOf(await apply(edit('/dev/null'))), 'NOT_REGULAR_FILE');
    assert.ok(fs.statSync('/dev/null').isCharacterDevice());
    tried.push('/dev/null');
  });

  it('refuses a block device', async function () {
    const device = someBlockDevice();
    if (!device) {
      console.log('      skipped: this machine shows no block device in /dev');
      this.skip();
    }
    assert.equal(codeOf(await apply(edit(device))), 'NOT_REGULAR_FILE');
    tried.push(`block device ${device}`);
  });

  it('refuses a /proc file, whose reported size says nothing of its content', async () => {
    assert.equal(codeOf(await apply(edit('/proc/self/status'))), 'NOT_REGULAR_FILE');
    tried.push('/proc/self/status');
  });

  it('refuses a symbolic link to a FIFO, and keeps both', async () => {
    const fifo = path.join(dir(), 'pipe');
    const link = path.join(dir(), 'link-to-pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    fs.symlinkSync(fifo, link);
    assert.equal(codeOf(await apply(edit(link))), 'NOT_REGULAR_FILE');
    assert.ok(fs.lstatSync(link).isSymbolicLink() && fs.lstatSync(fifo).isFIFO());
    tried.push('link to a FIFO');
  });

  it('gives FILE_NOT_FOUND for a dangling symbolic link and creates nothing', async () => {
    const link = path.join(dir(), 'dangling');
    fs.symlinkSync(path.join(dir(), 'nowhere'), link);
    assert.equal(codeOf(await apply(edit(link))), 'FILE_NOT_FOUND');
    assert.deepEqual(fs.readdirSync(dir()), ['dangling']);
    tried.push('dangling link');
  });

  it('gives SYMLINK_LOOP for a loop of links', async () => {
    fs.symlinkSync(path.join(dir(), 'two'), path.join(dir(), 'one'));
    fs.symlinkSync(path.join(dir(), 'one'), path.join(dir(), 'two'));
    assert.equal(codeOf(await apply(edit(path.join(dir(), 'one')))), 'SYMLINK_LOOP');
    tried.push('link loop');
  });

  for (const [kind, makeLink] of [
    ['a symbolic link', fs.symlinkSync],
    ['a hard link', fs.linkSync],
  ] as const) {
    it(`gives VALIDATION_FAILED for one file named twice, once through ${kind}, and changes nothing`, async () => {
      const real = path.join(dir(), 'real.txt');
      const other = path.join(dir(), 'other-name.txt');
      fs.writeFileSync(real, 'alpha\nbeta\n');
      makeLink(real, other);
      const response = await apply({
        files: [
          { file_path: real, edits: [{ old_string: 'alpha', new_string: 'ALPHA' }] },
          { file_path: other, edits: [{ old_string: 'beta', new_string: 'BETA' }] },
        ],
      }, 'multi_edit_files');
      assert.equal(codeOf(response), 'VALIDATION_FAILED');
      assert.ok(!response.success);
      assert.match(response.message, /files\[1\]\.file_path: the same file as files\[0\]\.file_path/);
      assert.equal(fs.readFileSync(real, 'utf8'), 'alpha\nbeta\n');
      tried.push(`one file twice through ${kind}`);
    });
  }

  it('edits through a hard link and says nothing of the other name, which keeps the old text (the rename detaches it)', async () => {
    const real = path.join(dir(), 'real.txt');
    const other = path.join(dir(), 'other-name.txt');
    fs.writeFileSync(real, 'alpha\n');
    fs.linkSync(real, other);
    const response = await apply({ file_path: other, edits: [{ old_string: 'alpha', new_string: 'ALPHA' }] });
    assert.ok(response.success);
    assert.equal(fs.readFileSync(other, 'utf8'), 'ALPHA\n');
    assert.equal(fs.readFileSync(real, 'utf8'), 'alpha\n');
    assert.deepEqual(fs.readdirSync(dir()).sort(), ['other-name.txt', 'real.txt']);
  });

  it('the CLI ends at once on a FIFO (no hang) with NOT_REGULAR_FILE', () => {
    const fifo = path.join(dir(), 'pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const request = path.join(dir(), 'request.json');
    fs.writeFileSync(request, JSON.stringify(edit(fifo)));
    const run = spawnSync(process.execPath, [CLI, 'apply', request], { encoding: 'utf8', timeout: 15_000 });
    assert.equal(run.signal, null, 'the CLI hung on the FIFO');
    assert.equal(run.status, 1);
    assert.equal(JSON.parse(run.stdout).error_code, 'NOT_REGULAR_FILE');
    assert.ok(fs.lstatSync(fifo).isFIFO());
  });
});
