/**
 * `multi-edit mcp` driven by the official MCP Inspector's command line (`--cli`), a standard
 * client that declares the roots capability and lists no root. With --root, the --root folders
 * stay in force; without it, the empty list keeps the scope closed.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { responseSchema, type EngineResponse } from '../../src/core/contract/schemas';
import { CLI, REPO_ROOT } from './helpers/cliRun';
import { useTempDir } from './helpers/tempDir';

const INSPECTOR = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');

interface InspectorCall {
  readonly status: number | null;
  readonly response: EngineResponse;
  /** The server's log, which the Inspector passes through on its stderr. */
  readonly stderr: string;
}

describe('MCP server under the MCP Inspector CLI', function () {
  this.timeout(120_000);
  const base = useTempDir('inspector');
  let project: string;
  let other: string;

  before(() => {
    const { version } = JSON.parse(fs.readFileSync(path.join(path.dirname(INSPECTOR), '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
    assert.match(version, /^2\./, 'the Inspector of the 2.x line is installed (npm install)');
  });

  beforeEach(() => {
    project = path.join(base(), 'project');
    other = path.join(base(), 'other');
    for (const folder of [project, other]) {
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, 'a.ts'), 'export const answer = 41;\n');
    }
  });

  /** One tools/call of multi_edit on `file`, the server started as `multi-edit mcp ...serverArgs` in `cwd`. */
  function callEdit(file: string, serverArgs: readonly string[], cwd: string): InspectorCall {
    const run = spawnSync(process.execPath, [
      INSPECTOR, '--cli',
      '--method', 'tools/call', '--tool-name', 'multi_edit',
      '--tool-arg', `file_path=${file}`,
      '--tool-arg', `edits=${JSON.stringify([{ old_string: '41', new_string: '42' }])}`,
      '--', process.execPath, CLI, 'mcp', ...serverArgs,
    ], { cwd, encoding: 'utf8', env: { ...process.env, MCP_CATALOG_PATH: path.join(base(), 'catalog.json') }, timeout: 60_000 });
    assert.ok(run.stdout.trim().startsWith('{'), `the Inspector printed a result: ${run.stdout}${run.stderr}`);
    const result = JSON.parse(run.stdout) as { structuredContent: unknown };
    return { status: run.status, response: responseSchema.parse(result.structuredContent), stderr: run.stderr };
  }

  it('with --root: the --root folder is edited, and the server says it kept it', () => {
    const call = callEdit(path.join(project, 'a.ts'), ['--root', project], base());
    assert.ok(call.response.success, JSON.stringify(call.response));
    assert.equal(call.status, 0);
    assert.equal(fs.readFileSync(path.join(project, 'a.ts'), 'utf8'), 'export const answer = 42;\n');
    assert.match(call.stderr, /the client lists no root; the --root folders stay in force/);
  });

  it('with --root: a file outside it is still OUTSIDE_WORKSPACE', () => {
    const call = callEdit(path.join(other, 'a.ts'), ['--root', project], base());
    assert.equal(!call.response.success && call.response.error_code, 'OUTSIDE_WORKSPACE');
    assert.equal(fs.readFileSync(path.join(other, 'a.ts'), 'utf8'), 'export const answer = 41;\n');
  });

  it('without --root: the empty list closes the scope, saying why', () => {
    const call = callEdit(path.join(project, 'a.ts'), [], project);
    assert.equal(!call.response.success && call.response.error_code, 'OUTSIDE_WORKSPACE');
    assert.match(!call.response.success ? call.response.recovery_hints.join('\n') : '', /lists no root, so nothing may be edited/);
    assert.equal(fs.readFileSync(path.join(project, 'a.ts'), 'utf8'), 'export const answer = 41;\n');
  });
});
