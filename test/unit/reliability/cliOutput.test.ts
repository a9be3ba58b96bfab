/**
 * What the CLI prints when its output cannot be written, and what it lets through to
 * a terminal: never a stack trace or raw system text, an exit code that still says
 * whether the edits landed, and file content that cannot drive the terminal.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recordFigure } from '../helpers/figures';
import { useTempDir } from '../helpers/tempDir';

const CLI = path.resolve(__dirname, '../../../../dist/cli.js');

describe('reliability: CLI output faults and terminal safety', () => {
  const dir = useTempDir('output');
  const tried: string[] = [];

  after(() => {
    recordFigure('output faults', `${tried.length} tried (${tried.join(', ')}), 0 stack traces`);
  });

  function request(old_string: string, new_string: string, name = 'a.txt'): string {
    const requestPath = path.join(dir(), 'request.json');
    fs.writeFileSync(requestPath, JSON.stringify({ file_path: path.join(dir(), name), edits: [{ old_string, new_string }] }));
    return requestPath;
  }

  function assertNoStack(stderr: string): void {
    assert.doesNotMatch(stderr, /\n\s+at |node:internal|ENOSPC:|EPIPE:|Error:/, stderr);
  }

  it('a full standard output (/dev/full): the edit lands, exit 0, and one clean line on stderr', () => {
    fs.writeFileSync(path.join(dir(), 'a.txt'), 'alpha\n');
    const out = fs.openSync('/dev/full', 'w');
    try {
      const run = spawnSync(process.execPath, [CLI, 'apply', request('alpha', 'beta')], { stdio: ['ignore', out, 'pipe'], encoding: 'utf8' });
      assert.equal(run.status, 0);
      assert.equal(fs.readFileSync(path.join(dir(), 'a.txt'), 'utf8'), 'beta\n');
      assert.match(run.stderr, /^multi-edit: the edits were applied, but the report could not be written to standard output \(no space is left on the device\)\n$/);
      assertNoStack(run.stderr);
    } finally {
      fs.closeSync(out);
    }
    tried.push('/dev/full');
  });

  it('a failed request into a full standard output still exits 1', () => {
    fs.writeFileSync(path.join(dir(), 'a.txt'), 'alpha\n');
    const out = fs.openSync('/dev/full', 'w');
    try {
      const run = spawnSync(process.execPath, [CLI, 'apply', request('missing', 'x')], { stdio: ['ignore', out, 'pipe'], encoding: 'utf8' });
      assert.equal(run.status, 1);
      assert.match(run.stderr, /^multi-edit: the request failed \(MATCH_NOT_FOUND\), but the report could not be written/);
      assertNoStack(run.stderr);
    } finally {
      fs.closeSync(out);
    }
    tried.push('/dev/full with a failure');
  });

  it('a standard output closed by its reader: the edit lands, exit 0, no stack trace', async () => {
    fs.writeFileSync(path.join(dir(), 'a.txt'), 'alpha\n');
    const child = spawn(process.execPath, [CLI, 'apply', request('alpha', 'beta')], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    const exit = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(exit, 0);
    assert.equal(fs.readFileSync(path.join(dir(), 'a.txt'), 'utf8'), 'beta\n');
    assertNoStack(stderr);
    tried.push('closed pipe');
  });

  it('--format text shows ESC, BEL, a bare CR and bidi overrides from the file as escapes', () => {
    fs.writeFileSync(path.join(dir(), 'a.txt'), 'red \u001b[31mRED\u0007 bare\rcr \u202eevil\r\nnext\n');
    const run = spawnSync(process.execPath, [CLI, 'apply', '--format', 'text', request('not in the file', 'x')], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.doesNotMatch(run.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    assert.match(run.stdout, /\\u001b\[31mRED\\u0007 bare\\u000dcr \\u202eevil/);
    tried.push('control characters in --format text');
  });
});
