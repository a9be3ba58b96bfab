/**
 * Bounded work and honest answers, through the built CLI on a real file system: the
 * limits on hunks, request size, output size and planning time, each refused with the
 * limit named and nothing written; the codes for a name too long, one new file named
 * twice, an empty patch, a split hard link; and Codex's marker lines with spaces.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EngineResponse, ErrorEnvelope, SuccessResponse } from '../../../src/core/contract/schemas';
import { parseCliResponse, runCli, type CliRun } from '../helpers/cliRun';
import { useTempDir } from '../helpers/tempDir';

describe('limits and honest codes (CLI)', function () {
  this.timeout(120_000);
  const dir = useTempDir('limits-codes');

  function patch(text: string, ...args: string[]): { run: CliRun; response: EngineResponse } {
    const file = path.join(dir(), 'change.patch');
    fs.writeFileSync(file, text);
    const run = runCli(['patch', ...args, file], { cwd: dir() });
    return { run, response: parseCliResponse(run) };
  }

  function refused(response: EngineResponse, code: string): ErrorEnvelope {
    assert.equal(response.success ? 'success' : response.error_code, code, JSON.stringify(response));
    return response as ErrorEnvelope;
  }

  function succeeded(response: EngineResponse): SuccessResponse {
    assert.ok(response.success, JSON.stringify(response));
    return response;
  }

  it('refuses 200,000 hunks with the limit named, before planning, and changes nothing', () => {
    const lines = Array.from({ length: 1000 }, (_, index) => `line ${index}`);
    fs.writeFileSync(path.join(dir(), 'a.txt'), `${lines.join('\n')}\n`);
    const hunks = Array.from({ length: 200_000 }, (_, index) => `@@\n-line ${index % 1000}\n+line ${index % 1000}!`).join('\n');
    const { run, response } = patch(`*** Begin Patch\n*** Update File: a.txt\n${hunks}\n*** End Patch\n`);
    const envelope = refused(response, 'VALIDATION_FAILED');
    assert.match(envelope.message, /more than 20000 hunks; the limit is 20000 hunks per request/);
    assert.equal(run.status, 1);
    assert.equal(fs.readFileSync(path.join(dir(), 'a.txt'), 'utf8'), `${lines.join('\n')}\n`);
  });

  it('applies 20,000 hunks, the limit, on a 2.4 MB file', () => {
    const lines = Array.from({ length: 230_000 }, (_, index) => `v${index}=${index % 97}`);
    fs.writeFileSync(path.join(dir(), 'big.txt'), `${lines.join('\n')}\n`);
    const hunks = Array.from({ length: 20_000 }, (_, index) => `@@\n-${lines[index * 11]}\n+${lines[index * 11]}#`).join('\n');
    const success = succeeded(patch(`*** Begin Patch\n*** Update File: big.txt\n${hunks}\n*** End Patch\n`).response);
    assert.equal(success.files[0].edits_applied, 20_000);
    const written = fs.readFileSync(path.join(dir(), 'big.txt'), 'utf8').split('\n');
    assert.equal(written[11 * 19_999], `${lines[11 * 19_999]}#`);
    assert.equal(written[11 * 19_999 + 1], lines[11 * 19_999 + 1]);
  });

  it('refuses a replace_all whose result would pass the size limit before building it, naming the projected size', () => {
    const file = path.join(dir(), 'grow.txt');
    fs.writeFileSync(file, 'x'.repeat(10_000));
    const request = path.join(dir(), 'request.json');
    fs.writeFileSync(request, JSON.stringify({ file_path: file, edits: [{ old_string: 'x', new_string: 'y'.repeat(100 * 1024), replace_all: true }] }));
    const run = runCli(['apply', request], { cwd: dir() });
    const envelope = refused(parseCliResponse(run), 'FILE_TOO_LARGE');
    assert.match(envelope.message, /would make grow\.txt 1024000000 characters long, so at least 1024000000 bytes; the limit is 33554432 bytes/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'x'.repeat(10_000));
  });

  it('answers CANCELLED naming the time limit when planning passes --max-time, and writes nothing', () => {
    const lines = Array.from({ length: 230_000 }, (_, index) => `v${index}=${index % 97}`);
    const text = `${lines.join('\n')}\n`;
    fs.writeFileSync(path.join(dir(), 'big.txt'), text);
    const hunks = Array.from({ length: 20_000 }, (_, index) => `@@\n-${lines[index * 11]}\n+${lines[index * 11]}#`).join('\n');
    const { response } = patch(`*** Begin Patch\n*** Update File: big.txt\n${hunks}\n*** End Patch\n`, '--max-time', '0.001');
    const envelope = refused(response, 'CANCELLED');
    assert.match(envelope.message, /^Planning took longer than the time limit of 0\.001 s; no file was changed$/);
    assert.match(envelope.recovery_hints.join(' '), /--max-time/);
    assert.equal(fs.readFileSync(path.join(dir(), 'big.txt'), 'utf8'), text);
  });

  it('answers a name too long for the file system VALIDATION_FAILED (fix it), not STALE_CONTENT (retry)', () => {
    const { response } = patch(`*** Begin Patch\n*** Add File: ${'n'.repeat(300)}.txt\n+text\n*** End Patch\n`);
    const envelope = refused(response, 'VALIDATION_FAILED');
    assert.match(envelope.message, /too long for the file system/);
    assert.equal(envelope.next_action.action, 'fix_and_resubmit');
    assert.deepEqual(fs.readdirSync(dir()), ['change.patch']);
  });

  it('refuses one new file named twice (once through a linked directory) at planning', () => {
    fs.mkdirSync(path.join(dir(), 'src'));
    fs.symlinkSync('src', path.join(dir(), 'insrc'));
    const { response } = patch('*** Begin Patch\n*** Add File: insrc/new.txt\n+a\n*** Add File: src/new.txt\n+b\n*** End Patch\n');
    const envelope = refused(response, 'VALIDATION_FAILED');
    assert.match(envelope.message, /patch line 4: the file operation names a file that the one at line 2 already names/);
    assert.deepEqual(fs.readdirSync(path.join(dir(), 'src')), []);
  });

  for (const format of ['json', 'text']) {
    it(`answers an empty patch VALIDATION_FAILED in the format asked for (${format}), exit 1`, () => {
      fs.writeFileSync(path.join(dir(), 'empty.patch'), '\n  \n');
      const run = runCli(['patch', '--format', format, path.join(dir(), 'empty.patch')], { cwd: dir() });
      assert.equal(run.status, 1);
      if (format === 'json') {
        const envelope = refused(parseCliResponse(run), 'VALIDATION_FAILED');
        assert.match(envelope.message, /the patch is empty/);
      } else {
        assert.match(run.stdout, /^error code=VALIDATION_FAILED .*the patch is empty/);
      }
      assert.equal(run.stderr, '');
    });
  }

  it('warns HARD_LINK_SPLIT with the other links\' count when a linked file is replaced', () => {
    const file = path.join(dir(), 'a.txt');
    fs.writeFileSync(file, 'x\n');
    fs.linkSync(file, path.join(dir(), 'b.txt'));
    fs.linkSync(file, path.join(dir(), 'c.txt'));
    const success = succeeded(patch('*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch\n').response);
    assert.deepEqual(success.warnings?.map((warning) => [warning.code, warning.message]), [['HARD_LINK_SPLIT', 'a.txt has 2 other hard links; it was replaced by a new file, so those names keep the old text']]);
    assert.equal(fs.readFileSync(path.join(dir(), 'b.txt'), 'utf8'), 'x\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'y\n');
  });

  describe('Codex marker lines with spaces around them', () => {
    const markers: readonly { readonly name: string; readonly patch: string; readonly expect: Record<string, string | undefined> }[] = [
      { name: '*** Begin Patch', patch: '  *** Begin Patch \n*** Update File: a.txt\n@@\n-a\n+A\n*** End Patch\n', expect: { 'a.txt': 'A\nb\n' } },
      { name: '*** Update File:', patch: '*** Begin Patch\n *** Update File: a.txt  \n@@\n-a\n+A\n*** End Patch\n', expect: { 'a.txt': 'A\nb\n' } },
      { name: '*** Add File:', patch: '*** Begin Patch\n\t*** Add File: new.txt \n+n\n*** End Patch\n', expect: { 'new.txt': 'n\n' } },
      { name: '*** Delete File:', patch: '*** Begin Patch\n  *** Delete File: a.txt\t\n*** End Patch\n', expect: { 'a.txt': undefined } },
      { name: '*** Move to:', patch: '*** Begin Patch\n*** Update File: a.txt\n  *** Move to: moved.txt \n@@\n-a\n+A\n*** End Patch\n', expect: { 'a.txt': undefined, 'moved.txt': 'A\nb\n' } },
      { name: '*** End of File', patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n-b\n+B\n *** End of File \n*** End Patch\n', expect: { 'a.txt': 'a\nB\n' } },
      { name: '*** End Patch', patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n   *** End Patch   \n', expect: { 'a.txt': 'A\nb\n' } },
    ];
    for (const marker of markers) {
      it(`accepts "${marker.name}" with spaces before and after it`, () => {
        fs.writeFileSync(path.join(dir(), 'a.txt'), 'a\nb\n');
        succeeded(patch(marker.patch).response);
        for (const [name, text] of Object.entries(marker.expect)) {
          assert.equal(fs.existsSync(path.join(dir(), name)) ? fs.readFileSync(path.join(dir(), name), 'utf8') : undefined, text, name);
        }
      });
    }

    it('keeps hunk lines exact: a context line with a space too many does not match', () => {
      fs.writeFileSync(path.join(dir(), 'a.txt'), 'a\nb\n');
      refused(patch('*** Begin Patch\n*** Update File: a.txt\n@@\n  a\n-b\n+B\n*** End Patch\n').response, 'MATCH_NOT_FOUND');
      assert.equal(fs.readFileSync(path.join(dir(), 'a.txt'), 'utf8'), 'a\nb\n');
    });
  });
});
