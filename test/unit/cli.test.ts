import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLI, parseCliResponse, REPO_ROOT, runCli as runCliIn, runScenarioThroughCli, type CliRun } from './helpers/cliRun';
import { linksWork } from './helpers/fileLinks';
import { REQUEST_SCENARIOS, scenarioNamed, type RequestScenario } from './helpers/requestScenarios';

describe('CLI (dist/cli.js)', () => {
  let dir: string;
  let requestDir: string;

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run "npm run build" before the unit tests');
  });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-cli-'));
    requestDir = fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-cli-request-'));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(requestDir, { recursive: true, force: true });
  });

  const file = (name: string): string => path.join(dir, name);
  const runCli = (args: readonly string[], input?: string): CliRun => runCliIn(args, { cwd: dir, input });
  const runScenario = (scenario: RequestScenario, extraArgs: readonly string[] = []): CliRun => runScenarioThroughCli(scenario, dir, requestDir, extraArgs).run;

  function assertUsageError(run: CliRun, message: RegExp): void {
    assert.equal(run.status, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, message);
  }

  describe('apply, JSON output: one response on stdout, exit 0 on success and 1 for an envelope', () => {
    for (const scenario of REQUEST_SCENARIOS) {
      it(scenario.name, () => {
        const { run, files } = runScenarioThroughCli(scenario, dir, requestDir);
        assert.equal(run.stderr, '');
        const response = parseCliResponse(run);
        assert.equal(run.status, response.success ? 0 : 1);
        scenario.check(response, files);
      });
    }
  });

  describe('apply, options', () => {
    it('keeps zod out of dist/cli.js: only an invalid request loads it, from dist/schemaProblem.js', () => {
      // A zod issue code is a string literal, so it survives minification (a module path comment does not).
      const zodMarker = /"invalid_union"/;
      assert.doesNotMatch(fs.readFileSync(CLI, 'utf8'), zodMarker, 'dist/cli.js bundles zod');
      assert.match(fs.readFileSync(path.join(REPO_ROOT, 'dist', 'schemaProblem.js'), 'utf8'), zodMarker);
    });

    it('--max-file-size sets the size limit: a larger file is FILE_TOO_LARGE, a smaller one is edited', () => {
      fs.writeFileSync(file('big.ts'), `${'x'.repeat(2048)}\nanswer = 41;\n`);
      const request = path.join(requestDir, 'request.json');
      fs.writeFileSync(request, JSON.stringify({ file_path: file('big.ts'), edits: [{ old_string: '41', new_string: '42' }] }));
      const refused = runCli(['apply', '--max-file-size', '0.001', request]);
      assert.equal(refused.status, 1, refused.stdout);
      const response = parseCliResponse(refused);
      assert.equal(!response.success && response.error_code, 'FILE_TOO_LARGE');
      assert.equal(runCli(['apply', '--max-file-size=1', request]).status, 0);
      assert.match(fs.readFileSync(file('big.ts'), 'utf8'), /answer = 42;/);
    });
  });

  describe('apply, text output', () => {
    it('prints an "ok" line on success', () => {
      const run = runScenario(scenarioNamed('counts replacements of replace_all'), ['--format', 'text']);
      assert.equal(run.status, 0, run.stdout);
      assert.equal(run.stdout.split('\n')[0], 'ok applied 2 edits (3 replacements) to a.ts');
    });

    it('prints the dry-run diff', () => {
      const run = runScenario(scenarioNamed('a dry run of one edit'), ['--format=text']);
      assert.equal(run.status, 0, run.stdout);
      assert.match(run.stdout, /^ok dry run: 1 edit \(1 replacement\) would apply to a\.ts; nothing was written\n/);
      assert.match(run.stdout, /^-one$/m);
      assert.match(run.stdout, /^\+uno$/m);
    });

    it('prints the error line, the hints and the numbered snippet on failure', () => {
      const run = runScenario(scenarioNamed('MATCH_NOT_FOUND on an indentation miss changes nothing'), ['--format', 'text']);
      assert.equal(run.status, 1);
      const lines = run.stdout.split('\n');
      // People count from 1, as the message does: the second edit is edit 2 on every line.
      assert.match(lines[0], /^error code=MATCH_NOT_FOUND file=a\.ts edit=2 msg="Edit 2 of 2 failed: [^"]+"$/);
      assert.ok(lines.includes('summary: fix edit 2 (MATCH_NOT_FOUND)'), run.stdout);
      assert.ok(lines.includes('  edit 2 failed MATCH_NOT_FOUND: old_string was not found in a.ts'), run.stdout);
      assert.match(run.stdout, /^next: fix_and_resubmit \(edit 2\); retryable: yes$/m);
      assert.ok(lines.includes('hints:'), run.stdout);
      // The closest line, the one that differs least from old_string, is marked; its neighbours are not.
      assert.match(run.stdout, /^text around the closest match \(from line 1; > marks line 2, the closest\):$/m);
      assert.ok(lines.includes('> 2 | \treturn 1;'), run.stdout);
      assert.ok(lines.includes('  1 | function start() {'), run.stdout); // the text as edit 1 left it
      assert.match(run.stdout, /^docs: \S+#match_not_found$/m);
    });

    const applyAsText = (request: object, extraArgs: readonly string[] = []): CliRun => {
      const requestFile = path.join(requestDir, 'request.json');
      fs.writeFileSync(requestFile, JSON.stringify(request));
      return runCli(['apply', '--format', 'text', ...extraArgs, requestFile]);
    };

    it('prints a CRLF file\'s diff without a stray \\u000d on its last line', () => {
      fs.writeFileSync(file('crlf.ts'), 'one\r\ntwo\r\nthree\r\n');
      const run = applyAsText({ file_path: file('crlf.ts'), edits: [{ old_string: 'two', new_string: 'TWO' }] }, ['--dry-run']);
      assert.equal(run.status, 0, run.stdout);
      assert.doesNotMatch(run.stdout, /\\u000d|\r/);
      assert.match(run.stdout, /^-two\n\+TWO\n three$/m);
    });

    it('prints the names near a missing file and where the near match stands', () => {
      fs.writeFileSync(file('config.ts'), 'export const limit = 10;\n');
      const missing = applyAsText({ file_path: file('confg.ts'), edits: [{ old_string: 'a', new_string: 'b' }] });
      assert.equal(missing.status, 1);
      assert.match(missing.stdout, /^nearby names: config\.ts$/m);
      const indented = applyAsText({ file_path: file('config.ts'), edits: [{ old_string: 'export  const limit = 10;', new_string: 'export const limit = 20;' }] });
      assert.equal(indented.status, 1);
      assert.match(indented.stdout, /^diagnosis: WHITESPACE_ONLY: /m);
      assert.match(indented.stdout, /^near match: line 1, column 1 to column \d+$/m);
    });

    it('lists each validation problem the "(and N more)" message counts', () => {
      const run = applyAsText({ file_path: file('a.ts'), edits: [{ old_string: 'a', new_strng: 'b' }] });
      assert.equal(run.status, 1);
      assert.match(run.stdout, /\(and 1 more problem\)"$/m);
      assert.match(run.stdout, /^problems:\n {2}- edits\[0\]\.new_string: expected string, got nothing \(the field is missing\)\n {2}- edits\[0\]\.new_strng: unknown field; did you mean new_string\?$/m);
    });

    it('lists every location of an ambiguous match', () => {
      const run = runScenario(scenarioNamed('AMBIGUOUS_MATCH lists every location'), ['--format', 'text']);
      assert.equal(run.status, 1);
      assert.match(run.stdout, /^error code=AMBIGUOUS_MATCH /);
      assert.match(run.stdout, /^matches: 2$/m);
      assert.match(run.stdout, /^ {2}line 1, column 1 \(told apart from the others by line 2 below\):$/m);
      assert.match(run.stdout, /^ {2}line 3, column 1 \(told apart from the others by line 2 above\):$/m);
    });
  });

  describe('patch', () => {
    const diff = ['--- a/src/a.ts', '+++ b/src/a.ts', '@@ -1,2 +1,2 @@', ' const a = 1;', '-const b = 2;', '+const b = 3;', ''].join('\n');

    it('applies a unified diff from standard input under the current directory, and prints the operation in text', () => {
      fs.mkdirSync(file('src'));
      fs.writeFileSync(file('src/a.ts'), 'const a = 1;\nconst b = 2;\n');
      const run = runCli(['patch', '--format', 'text', '-'], diff);
      assert.equal(run.status, 0, run.stdout + run.stderr);
      assert.equal(run.stdout.split('\n')[0], 'ok applied 1 hunk to 1 file');
      assert.match(run.stdout, /^ {2}update src[\\/]a\.ts, 1 hunk$/m);
      assert.equal(fs.readFileSync(file('src/a.ts'), 'utf8'), 'const a = 1;\nconst b = 3;\n');
    });

    it('refuses a path outside --root, and a --root that is not a directory', () => {
      const escape = ['*** Begin Patch', '*** Update File: ../outside.ts', '@@', '-a', '+b', '*** End Patch', ''].join('\n');
      fs.writeFileSync(file('escape.patch'), escape);
      const refused = runCli(['patch', '--root', dir, file('escape.patch')]);
      assert.equal(refused.status, 1, refused.stdout);
      const response = parseCliResponse(refused);
      assert.equal(!response.success && response.error_code, 'PATH_TRAVERSAL');
      assertUsageError(runCli(['patch', '--root', file('escape.patch'), file('escape.patch')]), /is not a directory/);
      assertUsageError(runCli(['patch']), /patch needs a patch file/);
    });
  });

  describe('protected files: one rule for apply, patch and mcp', () => {
    const secrets = { '.git/config': '[core]\n\tbare = false\n', '.env': 'TOKEN=secret\n', 'config/.env.local': 'TOKEN=local\n' };

    beforeEach(() => {
      for (const [name, text] of Object.entries(secrets)) {
        fs.mkdirSync(path.dirname(file(name)), { recursive: true });
        fs.writeFileSync(file(name), text);
      }
    });

    /** `multi-edit apply` of one edit to `name`, with `extra` options; the file's text after it. */
    function applyTo(name: string, extra: readonly string[]): { readonly run: CliRun; readonly text: string } {
      const request = path.join(requestDir, 'request.json');
      const oldString = secrets[name as keyof typeof secrets].split('\n')[0];
      fs.writeFileSync(request, JSON.stringify({ file_path: file(name), edits: [{ old_string: oldString, new_string: `${oldString} # changed` }] }));
      const run = runCli(['apply', ...extra, request]);
      return { run, text: fs.readFileSync(file(name), 'utf8') };
    }

    for (const name of Object.keys(secrets)) {
      it(`apply refuses ${name} (FORBIDDEN_PATH), naming --allow-protected, and leaves it as it was`, () => {
        const { run, text } = applyTo(name, []);
        assert.equal(run.status, 1, run.stdout + run.stderr);
        const response = parseCliResponse(run);
        assert.equal(!response.success && response.error_code, 'FORBIDDEN_PATH');
        assert.match(!response.success ? response.recovery_hints.join('\n') : '', /--allow-protected GLOB/);
        assert.equal(text, secrets[name as keyof typeof secrets]);
      });
    }

    it('apply edits .git/config and .env when the user passes --allow-protected for each, and only those', () => {
      const allowed = ['--allow-protected', '**/.git/**', '--allow-protected=**/.env'];
      for (const name of ['.git/config', '.env']) {
        const { run, text } = applyTo(name, allowed);
        assert.equal(run.status, 0, run.stdout + run.stderr);
        assert.match(text, /# changed/);
      }
      const still = applyTo('config/.env.local', allowed);
      assert.equal(still.run.status, 1, 'a glob lifts the protection of what it matches, nothing more');
      assert.equal(still.text, secrets['config/.env.local']);
    });

    it('apply refuses a link to .env as it refuses .env, by where it leads', function () {
      if (!linksWork(requestDir)) {
        this.skip(); // No followable symbolic links here (Windows without the privilege, or Wine).
      }
      fs.symlinkSync(file('.env'), file('settings.txt'));
      const request = path.join(requestDir, 'request.json');
      fs.writeFileSync(request, JSON.stringify({ file_path: file('settings.txt'), edits: [{ old_string: 'TOKEN', new_string: 'LEAKED' }] }));
      const run = runCli(['apply', request]);
      const response = parseCliResponse(run);
      assert.equal(!response.success && response.error_code, 'FORBIDDEN_PATH');
      assert.equal(fs.readFileSync(file('.env'), 'utf8'), secrets['.env']);
    });

    it('patch refuses .env and .git/config alike, and applies them with --allow-protected', () => {
      const patch = ['*** Begin Patch', '*** Update File: .env', '@@', '-TOKEN=secret', '+TOKEN=rotated', '*** Update File: .git/config', '@@', ' [core]', '-\tbare = false', '+\tbare = true', '*** End Patch', ''].join('\n');
      const refused = runCli(['patch', '-'], patch);
      assert.equal(refused.status, 1, refused.stdout + refused.stderr);
      const response = parseCliResponse(refused);
      assert.equal(!response.success && response.error_code, 'FORBIDDEN_PATH');
      assert.equal(fs.readFileSync(file('.env'), 'utf8'), secrets['.env']);
      const applied = runCli(['patch', '--allow-protected', '.env', '--allow-protected', '.git/**', '-'], patch);
      assert.equal(applied.status, 0, applied.stdout + applied.stderr);
      assert.equal(fs.readFileSync(file('.env'), 'utf8'), 'TOKEN=rotated\n');
      assert.equal(fs.readFileSync(file('.git/config'), 'utf8'), '[core]\n\tbare = true\n');
    });

    it('--allow-protected needs a glob', () => {
      assertUsageError(runCli(['apply', '--allow-protected']), /--allow-protected needs a glob/);
      assertUsageError(runCli(['mcp', '--allow-protected=']), /--allow-protected needs a glob/);
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
      ['an unknown command', ['repair', 'x.json'], /unknown command "repair"/],
      ['an unknown option', ['apply', '--force', 'x.json'], /unknown option "--force"/],
      ['an unknown format', ['apply', '--format', 'xml', 'x.json'], /unknown format "xml"/],
      ['a --max-file-size that is not a positive number', ['apply', '--max-file-size', '-3', 'x.json'], /--max-file-size needs a positive number/],
      ['--format without a value', ['apply', 'x.json', '--format'], /--format needs a value/],
      ['a --max-file-size that is not a positive number', ['apply', '--max-file-size', '-3', 'x.json'], /--max-file-size needs a positive number/],
      ['no request operand', ['apply', '--dry-run'], /apply needs a request file/],
      ['two request operands', ['apply', 'a.json', 'b.json'], /one request, but 2 were given/],
      ['an operand to mcp', ['mcp', 'x.json'], /mcp takes no operand, but "x.json" was given/],
      ['--root without a directory', ['mcp', '--root'], /--root needs a directory/],
      ['an unknown option of mcp', ['mcp', '--port', '8080'], /unknown option "--port" for mcp/],
    ];
    for (const [name, args, message] of cases) {
      it(`rejects ${name}`, () => {
        const run = runCli(args);
        assertUsageError(run, message);
        const command = ['apply', 'patch', 'mcp'].find((name) => name === args[0]);
        assert.match(run.stderr, new RegExp(`usage: multi-edit ${command ?? 'apply'} `));
      });
    }
  });

  describe('help and version', () => {
    for (const flag of ['--help', '-h']) {
      it(`${flag} documents commands, options and exit codes, and exits 0; apply ${flag} the request shapes and an example`, () => {
        const run = runCli([flag]);
        assert.equal(run.status, 0);
        for (const text of ['usage: multi-edit apply', 'multi-edit mcp [--root DIR]', 'multi-edit patch', '--dry-run', '--format json|text', 'Exit codes:', '--allow-protected GLOB']) {
          assert.ok(run.stdout.includes(text), `--help does not mention ${text}`);
        }
        const apply = runCli(['apply', flag]);
        assert.equal(apply.status, 0);
        for (const text of ['usage: multi-edit apply', '--dry-run', 'Exit codes:', 'multi_edit_files', '"old_string"', 'Example']) {
          assert.ok(apply.stdout.includes(text), `apply --help does not mention ${text}`);
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
