/**
 * `multi-edit mcp` driven by the MCP SDK's own client over stdio: the tool list and
 * its schemas, results, every error category, roots, malformed calls, concurrent
 * calls on one file, and a client that goes away mid-call.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { ErrorCode, McpError, type Root } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { requestJsonSchemas, responseSchema, type EngineResponse, type ErrorEnvelope } from '../../src/core/contract/schemas';
import { newLockRecord, retireRecord, serializeRecord } from '../../src/node/store/lockRecord';
import { ALL_ROLES, sidecarPath } from '../../src/node/store/sidecars';
import { CLI, REPO_ROOT } from './helpers/cliRun';
import { envelopeOf, successOf } from './helpers/requestScenarios';
import { startMcpSession, type McpSession } from './helpers/mcpSession';
import { useTempDir } from './helpers/tempDir';

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  contributes: { languageModelTools: { name: string; displayName: string; modelDescription: string; inputSchema: object }[] };
};

const edit = (filePath: string, oldString: string, newString: string): object => ({ file_path: filePath, edits: [{ old_string: oldString, new_string: newString }] });

/** A generated JSON Schema as a tool lists it: without its "$schema" key. */
function withoutDialect(schema: object): Record<string, unknown> {
  const bare: Record<string, unknown> = { ...schema };
  delete bare.$schema;
  return bare;
}

function tempDir(label: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `multi-edit-mcp-${label}-`)));
}

function leftovers(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => name.includes('.multi-edit-'));
}

function rootOf(dir: string, name?: string): Root {
  return { uri: pathToFileURL(dir).href, ...(name ? { name } : {}) };
}

/** Resolves once the process is gone. */
async function exited(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('MCP server (dist/cli.js mcp, SDK client over stdio)', function () {
  this.timeout(60_000);
  const dir = useTempDir('mcp-main', { per: 'suite' });
  let session: McpSession;

  before(async () => {
    session = await startMcpSession({ cwd: dir() });
  });

  after(async () => {
    await session.close();
  });

  const file = (name: string): string => path.join(dir(), name);
  const write = (name: string, text: string): string => {
    fs.mkdirSync(path.dirname(file(name)), { recursive: true });
    fs.writeFileSync(file(name), text);
    return file(name);
  };

  describe('tools/list', () => {
    it('lists multi_edit, multi_edit_files and multi_edit_patch with titles, descriptions and annotations from the manifest, then the history\'s tools', async () => {
      const { tools: listed } = await session.client.listTools();
      assert.deepEqual(listed.map((tool) => tool.name), ['multi_edit', 'multi_edit_files', 'multi_edit_patch', 'multi_edit_undo', 'multi_edit_history']);
      const tools = listed.slice(0, 3);
      for (const tool of tools) {
        const contributed = manifest.contributes.languageModelTools.find((candidate) => candidate.name === tool.name);
        assert.ok(contributed);
        assert.equal(tool.description, contributed.modelDescription);
      }
      // The titles people see in an MCP client's tool list: the manifest's %keys% resolved, as VS Code shows them.
      assert.deepEqual(tools.map((tool) => [tool.title, tool.annotations]), [
        ['Multi-Edit', { title: 'Multi-Edit', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }],
        ['Multi-Edit Files', { title: 'Multi-Edit Files', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }],
        ['Multi-Edit Patch', { title: 'Multi-Edit Patch', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }],
      ]);
    });

    it('gives each tool the inputSchema the zod request schema generates, the same as the VS Code tool', async () => {
      const tools = (await session.client.listTools()).tools.filter((tool) => tool.name !== 'multi_edit_undo' && tool.name !== 'multi_edit_history');
      const generated = requestJsonSchemas();
      for (const tool of tools) {
        assert.deepEqual(tool.inputSchema, withoutDialect(generated[tool.name as keyof typeof generated]), `${tool.name} inputSchema drifted from src/core/schemas.ts`);
        const contributed = manifest.contributes.languageModelTools.find((candidate) => candidate.name === tool.name);
        assert.deepEqual(tool.inputSchema, contributed?.inputSchema, `${tool.name} inputSchema differs from package.json`);
      }
    });

    it('gives each tool an object outputSchema generated from the zod response schema, which accepts responses and refuses others', async () => {
      const tools = (await session.client.listTools()).tools.filter((tool) => tool.name !== 'multi_edit_undo' && tool.name !== 'multi_edit_history');
      const union = withoutDialect(z.toJSONSchema(responseSchema, { target: 'draft-7' }));
      const validate = new AjvJsonSchemaValidator().getValidator(tools[0].outputSchema as never);
      for (const tool of tools) {
        assert.deepEqual(tool.outputSchema, { type: 'object', ...union }, `${tool.name} outputSchema drifted from src/core/schemas.ts`);
      }
      const success = successOf((await session.call('multi_edit', { ...edit(write('schema.txt', 'a\n'), 'a', 'b'), dry_run: true })).response);
      const envelope = envelopeOf((await session.call('multi_edit', edit(file('schema.txt'), 'zzz', 'b'))).response);
      assert.ok(validate(success).valid);
      assert.ok(validate(envelope).valid);
      assert.equal(validate({ ...success, files: undefined }).valid, false, 'a success without files is refused');
      assert.equal(validate({ ...envelope, error_code: 'NOT_A_CODE' }).valid, false, 'an unknown error code is refused');
    });
  });

  describe('results', () => {
    it('a success: isError false, the response as structuredContent, and a text part led by the summary line', async () => {
      const target = write('ok.ts', 'const retries = 3;\n');
      const { result, response } = await session.call('multi_edit', { ...edit(target, 'retries = 3', 'retries = 5'), include_diff: true });
      assert.equal(result.isError, false);
      const success = successOf(response);
      assert.equal(success.summary, 'Applied 1 edit (1 replacement) to ok.ts');
      assert.match(success.files[0].diff ?? '', /\+const retries = 5;/);
      assert.equal(fs.readFileSync(target, 'utf8'), 'const retries = 5;\n');
      const [text] = result.content as { type: string; text: string }[];
      assert.equal(text.type, 'text');
      const [summary, json] = text.text.split('\n');
      assert.equal(summary, success.summary);
      assert.deepEqual(JSON.parse(json), result.structuredContent);
    });

    const categories: ReadonlyArray<[string, ErrorEnvelope['category'], string, () => Promise<EngineResponse>]> = [
      ['input', 'input', 'VALIDATION_FAILED', async () => (await session.call('multi_edit', { file_path: file('a.ts'), edits: 'none' })).response],
      ['input (empty edits)', 'input', 'EMPTY_EDITS', async () => (await session.call('multi_edit_files', { files: [] })).response],
      ['match', 'match', 'MATCH_NOT_FOUND', async () => (await session.call('multi_edit', edit(write('m.ts', 'alpha\n'), 'beta', 'gamma'))).response],
      ['scope (outside every root)', 'scope', 'OUTSIDE_WORKSPACE', async () => (await session.call('multi_edit', edit(path.join(os.tmpdir(), 'elsewhere.txt'), 'a', 'b'))).response],
      ['scope (a protected .git file)', 'scope', 'FORBIDDEN_PATH', async () => (await session.call('multi_edit', edit(write('.git/config', 'bare = false\n'), 'false', 'true'))).response],
      ['scope (a protected .env file)', 'scope', 'FORBIDDEN_PATH', async () => (await session.call('multi_edit', edit(write('.env.local', 'KEY=1\n'), 'KEY=1', 'KEY=2'))).response],
      ['filesystem', 'filesystem', 'IS_DIRECTORY', async () => (await session.call('multi_edit', edit(dir(), 'a', 'b'))).response],
      ['transient', 'transient', 'FILE_BUSY', async () => {
        const target = write('busy.ts', 'a\n');
        const record = { ...newLockRecord([target]), host: 'another-host.example', pid: 1 };
        retireRecord(record);
        fs.writeFileSync(sidecarPath(target, 'lock'), serializeRecord(record));
        try {
          return (await session.call('multi_edit', edit(target, 'a', 'b'))).response;
        } finally {
          fs.rmSync(sidecarPath(target, 'lock'));
        }
      }],
      ['internal (a tool that does not exist)', 'internal', 'UNKNOWN_TOOL', async () => (await session.call('multi_delete', {})).response],
    ];
    for (const [name, category, code, call] of categories) {
      it(`an envelope for the ${name} category: isError true, ${code}`, async () => {
        const envelope = envelopeOf(await call());
        assert.equal(envelope.error_code, code);
        assert.equal(envelope.category, category);
      });
    }

    it('leaves nothing next to the files it edited', () => {
      assert.deepEqual(leftovers(dir()), []);
    });
  });

  describe('a repeated failure (the loop breaker)', () => {
    it('escalates next_action on the second identical failing call and says it is a repeat', async () => {
      const target = write('repeat.txt', 'alpha\n');
      const call = edit(target, 'beta', 'gamma');
      const first = envelopeOf((await session.call('multi_edit', call)).response);
      const second = envelopeOf((await session.call('multi_edit', call)).response);
      assert.equal(first.next_action.repeated, undefined);
      assert.equal(second.next_action.repeated, 2);
      assert.equal(second.next_action.action, 'reread_and_retry');
      assert.match(second.recovery_hints[0], /2nd time this same request failed the same way/);
    });
  });

  describe('malformed calls', () => {
    it('arguments that do not fit the schema are a VALIDATION_FAILED envelope naming the field, not a protocol error', async () => {
      const { result, response } = await session.call('multi_edit', { file_path: file('a.ts'), edits: [{ old_string: 'a', new_string: 1 }] });
      assert.equal(result.isError, true);
      const envelope = envelopeOf(response);
      assert.equal(envelope.error_code, 'VALIDATION_FAILED');
      assert.match(envelope.message, /edits\[0\]\.new_string/);
    });

    it('a call without arguments is VALIDATION_FAILED', async () => {
      const result = await session.client.callTool({ name: 'multi_edit' });
      assert.equal(result.isError, true);
      assert.equal(envelopeOf(responseSchema.parse(result.structuredContent)).error_code, 'VALIDATION_FAILED');
    });

    it('arguments that are not an object break the protocol: a JSON-RPC InvalidParams error, and the server keeps serving', async () => {
      await assert.rejects(
        session.client.request({ method: 'tools/call', params: { name: 'multi_edit', arguments: 'file_path=a.ts' } } as never, z.object({}).passthrough()),
        (error: unknown) => error instanceof McpError && error.code === ErrorCode.InvalidParams,
      );
      successOf((await session.call('multi_edit', edit(write('after.ts', 'x\n'), 'x', 'y'))).response);
      assert.deepEqual(session.protocolErrors, [], 'stdout carried only JSON-RPC');
    });
  });

  describe('concurrent calls from one client on one file', () => {
    it('lose no update: every call lands, each on the text the others left', async () => {
      const slots = Array.from({ length: 24 }, (_, index) => `slot ${index};`);
      const target = write('shared.ts', `${slots.join('\n')}\n`);
      const results = await Promise.all(slots.map((slot, index) => session.call('multi_edit', edit(target, slot, `done ${index};`))));
      for (const { response } of results) {
        successOf(response);
      }
      assert.equal(fs.readFileSync(target, 'utf8'), `${slots.map((_, index) => `done ${index};`).join('\n')}\n`);
      assert.deepEqual(leftovers(dir()), []);
    });
  });
});

describe('MCP server: roots', function () {
  this.timeout(60_000);
  const base = useTempDir('mcp-roots');
  let one: string;
  let two: string;
  const sessions: McpSession[] = [];

  beforeEach(() => {
    one = path.join(base(), 'one');
    two = path.join(base(), 'two');
    for (const folder of [one, two]) {
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, 'a.ts'), 'x\n');
    }
  });

  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((session) => session.close()));
  });

  async function open(options: { args?: string[]; roots?: () => readonly Root[] }): Promise<McpSession> {
    const session = await startMcpSession({ cwd: base(), ...options });
    sessions.push(session);
    return session;
  }

  const codeOf = (response: EngineResponse): string => (response.success ? 'ok' : response.error_code);

  it('--root sets the scope: inside it is edited, outside is OUTSIDE_WORKSPACE, and a relative path resolves against it', async () => {
    const session = await open({ args: ['--root', 'one'] });
    assert.equal(codeOf((await session.call('multi_edit', edit(path.join(one, 'a.ts'), 'x', 'y'))).response), 'ok');
    const outside = envelopeOf((await session.call('multi_edit', edit(path.join(two, 'a.ts'), 'x', 'y'))).response);
    assert.equal(outside.error_code, 'OUTSIDE_WORKSPACE');
    assert.match(outside.recovery_hints.join('\n'), /--root/);
    const relative = successOf((await session.call('multi_edit', edit('a.ts', 'y', 'z'))).response);
    assert.equal(relative.files[0].file_path, path.join(one, 'a.ts'));
    assert.equal(fs.readFileSync(path.join(one, 'a.ts'), 'utf8'), 'z\n');
    assert.equal(fs.readFileSync(path.join(two, 'a.ts'), 'utf8'), 'x\n');
  });

  it('with several --root, both are in scope and a relative path is ambiguous (RELATIVE_PATH)', async () => {
    const session = await open({ args: ['--root', one, `--root=${two}`] });
    assert.equal(codeOf((await session.call('multi_edit', edit(path.join(one, 'a.ts'), 'x', 'y'))).response), 'ok');
    assert.equal(codeOf((await session.call('multi_edit', edit(path.join(two, 'a.ts'), 'x', 'y'))).response), 'ok');
    assert.equal(codeOf((await session.call('multi_edit', edit('a.ts', 'y', 'z'))).response), 'RELATIVE_PATH');
  });

  it('the client\'s roots are honoured when it lists them, and followed when they change', async () => {
    let roots: Root[] = [rootOf(two, 'two')];
    const session = await open({ roots: () => roots });
    assert.equal(codeOf((await session.call('multi_edit', edit(path.join(two, 'a.ts'), 'x', 'y'))).response), 'ok');
    assert.equal(codeOf((await session.call('multi_edit', edit(path.join(base(), 'one', 'a.ts'), 'x', 'y'))).response), 'OUTSIDE_WORKSPACE', 'the working directory is no root once the client lists its own');
    roots = [rootOf(one, 'one')];
    await session.client.sendRootsListChanged();
    await waitFor(() => session.stderr().includes(`roots: ${one}`));
    assert.equal(codeOf((await session.call('multi_edit', edit(path.join(one, 'a.ts'), 'x', 'y'))).response), 'ok');
    assert.equal(codeOf((await session.call('multi_edit', edit(path.join(two, 'a.ts'), 'y', 'z'))).response), 'OUTSIDE_WORKSPACE');
  });

  it('client roots narrow --root but never widen it', async () => {
    const elsewhere = tempDir('elsewhere');
    try {
      fs.writeFileSync(path.join(elsewhere, 'a.ts'), 'x\n');
      const session = await open({ args: ['--root', base()], roots: () => [rootOf(one), rootOf(elsewhere)] });
      assert.equal(codeOf((await session.call('multi_edit', edit(path.join(one, 'a.ts'), 'x', 'y'))).response), 'ok');
      assert.equal(codeOf((await session.call('multi_edit', edit(path.join(two, 'a.ts'), 'x', 'y'))).response), 'OUTSIDE_WORKSPACE', 'narrowed to the client root');
      assert.equal(codeOf((await session.call('multi_edit', edit(path.join(elsewhere, 'a.ts'), 'x', 'y'))).response), 'OUTSIDE_WORKSPACE', 'not widened past --root');
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('with --root, a client that declares roots but lists none keeps the --root scope, and says so on stderr', async () => {
    let roots: Root[] = [];
    const session = await open({ args: ['--root', one], roots: () => roots });
    assert.equal(codeOf((await session.call('multi_edit', edit(path.join(one, 'a.ts'), 'x', 'y'))).response), 'ok');
    assert.equal(codeOf((await session.call('multi_edit', edit(path.join(two, 'a.ts'), 'x', 'y'))).response), 'OUTSIDE_WORKSPACE', 'still no wider than --root');
    assert.ok(session.stderr().includes(`the client lists no root; the --root folders stay in force; roots: ${one}`), session.stderr());
    // A non-empty list still narrows; an empty one again gives the --root folders back.
    roots = [rootOf(path.join(one, 'nested'))];
    fs.mkdirSync(path.join(one, 'nested'));
    await session.client.sendRootsListChanged();
    await waitFor(() => session.stderr().includes(`roots: ${path.join(one, 'nested')}`));
    assert.equal(codeOf((await session.call('multi_edit', edit(path.join(one, 'a.ts'), 'y', 'z'))).response), 'OUTSIDE_WORKSPACE', 'narrowed to the client root');
    roots = [];
    const seen = session.stderr().length;
    await session.client.sendRootsListChanged();
    await waitFor(() => session.stderr().slice(seen).includes(`the --root folders stay in force; roots: ${one}`));
    assert.equal(codeOf((await session.call('multi_edit', edit(path.join(one, 'a.ts'), 'y', 'z'))).response), 'ok');
    assert.equal(fs.readFileSync(path.join(one, 'a.ts'), 'utf8'), 'z\n');
  });

  it('without --root, a client that lists no root closes the scope: nothing may be edited', async () => {
    const session = await open({ roots: () => [] });
    const refused = envelopeOf((await session.call('multi_edit', edit('one/a.ts', 'x', 'y'))).response);
    assert.equal(refused.error_code, 'RELATIVE_PATH');
    const absolute = envelopeOf((await session.call('multi_edit', edit(path.join(one, 'a.ts'), 'x', 'y'))).response);
    assert.equal(absolute.error_code, 'OUTSIDE_WORKSPACE');
    assert.match(absolute.recovery_hints.join('\n'), /lists no root, so nothing may be edited/);
    assert.equal(fs.readFileSync(path.join(one, 'a.ts'), 'utf8'), 'x\n');
  });

  it('without --root or client roots, the working directory is the root', async () => {
    const session = await open({});
    assert.equal(codeOf((await session.call('multi_edit', edit('one/a.ts', 'x', 'y'))).response), 'ok');
    assert.equal(fs.readFileSync(path.join(one, 'a.ts'), 'utf8'), 'y\n');
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, 'timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('MCP server: process', function () {
  this.timeout(60_000);
  const dir = useTempDir('mcp-process');

  /** A batch big enough that the call is still running when the client goes. */
  const NAMES = Array.from({ length: 8 }, (_, index) => `big${index}.txt`);
  const LINE = 'the quick brown fox jumps over the lazy dog\n';
  const OLD = `first line\n${LINE.repeat(60_000)}`;

  function seedBatch(): object {
    for (const name of NAMES) {
      fs.writeFileSync(path.join(dir(), name), OLD);
    }
    return { files: NAMES.map((name) => ({ file_path: path.join(dir(), name), edits: [{ old_string: 'first line', new_string: 'FIRST LINE' }] })) };
  }

  function batchState(): 'all old' | 'all new' | 'mixed' {
    const news = NAMES.filter((name) => fs.readFileSync(path.join(dir(), name), 'utf8').startsWith('FIRST LINE')).length;
    return news === 0 ? 'all old' : news === NAMES.length ? 'all new' : 'mixed';
  }

  function sidecars(): string[] {
    return NAMES.flatMap((name) => ALL_ROLES.map((role) => sidecarPath(path.join(dir(), name), role))).filter((sidecar) => fs.existsSync(sidecar));
  }

  it('logs to stderr only, and stops when stdin closes', async () => {
    const session = await startMcpSession({ cwd: dir() });
    const pid = session.transport.pid;
    assert.ok(pid);
    fs.writeFileSync(path.join(dir(), 'a.txt'), 'x\n');
    successOf((await session.call('multi_edit', edit(path.join(dir(), 'a.txt'), 'x', 'y'))).response);
    await session.close();
    await exited(pid);
    assert.deepEqual(session.protocolErrors, [], 'stdout carried only JSON-RPC');
    assert.match(session.stderr(), /^multi-edit mcp: serving multi_edit, multi_edit_files, multi_edit_patch, multi_edit_undo, multi_edit_history on stdio; roots: /m);
    assert.match(session.stderr(), /^multi-edit mcp: multi_edit: ok in \d+ ms$/m);
    assert.match(session.stderr(), /^multi-edit mcp: standard input closed; stopped$/m);
  });

  for (const how of ['closes stdin', 'sends SIGTERM'] as const) {
    it(`a client that ${how} mid-call: the batch lands or is undone as a whole, and no lock, temp or journal file is left`, async () => {
      const request = seedBatch();
      const session = await startMcpSession({ cwd: dir() });
      const pid = session.transport.pid;
      assert.ok(pid);
      let settled = false;
      const call = session.call('multi_edit_files', request).then(
        () => 'answered',
        () => 'no answer',
      ).finally(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 40));
      assert.equal(settled, false, 'the call was still running when the client left');
      if (how === 'sends SIGTERM') {
        process.kill(pid, 'SIGTERM');
        await exited(pid);
      }
      await session.close();
      await call;
      await exited(pid);
      assert.notEqual(batchState(), 'mixed');
      assert.deepEqual(sidecars(), []);
      assert.match(session.stderr(), how === 'sends SIGTERM' ? /stopped by SIGTERM/ : /standard input closed; stopped/);
      if (how === 'sends SIGTERM') {
        assert.match(session.stderr(), /multi_edit_files: CANCELLED/, 'the signal undid the running batch');
        assert.equal(batchState(), 'all old');
      }
    });
  }

  it('a call the client cancels (notifications/cancelled) is undone as a whole, and the server keeps serving', async () => {
    const request = seedBatch();
    const session = await startMcpSession({ cwd: dir() });
    try {
      const controller = new AbortController();
      const call = session.client.callTool({ name: 'multi_edit_files', arguments: request as Record<string, unknown> }, undefined, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 40));
      controller.abort();
      await assert.rejects(call);
      await waitFor(() => /multi_edit_files: \w+ in/.test(session.stderr()));
      assert.match(session.stderr(), /multi_edit_files: CANCELLED in/);
      assert.equal(batchState(), 'all old');
      assert.deepEqual(sidecars(), []);
      fs.writeFileSync(path.join(dir(), 'after.txt'), 'x\n');
      successOf((await session.call('multi_edit', edit(path.join(dir(), 'after.txt'), 'x', 'y'))).response);
    } finally {
      await session.close();
    }
  });

  it('refuses to start with a --root that is not a directory (exit 2, told on stderr)', () => {
    const run = spawnSync(process.execPath, [CLI, 'mcp', '--root', 'missing'], { cwd: dir(), input: '', encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, new RegExp(`--root ${path.join(dir(), 'missing')} is not a directory`));
  });

  it('exits 0 when stdin closes and 128 + n on a signal; a line that is not JSON-RPC is logged and skipped', async () => {
    const run = (signal?: NodeJS.Signals): Promise<{ code: number | null; stdout: string; stderr: string }> => new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, 'mcp'], { cwd: dir(), stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        if (signal !== undefined && stdout.includes('"id":1')) {
          child.kill(signal);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.write('this is not JSON-RPC\n');
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
      if (signal === undefined) {
        child.stdin.end();
      }
    });
    const closed = await run();
    assert.equal(closed.code, 0, closed.stderr);
    assert.match(closed.stdout, /"serverInfo":\{"name":"multi-edit"/);
    assert.match(closed.stderr, /protocol error/);
    const signalled = await run('SIGTERM');
    assert.equal(signalled.code, 128 + os.constants.signals.SIGTERM, signalled.stderr);
  });
});
