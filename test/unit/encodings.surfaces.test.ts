/**
 * A Latin-1, a UTF-16 and a Shift_JIS file edited through the built CLI (`apply` with a
 * request field and with --encoding, `patch --encoding`) and through the MCP server with
 * the SDK's own client: every byte outside the edit stays as it was.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as iconv from 'iconv-lite';
import { parseArgs } from '../../src/node/cli/cliArgs';
import { parseCliResponse, runCli } from './helpers/cliRun';
import { startMcpSession } from './helpers/mcpSession';
import { useTempDir } from './helpers/tempDir';

interface SurfaceFixture {
  readonly name: string;
  /** The request's encoding; undefined when the BOM decides. */
  readonly encoding?: string;
  readonly bytes: (text: string) => Buffer;
  readonly before: string;
  readonly after: string;
  readonly oldLine: string;
  readonly newLine: string;
}

const FIXTURES: readonly SurfaceFixture[] = [
  {
    name: 'latin1.py', encoding: 'iso-8859-1', bytes: (text) => iconv.encode(text, 'iso-8859-1'),
    before: '# caf\u00e9\r\n', oldLine: 'caf\u00e9 = 1', newLine: 'caf\u00e9 = "cr\u00e8me br\u00fbl\u00e9e"', after: '\r\nprint(caf\u00e9)\r\n',
  },
  {
    name: 'script.ps1', bytes: (text) => Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]),
    before: 'Write-Host "h\u00e9llo"\r\n', oldLine: '$x = 1', newLine: '$x = "\u20ac \u6f22 \u{1f600}"', after: '\r\nexit\r\n',
  },
  {
    name: 'notes.txt', encoding: 'shift_jis', bytes: (text) => iconv.encode(text, 'shift_jis'),
    before: '\u540d\u524d = "\u30c6\u30b9\u30c8"\r\n', oldLine: '\u5024 = 1', newLine: '\u5024 = "\u65e5\u672c\u8a9e"', after: '\r\n\u7d42\u308f\u308a\r\n',
  },
];

/** What the file must hold after the edit: the bytes before and after the line taken from the original file. */
function expectedBytes(fixture: SurfaceFixture, original: Buffer): Buffer {
  const start = fixture.bytes(fixture.before).length;
  const oldLength = fixture.bytes(fixture.oldLine).length - (fixture.encoding === undefined ? 2 : 0);
  const newBytes = fixture.bytes(fixture.newLine).subarray(fixture.encoding === undefined ? 2 : 0);
  return Buffer.concat([original.subarray(0, start), newBytes, original.subarray(start + oldLength)]);
}

describe('--encoding', () => {
  it('is taken by apply, patch and mcp, in both spellings, and needs a name', () => {
    assert.deepEqual(parseArgs(['apply', '--encoding', 'shift_jis', 'r.json']), { kind: 'apply', dryRun: false, format: 'json', source: 'r.json', syntaxCheck: 'refuse', allowProtected: [], noHistory: false, encoding: 'shift_jis' });
    assert.deepEqual(parseArgs(['patch', '--encoding=gbk', 'p.diff']), { kind: 'patch', dryRun: false, fullDiff: false, format: 'json', source: 'p.diff', syntaxCheck: 'refuse', allowProtected: [], noHistory: false, encoding: 'gbk' });
    assert.deepEqual(parseArgs(['mcp', '--encoding', 'koi8-r']), { kind: 'mcp', roots: [], syntaxCheck: 'refuse', allowProtected: [], noHistory: false, encoding: 'koi8-r' });
    assert.equal(parseArgs(['apply', 'r.json', '--encoding']).kind, 'usage_error');
    assert.equal(parseArgs(['apply', '--encoding=', 'r.json']).kind, 'usage_error');
  });
});

describe('files in other encodings through the CLI and the MCP server', function () {
  this.timeout(60_000);
  const dir = useTempDir('encoding-surfaces');


  function seed(fixture: SurfaceFixture): { file: string; original: Buffer } {
    const original = fixture.bytes(`${fixture.before}${fixture.oldLine}${fixture.after}`);
    const file = path.join(dir(), fixture.name);
    fs.writeFileSync(file, original);
    return { file, original };
  }

  for (const fixture of FIXTURES) {
    it(`multi-edit apply edits ${fixture.name} with every other byte kept (request field, then --encoding)`, () => {
      const { file, original } = seed(fixture);
      const requestFile = path.join(dir(), 'request.json');
      const request = { file_path: file, edits: [{ old_string: fixture.oldLine, new_string: fixture.newLine }] };
      fs.writeFileSync(requestFile, JSON.stringify({ ...request, ...(fixture.encoding ? { encoding: fixture.encoding } : {}) }));
      const run = runCli(['apply', requestFile], { cwd: dir() });
      assert.equal(run.status, 0, run.stdout + run.stderr);
      assert.deepEqual(fs.readFileSync(file), expectedBytes(fixture, original));

      fs.writeFileSync(file, original);
      fs.writeFileSync(requestFile, JSON.stringify(request));
      const withOption = runCli(['apply', ...(fixture.encoding ? ['--encoding', fixture.encoding] : []), requestFile], { cwd: dir() });
      assert.equal(withOption.status, 0, withOption.stdout + withOption.stderr);
      assert.deepEqual(fs.readFileSync(file), expectedBytes(fixture, original));
    });

    it(`multi-edit patch --encoding edits ${fixture.name} with every other byte kept`, () => {
      const { file, original } = seed(fixture);
      const patch = `*** Begin Patch\n*** Update File: ${fixture.name}\n@@\n-${fixture.oldLine}\n+${fixture.newLine}\n*** End Patch\n`;
      const run = runCli(['patch', '--root', dir(), ...(fixture.encoding ? ['--encoding', fixture.encoding] : []), '-'], { cwd: dir(), input: patch });
      assert.equal(run.status, 0, run.stdout + run.stderr);
      assert.deepEqual(fs.readFileSync(file), expectedBytes(fixture, original));
    });
  }

  it('the CLI refuses a Latin-1 file without an encoding, naming the likely one, and writes nothing', () => {
    const { file, original } = seed(FIXTURES[0]);
    const run = runCli(['apply', '-'], { cwd: dir(), input: JSON.stringify({ file_path: file, edits: [{ old_string: FIXTURES[0].oldLine, new_string: 'x = 2' }] }) });
    assert.equal(run.status, 1);
    const response = parseCliResponse(run);
    assert.ok(!response.success && response.error_code === 'INVALID_ENCODING');
    assert.match(response.message, /not UTF-8, and no encoding was named/);
    assert.deepEqual(fs.readFileSync(file), original);
  });

  it('the MCP server edits the three files (field and --encoding) and refuses an unrepresentable character', async () => {
    const seeded = FIXTURES.map((fixture) => ({ fixture, ...seed(fixture) }));
    const session = await startMcpSession({ cwd: dir(), args: ['--root', dir(), '--encoding', 'shift_jis'] });
    try {
      for (const { fixture, file, original } of seeded) {
        // The Shift_JIS file relies on the server's --encoding; the Latin-1 one names its own.
        const encoding = fixture.encoding === 'iso-8859-1' ? { encoding: fixture.encoding } : {};
        const { response } = await session.call('multi_edit', { file_path: file, ...encoding, edits: [{ old_string: fixture.oldLine, new_string: fixture.newLine }] });
        assert.equal(response.success, true, JSON.stringify(response));
        assert.deepEqual(fs.readFileSync(file), expectedBytes(fixture, original));
      }
      const latin1 = seeded[0];
      const before = fs.readFileSync(latin1.file);
      const { response } = await session.call('multi_edit', { file_path: latin1.file, encoding: 'iso-8859-1', edits: [{ old_string: 'print', new_string: 'print \u20ac' }] });
      assert.ok(!response.success && response.error_code === 'UNREPRESENTABLE_CHARACTER', JSON.stringify(response));
      assert.equal(response.context?.unrepresentable?.code_point, 'U+20AC');
      assert.deepEqual(fs.readFileSync(latin1.file), before);
    } finally {
      await session.close();
    }
  });
});
