/**
 * The syntax gate through the built CLI and MCP server: refuse by default, warn and
 * off by option, and a file of no known language neither checked nor loading a parser.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, parseCliResponse, runCli } from './helpers/cliRun';
import { startMcpSession } from './helpers/mcpSession';
import { parseArgs } from '../../src/node/cli/cliArgs';
import { useTempDir } from './helpers/tempDir';

const BROKEN_CALL = { old_string: 'return total(x, 2);', new_string: 'return total(x, 2;' };
const SOURCE = 'export function sum(x: number): number {\n  return total(x, 2);\n}\n';

describe('syntax gate: CLI and MCP server', function () {
  this.timeout(60_000);
  const dir = useTempDir('syntax');
  const file = (name: string): string => path.join(dir(), name);
  const request = (target: string, extra: object = {}): string => {
    const requestFile = path.join(dir(), 'request.json');
    fs.writeFileSync(requestFile, JSON.stringify({ file_path: target, edits: [BROKEN_CALL], ...extra }));
    return requestFile;
  };

  beforeEach(() => {
    fs.writeFileSync(file('sum.ts'), SOURCE);
  });

  it('parses --syntax-check for apply and mcp, and refuses an unknown policy', () => {
    assert.equal((parseArgs(['apply', 'r.json']) as { syntaxCheck?: string }).syntaxCheck, 'refuse');
    assert.equal((parseArgs(['apply', '--syntax-check', 'warn', 'r.json']) as { syntaxCheck?: string }).syntaxCheck, 'warn');
    assert.equal((parseArgs(['mcp', '--syntax-check=off']) as { syntaxCheck?: string }).syntaxCheck, 'off');
    assert.equal(parseArgs(['apply', '--syntax-check', 'never', 'r.json']).kind, 'usage_error');
    assert.equal(parseArgs(['mcp', '--syntax-check']).kind, 'usage_error');
  });

  it('apply refuses an edit that breaks the parse, exit 1, with nothing written', () => {
    const run = runCli(['apply', request(file('sum.ts'))], { cwd: dir() });
    assert.equal(run.status, 1, run.stderr);
    const response = parseCliResponse(run);
    assert.equal(!response.success && response.error_code, 'SYNTAX_REGRESSION');
    assert.deepEqual(!response.success && response.context?.syntax_errors, [{ line: 2, column: 20 }]);
    assert.equal(fs.readFileSync(file('sum.ts'), 'utf8'), SOURCE);
  });

  it('apply --format text heads the snippet as the text it would write, not as a closest match', () => {
    const run = runCli(['apply', '--format', 'text', request(file('sum.ts'))], { cwd: dir() });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stdout, /^text as it would be written, around the first new syntax error \(from line 1\):$/m);
    assert.match(run.stdout, /return total\(x, 2;/);
    assert.doesNotMatch(run.stdout, /closest/);
  });

  it('apply refuses a JSON edit that drops a comma, through the bundled JSON parser', () => {
    const json = '{\n  "name": "shop",\n  "private": true\n}\n';
    fs.writeFileSync(file('package.json'), json);
    const requestFile = path.join(dir(), 'request.json');
    fs.writeFileSync(requestFile, JSON.stringify({ file_path: file('package.json'), edits: [{ old_string: '"shop",', new_string: '"shop"' }] }));
    const response = parseCliResponse(runCli(['apply', requestFile], { cwd: dir() }));
    assert.deepEqual(!response.success && [response.error_code, response.context?.syntax_errors?.[0]?.line], ['SYNTAX_REGRESSION', 3]);
    assert.equal(fs.readFileSync(file('package.json'), 'utf8'), json);
  });

  it('apply --syntax-check warn writes it and warns with the line; off says nothing', () => {
    const warned = parseCliResponse(runCli(['apply', '--syntax-check', 'warn', request(file('sum.ts'))], { cwd: dir() }));
    assert.ok(warned.success);
    assert.deepEqual(warned.warnings?.map(({ code, file_path, line }) => ({ code, file_path, line })), [{ code: 'SYNTAX_REGRESSION', file_path: file('sum.ts'), line: 2 }]);
    assert.match(fs.readFileSync(file('sum.ts'), 'utf8'), /total\(x, 2;/);
    fs.writeFileSync(file('sum.ts'), SOURCE);
    const off = parseCliResponse(runCli(['apply', '--syntax-check=off', request(file('sum.ts'))], { cwd: dir() }));
    assert.ok(off.success);
    assert.equal(off.warnings, undefined);
  });

  it('does not check, mention or load a parser for a file of no known language', () => {
    fs.writeFileSync(file('notes.txt'), SOURCE);
    const loaded = path.join(dir(), 'loaded.json');
    const recorder = path.join(dir(), 'record-modules.cjs');
    fs.writeFileSync(recorder, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(Object.keys(require.cache))));\n`);
    const run = spawnSync(process.execPath, ['--require', recorder, CLI, 'apply', request(file('notes.txt'))], { cwd: dir(), encoding: 'utf8' });
    const response = parseCliResponse(run);
    assert.ok(response.success);
    assert.equal(response.warnings, undefined);
    const modules = JSON.parse(fs.readFileSync(loaded, 'utf8')) as string[];
    assert.deepEqual(modules.filter((module) => /treeSitterErrors|jsonSyntaxErrors/.test(module)), []);
    // The same recorder does see the parser load for a TypeScript file, so the check above can fail.
    spawnSync(process.execPath, ['--require', recorder, CLI, 'apply', request(file('sum.ts'))], { cwd: dir(), encoding: 'utf8' });
    assert.ok((JSON.parse(fs.readFileSync(loaded, 'utf8')) as string[]).some((module) => module.endsWith(`${path.sep}treeSitterErrors.js`)));
  });

  for (const [policy, expected] of [['refuse', 'SYNTAX_REGRESSION'], ['warn', 'warning'], ['off', 'silent']] as const) {
    it(`the MCP server honours --syntax-check ${policy}`, async () => {
      const session = await startMcpSession({ cwd: dir(), args: ['--root', dir(), '--syntax-check', policy] });
      try {
        const { response } = await session.call('multi_edit', { file_path: file('sum.ts'), edits: [BROKEN_CALL] });
        if (expected === 'SYNTAX_REGRESSION') {
          assert.equal(!response.success && response.error_code, 'SYNTAX_REGRESSION');
          assert.equal(fs.readFileSync(file('sum.ts'), 'utf8'), SOURCE);
        } else {
          assert.ok(response.success);
          assert.deepEqual(response.warnings?.map((warning) => warning.code), expected === 'warning' ? ['SYNTAX_REGRESSION'] : undefined);
        }
      } finally {
        await session.close();
      }
    });
  }
});
