/**
 * The requests the CLI suite runs, and the demo's requests (npm run demo:cli), as one
 * table: the files a scenario starts from, the request, and what its JSON response and
 * the files must show. test/unit/cli.test.ts
 * runs each through `multi-edit apply`; test/unit/mcp.scenarios.test.ts runs each
 * through `multi-edit mcp` and requires the same response JSON and the same bytes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ErrorCode } from '../../../src/core/contract/errorCodes';
import type { EngineResponse, ErrorEnvelope, SuccessResponse } from '../../../src/core/contract/schemas';

export interface ScenarioFiles {
  /** The absolute path of a file of the scenario's directory. */
  readonly at: (name: string) => string;
  readonly text: (name: string) => string;
  readonly bytes: (name: string) => Buffer;
  /** The names in the directory, sorted (a temp or lock file left behind shows here). */
  readonly names: () => string[];
}

export interface RequestScenario {
  readonly name: string;
  /** The directory's files before the request, by name (sub/dirs are created). */
  readonly files: Readonly<Record<string, string | Buffer>>;
  readonly request: (at: (name: string) => string) => unknown;
  /** Run with `apply --dry-run`; through MCP, `dry_run: true` is set in the arguments instead. */
  readonly dryRun?: boolean;
  /** How the CLI receives the request: a file (default), standard input, or a file that starts with a BOM. */
  readonly via?: 'file' | 'stdin' | 'bom-file';
  readonly check: (response: EngineResponse, files: ScenarioFiles) => void;
  /**
   * Why MCP answers differently, when it does by design; `mcpCheck` then says what MCP
   * must answer instead.
   */
  readonly mcpDiffers?: { readonly why: string; readonly mcpCheck: (response: EngineResponse, files: ScenarioFiles) => void };
}

export function successOf(response: EngineResponse): SuccessResponse {
  assert.ok(response.success, `expected success, got ${JSON.stringify(response)}`);
  return response;
}

export function envelopeOf(response: EngineResponse): ErrorEnvelope {
  assert.ok(!response.success, `expected an envelope, got ${JSON.stringify(response)}`);
  return response;
}

export function seedScenario(dir: string, scenario: RequestScenario): ScenarioFiles {
  for (const [name, content] of Object.entries(scenario.files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return scenarioFiles(dir);
}

function scenarioFiles(dir: string): ScenarioFiles {
  const at = (name: string): string => path.join(dir, name);
  return {
    at,
    text: (name) => fs.readFileSync(at(name), 'utf8'),
    bytes: (name) => fs.readFileSync(at(name)),
    names: () => fs.readdirSync(dir).sort(),
  };
}

/** The request as MCP sends it: the CLI's --dry-run becomes the request's own dry_run. */
export function mcpArguments(scenario: RequestScenario, at: (name: string) => string): unknown {
  const request = scenario.request(at);
  return scenario.dryRun ? { ...(request as object), dry_run: true } : request;
}

export function scenarioNamed(name: string): RequestScenario {
  const scenario = REQUEST_SCENARIOS.find((candidate) => candidate.name === name);
  assert.ok(scenario, `no request scenario named "${name}"`);
  return scenario;
}

/** The demo (npm run demo:cli): its workspace and its requests, whose paths are relative to the workspace. */
const DEMO_DIR = path.resolve(__dirname, '../../../../demo');

function demoWorkspaceFiles(): Record<string, Buffer> {
  const workspace = path.join(DEMO_DIR, 'workspace');
  const files: Record<string, Buffer> = {};
  for (const entry of fs.readdirSync(workspace, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const full = path.join(entry.parentPath, entry.name);
      files[path.relative(workspace, full)] = fs.readFileSync(full);
    }
  }
  return files;
}

/** A demo request on a copy of the demo workspace; a failure must leave every file as it was. */
function demoScenario(request: string, outcome: 'success' | ErrorCode): RequestScenario {
  const files = demoWorkspaceFiles();
  return {
    name: `demo request ${request}: ${outcome}`,
    files,
    request: (at) => {
      const written = JSON.parse(fs.readFileSync(path.join(DEMO_DIR, 'requests', request), 'utf8')) as { file_path?: string; files?: { file_path: string }[] };
      const absolute = <T extends { file_path?: string }>(entry: T): T => ({ ...entry, file_path: at(entry.file_path ?? '') });
      return written.files ? { ...written, files: written.files.map(absolute) } : absolute(written);
    },
    check: (response, copy) => {
      if (outcome === 'success') {
        successOf(response);
        return;
      }
      assert.equal(envelopeOf(response).error_code, outcome);
      for (const [name, bytes] of Object.entries(files)) {
        assert.deepEqual(copy.bytes(name), bytes, `${name} changed`);
      }
    },
  };
}

const FUNCTION_RUN = 'function run() {\n\treturn 1;\n}\n';
const CRLF_WITH_BOM = Buffer.from('\uFEFFline one\r\nline two\r\n', 'utf8');

export const REQUEST_SCENARIOS: readonly RequestScenario[] = [
  {
    name: 'applies two edits and leaves no temp file',
    files: { 'a.ts': 'const a = 1;\nconst b = 2;\n' },
    request: (at) => ({
      file_path: at('a.ts'),
      edits: [{ old_string: 'const a = 1;', new_string: 'const a = 10;' }, { old_string: 'b = 2', new_string: 'b = 20' }],
    }),
    check: (response, files) => {
      assert.equal(successOf(response).edits_applied, 2);
      assert.equal(files.text('a.ts'), 'const a = 10;\nconst b = 20;\n');
      assert.deepEqual(files.names(), ['a.ts'], 'a temp file was left behind');
    },
  },
  {
    name: 'MATCH_NOT_FOUND on an indentation miss changes nothing',
    files: { 'a.ts': FUNCTION_RUN },
    request: (at) => ({
      file_path: at('a.ts'),
      edits: [{ old_string: 'function run()', new_string: 'function start()' }, { old_string: '    return 1;', new_string: '    return 2;' }],
    }),
    check: (response, files) => {
      const envelope = envelopeOf(response);
      assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
      assert.equal(envelope.edit_index, 1);
      assert.equal(envelope.file_path, files.at('a.ts'));
      assert.equal(files.text('a.ts'), FUNCTION_RUN);
    },
  },
  {
    name: 'VALIDATION_FAILED for JSON that does not fit the schema',
    files: {},
    request: (at) => ({ file_path: at('a.ts'), edits: [{ old: 'x', new: 'y' }] }),
    check: (response) => assert.equal(envelopeOf(response).error_code, 'VALIDATION_FAILED'),
  },
  {
    name: 'reads the request from standard input',
    files: { 'a.ts': 'x = 1\n' },
    via: 'stdin',
    request: (at) => ({ file_path: at('a.ts'), edits: [{ old_string: 'x = 1', new_string: 'x = 2' }] }),
    check: (response, files) => {
      successOf(response);
      assert.equal(files.text('a.ts'), 'x = 2\n');
    },
  },
  {
    name: 'accepts a request file that starts with a BOM',
    files: { 'a.ts': 'x = 1\n' },
    via: 'bom-file',
    request: (at) => ({ file_path: at('a.ts'), edits: [{ old_string: 'x', new_string: 'y' }] }),
    check: (response, files) => {
      successOf(response);
      assert.equal(files.text('a.ts'), 'y = 1\n');
    },
  },
  {
    name: 'a dry run writes nothing and returns the diff',
    files: { 'a.ts': 'let answer = 41;\n' },
    dryRun: true,
    request: (at) => ({ file_path: at('a.ts'), edits: [{ old_string: '41', new_string: '42' }] }),
    check: (response, files) => {
      const success = successOf(response);
      assert.equal(success.dry_run, true);
      assert.match(success.files[0].diff ?? '', /-let answer = 41;\n\+let answer = 42;/);
      assert.equal(files.text('a.ts'), 'let answer = 41;\n');
    },
  },
  {
    name: 'a multi-file request that fails in its second file leaves the first byte-identical',
    files: { 'first.txt': CRLF_WITH_BOM, 'second.txt': 'alpha\n' },
    request: (at) => ({
      files: [
        { file_path: at('first.txt'), edits: [{ old_string: 'line one', new_string: 'line 1' }] },
        { file_path: at('second.txt'), edits: [{ old_string: 'beta', new_string: 'gamma' }] },
      ],
    }),
    check: (response, files) => {
      const envelope = envelopeOf(response);
      assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
      assert.equal(envelope.file_index, 1);
      assert.deepEqual(files.bytes('first.txt'), CRLF_WITH_BOM);
      assert.equal(files.text('second.txt'), 'alpha\n');
    },
  },
  {
    name: 'applies a multi-file request to every file',
    files: { 'one.ts': 'a\n', 'two.ts': 'b\n' },
    request: (at) => ({
      files: [
        { file_path: at('one.ts'), edits: [{ old_string: 'a', new_string: 'A' }] },
        { file_path: at('two.ts'), edits: [{ old_string: 'b', new_string: 'B' }] },
      ],
    }),
    check: (response, files) => {
      assert.equal(successOf(response).files.length, 2);
      assert.deepEqual([files.text('one.ts'), files.text('two.ts')], ['A\n', 'B\n']);
    },
  },
  {
    name: 'a relative path',
    files: { 'a.ts': 'x\n' },
    request: () => ({ file_path: 'a.ts', edits: [{ old_string: 'x', new_string: 'y' }] }),
    check: (response, files) => {
      assert.equal(envelopeOf(response).error_code, 'RELATIVE_PATH');
      assert.equal(files.text('a.ts'), 'x\n');
    },
    mcpDiffers: {
      why: 'the CLI has no workspace, while the MCP server resolves a relative path against its single root, as VS Code does',
      mcpCheck: (response) => {
        const success = successOf(response);
        assert.deepEqual(success.warnings?.map((warning) => warning.code), ['RELATIVE_PATH_RESOLVED']);
      },
    },
  },
  {
    name: 'PATH_TRAVERSAL for a ".." segment, even in an absolute path',
    files: { 'a.ts': 'x\n', 'sub/keep': '' },
    request: (at) => ({ file_path: `${at('sub')}/../a.ts`, edits: [{ old_string: 'x', new_string: 'y' }] }),
    check: (response, files) => {
      assert.equal(envelopeOf(response).error_code, 'PATH_TRAVERSAL');
      assert.equal(files.text('a.ts'), 'x\n');
    },
  },
  {
    name: 'FILE_NOT_FOUND for a missing target',
    files: {},
    request: (at) => ({ file_path: at('missing.ts'), edits: [{ old_string: 'x', new_string: 'y' }] }),
    check: (response) => assert.equal(envelopeOf(response).error_code, 'FILE_NOT_FOUND'),
  },
  {
    name: 'counts replacements of replace_all',
    files: { 'a.ts': 'one two two\n' },
    request: (at) => ({
      file_path: at('a.ts'),
      edits: [{ old_string: 'one', new_string: '1' }, { old_string: 'two', new_string: '2', replace_all: true }],
    }),
    check: (response, files) => {
      assert.equal(successOf(response).replacements, 3);
      assert.equal(files.text('a.ts'), '1 2 2\n');
    },
  },
  {
    name: 'a dry run of one edit',
    files: { 'a.ts': 'one\n' },
    dryRun: true,
    request: (at) => ({ file_path: at('a.ts'), edits: [{ old_string: 'one', new_string: 'uno' }] }),
    check: (response, files) => {
      assert.equal(successOf(response).dry_run, true);
      assert.equal(files.text('a.ts'), 'one\n');
    },
  },
  {
    name: 'AMBIGUOUS_MATCH lists every location',
    files: { 'a.ts': 'x();\ny();\nx();\n' },
    request: (at) => ({ file_path: at('a.ts'), edits: [{ old_string: 'x();', new_string: 'z();' }] }),
    check: (response) => {
      const envelope = envelopeOf(response);
      assert.equal(envelope.error_code, 'AMBIGUOUS_MATCH');
      assert.deepEqual(envelope.context?.match_locations?.map((location) => location.line), [1, 3]);
    },
  },
  {
    name: 'depends_on names the failed edit at the end of a chain of skipped edits',
    files: { 'chain.ts': 'let a = 1;\n' },
    request: (at) => ({
      file_path: at('chain.ts'),
      edits: [
        { old_string: 'let b = 1;', new_string: 'let c = 1;' },
        { old_string: 'let c', new_string: 'let d' },
        { old_string: 'let d', new_string: 'let e' },
        { old_string: 'let a', new_string: 'let z' },
      ],
    }),
    check: (response, files) => {
      const statuses = envelopeOf(response).edit_status.map((status) => [status.edit_index, status.status, status.depends_on]);
      assert.deepEqual(statuses, [[0, 'failed', undefined], [1, 'skipped', [0]], [2, 'skipped', [0]]]);
      assert.equal(files.text('chain.ts'), 'let a = 1;\n');
    },
  },
  {
    name: 'depends_on counts within each file, and edits of a file that could not be read have none',
    files: { 'one.ts': 'alpha\n' },
    request: (at) => ({
      files: [
        { file_path: at('missing.ts'), edits: [{ old_string: 'x', new_string: 'y' }] },
        {
          file_path: at('one.ts'),
          edits: [
            { old_string: 'alpha', new_string: 'beta' },
            { old_string: 'gamma', new_string: 'delta' },
            { old_string: 'delta', new_string: 'epsilon' },
          ],
        },
      ],
    }),
    check: (response) => {
      const statuses = envelopeOf(response).edit_status.map((status) => [status.file_index, status.edit_index, status.status, status.depends_on]);
      assert.deepEqual(statuses, [[0, 0, 'skipped', undefined], [1, 1, 'failed', undefined], [1, 2, 'skipped', [1]]]);
    },
  },
  demoScenario('01-rename-total.multiedit.json', 'success'),
  demoScenario('02-crlf-multiline.multiedit.json', 'success'),
  demoScenario('03-whitespace-near-miss.multiedit.json', 'MATCH_NOT_FOUND'),
  demoScenario('04-ambiguous-match.multiedit.json', 'AMBIGUOUS_MATCH'),
  demoScenario('05-multi-file-second-fails.multiedit.json', 'MATCH_NOT_FOUND'),
];
