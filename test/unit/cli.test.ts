import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { responseSchema, type EngineResponse, type ErrorEnvelope, type SuccessResponse } from '../../src/core/contract/schemas';
import { assertHygienic } from '../shared/hygiene';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

describe('CLI (dist/cli.js)', () => {
  let dir: string;

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run "npm run build" before the unit tests');
  });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-cli-'));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string): string => path.join(dir, name);

  function runCli(args: readonly string[], input?: string): CliRun {
    const result = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, input, encoding: 'utf8' });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  function writeRequest(request: unknown, name = 'request.json'): string {
    fs.writeFileSync(file(name), JSON.stringify(request));
    return file(name);
  }

  function parseResponse(run: CliRun): EngineResponse {
    const response = responseSchema.parse(JSON.parse(run.stdout));
    assertHygienic(response);
    return response;
  }

  function envelopeOf(run: CliRun): ErrorEnvelope {
    const response = parseResponse(run);
    assert.ok(!response.success, `expected an envelope, got ${run.stdout}`);
    return response;
  }

  function successOf(run: CliRun): SuccessResponse {
    const response = parseResponse(run);
    assert.ok(response.success, `expected success, got ${run.stdout}`);
    return response;
  }

  function assertUsageError(run: CliRun, message: RegExp): void {
    assert.equal(run.status, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, message);
  }

  describe('apply, JSON output', () => {
    it('applies the edits, prints one JSON success response and exits 0', () => {
      fs.writeFileSync(file('a.ts'), 'const a = 1;\nconst b = 2;\n');
      const run = runCli(['apply', writeRequest({
        file_path: file('a.ts'),
        edits: [{ old_string: 'const a = 1;', new_string: 'const a = 10;' }, { old_string: 'b = 2', new_string: 'b = 20' }],
      })]);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stderr, '');
      const response = successOf(run);
      assert.equal(response.edits_applied, 2);
      assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'const a = 10;\nconst b = 20;\n');
      assert.deepEqual(fs.readdirSync(dir).sort(), ['a.ts', 'request.json'], 'a temp file was left behind');
    });

    it('prints a MATCH_NOT_FOUND envelope that parses with the response schema, exits 1 and changes nothing', () => {
      fs.writeFileSync(file('a.ts'), 'function run() {\n\treturn 1;\n}\n');
      const run = runCli(['apply', writeRequest({
        file_path: file('a.ts'),
        edits: [{ old_string: 'function run()', new_string: 'function start()' }, { old_string: '    return 1;', new_string: '    return 2;' }],
      })]);
      assert.equal(run.status, 1);
      assert.equal(run.stderr, '');
      const envelope = envelopeOf(run);
      assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
      assert.equal(envelope.edit_index, 1);
      assert.equal(envelope.file_path, file('a.ts'));
      assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'function run() {\n\treturn 1;\n}\n');
    });

    it('prints VALIDATION_FAILED (exit 1) for JSON that does not fit the schema', () => {
      const run = runCli(['apply', writeRequest({ file_path: file('a.ts'), edits: [{ old: 'x', new: 'y' }] })]);
      assert.equal(run.status, 1);
      assert.equal(envelopeOf(run).error_code, 'VALIDATION_FAILED');
    });

    it('reads the request from standard input with "-"', () => {
      fs.writeFileSync(file('a.ts'), 'x = 1\n');
      const request = JSON.stringify({ file_path: file('a.ts'), edits: [{ old_string: 'x = 1', new_string: 'x = 2' }] });
      const run = runCli(['apply', '-'], request);
      assert.equal(run.status, 0, run.stdout + run.stderr);
      assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'x = 2\n');
    });

    it('accepts a request file that starts with a UTF-8 BOM', () => {
      fs.writeFileSync(file('a.ts'), 'x = 1\n');
      fs.writeFileSync(file('bom.json'), `\uFEFF${JSON.stringify({ file_path: file('a.ts'), edits: [{ old_string: 'x', new_string: 'y' }] })}`);
      assert.equal(runCli(['apply', file('bom.json')]).status, 0);
      assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'y = 1\n');
    });

    it('--dry-run writes nothing and returns the diff', () => {
      fs.writeFileSync(file('a.ts'), 'let answer = 41;\n');
      const run = runCli(['apply', '--dry-run', writeRequest({ file_path: file('a.ts'), edits: [{ old_string: '41', new_string: '42' }] })]);
      assert.equal(run.status, 0, run.stdout);
      const response = successOf(run);
      assert.equal(response.dry_run, true);
      assert.match(response.files[0].diff ?? '', /-let answer = 41;\n\+let answer = 42;/);
      assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'let answer = 41;\n');
    });

    it('treats a request with "files" as multi_edit_files, and leaves the first file byte-identical when the second fails', () => {
      const firstBytes = Buffer.from('\uFEFFline one\r\nline two\r\n', 'utf8');
      fs.writeFileSync(file('first.txt'), firstBytes);
      fs.writeFileSync(file('second.txt'), 'alpha\n');
      const run = runCli(['apply', writeRequest({
        files: [
          { file_path: file('first.txt'), edits: [{ old_string: 'line one', new_string: 'line 1' }] },
          { file_path: file('second.txt'), edits: [{ old_string: 'beta', new_string: 'gamma' }] },
        ],
      })]);
      assert.equal(run.status, 1);
      const envelope = envelopeOf(run);
      assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
      assert.equal(envelope.file_index, 1);
      assert.deepEqual(fs.readFileSync(file('first.txt')), firstBytes);
      assert.equal(fs.readFileSync(file('second.txt'), 'utf8'), 'alpha\n');
    });

    it('applies a multi-file request to every file', () => {
      fs.writeFileSync(file('one.ts'), 'a\n');
      fs.writeFileSync(file('two.ts'), 'b\n');
      const run = runCli(['apply', writeRequest({
        files: [
          { file_path: file('one.ts'), edits: [{ old_string: 'a', new_string: 'A' }] },
          { file_path: file('two.ts'), edits: [{ old_string: 'b', new_string: 'B' }] },
        ],
      })]);
      assert.equal(run.status, 0, run.stdout);
      assert.equal(successOf(run).files.length, 2);
      assert.deepEqual([fs.readFileSync(file('one.ts'), 'utf8'), fs.readFileSync(file('two.ts'), 'utf8')], ['A\n', 'B\n']);
    });

    it('names the failed edit a skipped edit waits on in depends_on, through a chain of skipped edits', () => {
      fs.writeFileSync(file('chain.ts'), 'let a = 1;\n');
      const run = runCli(['apply', writeRequest({
        file_path: file('chain.ts'),
        edits: [
          { old_string: 'let b = 1;', new_string: 'let c = 1;' },
          { old_string: 'let c', new_string: 'let d' },
          { old_string: 'let d', new_string: 'let e' },
          { old_string: 'let a', new_string: 'let z' },
        ],
      })]);
      assert.equal(run.status, 1);
      const statuses = envelopeOf(run).edit_status.map((status) => [status.edit_index, status.status, status.depends_on]);
      assert.deepEqual(statuses, [[0, 'failed', undefined], [1, 'skipped', [0]], [2, 'skipped', [0]]]);
    });

    it('names depends_on within each file of a multi-file request, and none for edits of a file that could not be read', () => {
      fs.writeFileSync(file('one.ts'), 'alpha\n');
      const run = runCli(['apply', writeRequest({
        files: [
          { file_path: file('missing.ts'), edits: [{ old_string: 'x', new_string: 'y' }] },
          {
            file_path: file('one.ts'),
            edits: [
              { old_string: 'alpha', new_string: 'beta' },
              { old_string: 'gamma', new_string: 'delta' },
              { old_string: 'delta', new_string: 'epsilon' },
            ],
          },
        ],
      })]);
      assert.equal(run.status, 1);
      const statuses = envelopeOf(run).edit_status.map((status) => [status.file_index, status.edit_index, status.status, status.depends_on]);
      assert.deepEqual(statuses, [[0, 0, 'skipped', undefined], [1, 1, 'failed', undefined], [1, 2, 'skipped', [1]]]);
    });

    it('refuses a relative path with RELATIVE_PATH: the CLI has no workspace', () => {
      fs.writeFileSync(file('a.ts'), 'x\n');
      const run = runCli(['apply', writeRequest({ file_path: 'a.ts', edits: [{ old_string: 'x', new_string: 'y' }] })]);
      assert.equal(run.status, 1);
      assert.equal(envelopeOf(run).error_code, 'RELATIVE_PATH');
      assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'x\n');
    });

    it('refuses a ".." segment with PATH_TRAVERSAL, even in an absolute path', () => {
      fs.mkdirSync(file('sub'));
      fs.writeFileSync(file('a.ts'), 'x\n');
      const run = runCli(['apply', writeRequest({ file_path: `${file('sub')}/../a.ts`, edits: [{ old_string: 'x', new_string: 'y' }] })]);
      assert.equal(run.status, 1);
      assert.equal(envelopeOf(run).error_code, 'PATH_TRAVERSAL');
      assert.equal(fs.readFileSync(file('a.ts'), 'utf8'), 'x\n');
    });

    it('reports a missing target file as FILE_NOT_FOUND', () => {
      const run = runCli(['apply', writeRequest({ file_path: file('missing.ts'), edits: [{ old_string: 'x', new_string: 'y' }] })]);
      assert.equal(run.status, 1);
      assert.equal(envelopeOf(run).error_code, 'FILE_NOT_FOUND');
    });
  });

  describe('apply, text output', () => {
    it('prints an "ok" line on success', () => {
      fs.writeFileSync(file('a.ts'), 'one two two\n');
      const run = runCli(['apply', '--format', 'text', writeRequest({
        file_path: file('a.ts'),
        edits: [{ old_string: 'one', new_string: '1' }, { old_string: 'two', new_string: '2', replace_all: true }],
      })]);
      assert.equal(run.status, 0, run.stdout);
      assert.equal(run.stdout.split('\n')[0], 'ok applied 2 edits (3 replacements) to a.ts');
    });

    it('prints the dry-run diff', () => {
      fs.writeFileSync(file('a.ts'), 'one\n');
      const run = runCli(['apply', '--dry-run', '--format=text', writeRequest({ file_path: file('a.ts'), edits: [{ old_string: 'one', new_string: 'uno' }] })]);
      assert.equal(run.status, 0, run.stdout);
      assert.match(run.stdout, /^ok dry run: 1 edit \(1 replacement\) would apply to a\.ts; nothing was written\n/);
      assert.match(run.stdout, /^-one$/m);
      assert.match(run.stdout, /^\+uno$/m);
    });

    it('prints the error line, the hints and the numbered snippet on failure', () => {
      fs.writeFileSync(file('a.ts'), 'function run() {\n\treturn 1;\n}\n');
      const run = runCli(['apply', '--format', 'text', writeRequest({
        file_path: file('a.ts'),
        edits: [{ old_string: 'function run()', new_string: 'function start()' }, { old_string: '    return 1;', new_string: '    return 2;' }],
      })]);
      assert.equal(run.status, 1);
      const lines = run.stdout.split('\n');
      assert.match(lines[0], /^error code=MATCH_NOT_FOUND file=a\.ts edit=1 msg="[^"]+"$/);
      assert.ok(lines.includes('hints:'), run.stdout);
      assert.ok(lines.some((line) => /^ +2 \| \treturn 1;$/.test(line)), run.stdout);
      assert.match(run.stdout, /^docs: \S+#match_not_found$/m);
    });

    it('lists every location of an ambiguous match', () => {
      fs.writeFileSync(file('a.ts'), 'x();\ny();\nx();\n');
      const run = runCli(['apply', '--format', 'text', writeRequest({ file_path: file('a.ts'), edits: [{ old_string: 'x();', new_string: 'z();' }] })]);
      assert.equal(run.status, 1);
      assert.match(run.stdout, /^error code=AMBIGUOUS_MATCH /);
      assert.match(run.stdout, /^matches: 2$/m);
      assert.match(run.stdout, /^ {2}line 1, column 1:$/m);
      assert.match(run.stdout, /^ {2}line 3, column 1:$/m);
    });
  });

  describe('usage errors (exit 2, message on stderr, nothing on stdout)', () => {
    it('rejects a request that is not JSON', () => {
      fs.writeFileSync(file('broken.json'), '{ "file_path": ');
      assertUsageError(runCli(['apply', file('broken.json')]), /not valid JSON/);
    });

    it('rejects empty standard input', () => {
      assertUsageError(runCli(['apply', '-'], ''), /standard input is empty/);
    });

    it('rejects a missing request file', () => {
      assertUsageError(runCli(['apply', file('nope.json')]), /cannot read the request file .*nope\.json.*: no file exists/);
    });

    const cases: ReadonlyArray<[string, readonly string[], RegExp]> = [
      ['no command', [], /no command given/],
      ['an unknown command', ['patch', 'x.json'], /unknown command "patch"/],
      ['an unknown option', ['apply', '--force', 'x.json'], /unknown option "--force"/],
      ['an unknown format', ['apply', '--format', 'xml', 'x.json'], /unknown format "xml"/],
      ['--format without a value', ['apply', 'x.json', '--format'], /--format needs a value/],
      ['no request operand', ['apply', '--dry-run'], /apply needs a request file/],
      ['two request operands', ['apply', 'a.json', 'b.json'], /one request, but 2 were given/],
    ];
    for (const [name, args, message] of cases) {
      it(`rejects ${name}`, () => {
        const run = runCli(args);
        assertUsageError(run, message);
        assert.match(run.stderr, /usage: multi-edit apply/);
      });
    }
  });

  describe('help and version', () => {
    for (const flag of ['--help', '-h']) {
      it(`${flag} documents commands, options, exit codes and request shapes, and exits 0`, () => {
        const run = runCli([flag]);
        assert.equal(run.status, 0);
        for (const text of ['usage: multi-edit apply', '--dry-run', '--format json', '--format text', 'Exit codes:', 'multi_edit_files', '"old_string"', 'Example']) {
          assert.ok(run.stdout.includes(text), `--help does not mention ${text}`);
        }
      });
    }

    it('--version prints the package version', () => {
      const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
      const run = runCli(['--version']);
      assert.equal(run.status, 0);
      assert.equal(run.stdout, `${version}\n`);
    });
  });
});
