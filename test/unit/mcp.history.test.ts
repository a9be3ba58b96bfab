// multi_edit_undo and multi_edit_history through the real MCP SDK client: a patch of four
// operations applied by the server (a large file's text kept by a link) is listed, undone
// byte for byte after a restart of the server, and a stale undo is refused naming the file; the history is shared with the CLI.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseCliResponse, runCli } from './helpers/cliRun';
import { startMcpSession } from './helpers/mcpSession';

/** Every test's folder (its project and its history), removed once the test is over. */
const sandboxes: string[] = [];

function project(): { root: string; env: Record<string, string> } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-mcp-history-')));
  sandboxes.push(base);
  const root = path.join(base, 'project');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  return { root, env: { MULTI_EDIT_HISTORY_DIR: path.join(base, 'state') } };
}

function snapshot(root: string): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(path.join(root, 'src')).sort().map((name) => [name, fs.readFileSync(path.join(root, 'src', name)).toString('hex')]));
}

const PATCH = [
  '*** Begin Patch',
  '*** Update File: src/app.py',
  '@@',
  '-RETRIES = 3',
  '+RETRIES = 5',
  '*** Add File: src/added.py',
  '+ADDED = True',
  '*** Delete File: src/gone.py',
  '*** Update File: src/before.py',
  '*** Move to: src/after.py',
  '@@',
  '-NAME = "before"',
  '+NAME = "after"',
  '*** End Patch',
].join('\n');

describe('MCP: multi_edit_undo and multi_edit_history', () => {
  afterEach(() => {
    for (const folder of sandboxes.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('lists both tools, undoes a four-operation patch byte for byte after a restart, and the CLI sees the same history', async () => {
    const { root, env } = project();
    // Large enough for the history to keep its text by a link to the file, which the undo reads back through the server's confined store.
    fs.writeFileSync(path.join(root, 'src/app.py'), `\uFEFFRETRIES = 3\r\nDELAY = 1\r\n${'PADDING = 0\r\n'.repeat(6_000)}`);
    fs.writeFileSync(path.join(root, 'src/gone.py'), 'GONE = 1\n');
    fs.writeFileSync(path.join(root, 'src/before.py'), 'NAME = "before"\n');
    const before = snapshot(root);

    const first = await startMcpSession({ cwd: root, args: ['--root', root], env });
    let id: string | undefined;
    try {
      const names = (await first.client.listTools()).tools.map((tool) => tool.name);
      assert.ok(names.includes('multi_edit_undo') && names.includes('multi_edit_history'), names.join(', '));
      const { response } = await first.call('multi_edit_patch', { patch: PATCH });
      assert.ok(response.success, JSON.stringify(response));
      id = response.request_id;
      assert.ok(id);
    } finally {
      await first.close();
    }

    const [historyFolder] = fs.readdirSync(env.MULTI_EDIT_HISTORY_DIR);
    assert.equal(fs.readdirSync(path.join(env.MULTI_EDIT_HISTORY_DIR, historyFolder)).filter((name) => name.endsWith('.original')).length, 1, 'the large file is kept by a link');

    const listedByCli = JSON.parse(runCli(['history', '--root', root], { cwd: root, env }).stdout) as { requests: { request_id: string; surface: string }[] };
    assert.deepEqual(listedByCli.requests.map((request) => [request.request_id, request.surface]), [[id, 'mcp']]);

    const second = await startMcpSession({ cwd: root, args: ['--root', root], env });
    try {
      const history = await second.client.callTool({ name: 'multi_edit_history', arguments: {} });
      const listing = history.structuredContent as { requests: { request_id: string; files: unknown[] }[] };
      assert.deepEqual(listing.requests.map((request) => [request.request_id, request.files.length]), [[id, 4]]);

      const preview = await second.call('multi_edit_undo', { dry_run: true });
      assert.ok(preview.response.success && preview.response.files.every((file) => file.diff !== undefined));
      assert.notDeepEqual(snapshot(root), before);

      const undone = await second.call('multi_edit_undo', { request_id: id });
      assert.ok(undone.response.success, JSON.stringify(undone.response));
      assert.equal(undone.response.undone_request_id, id);
      assert.deepEqual(snapshot(root), before);

      const bad = await second.call('multi_edit_undo', { request_id: 7 });
      assert.ok(!bad.response.success);
      assert.equal(bad.response.error_code, 'VALIDATION_FAILED');
    } finally {
      await second.close();
    }
  });

  /** A project with a 33 MiB file (over the default limit) whose first line is a marker, removed once the test is over. */
  function hugeProject(): { root: string; env: Record<string, string>; file: string; before: Buffer } {
    const { root, env } = project();
    const file = path.join(root, 'src/huge.txt');
    const line = 'PADDING = "0123456789abcdef0123456789abcdef0123456789abcdef"\n';
    fs.writeFileSync(file, `MARKER = "before"\n${line.repeat(Math.ceil((33 * 1024 * 1024) / line.length))}`);
    return { root, env, file, before: fs.readFileSync(file) };
  }

  const markerEdit = (file: string) => ({ file_path: file, edits: [{ old_string: 'MARKER = "before"', new_string: 'MARKER = "after"' }] });

  it('mcp --max-file-size MB raises every tool\'s limit: a 33 MiB file refused at the default is edited, and undone with its record\'s size taken out', async function () {
    this.timeout(120_000);
    const { root, env, file, before } = hugeProject();
    const edit = markerEdit(file);
    const atDefault = await startMcpSession({ cwd: root, args: ['--root', root], env });
    try {
      const refused = await atDefault.call('multi_edit', edit);
      assert.ok(!refused.response.success);
      assert.equal(refused.response.error_code, 'FILE_TOO_LARGE');
    } finally {
      await atDefault.close();
    }
    const raised = await startMcpSession({ cwd: root, args: ['--root', root, '--max-file-size', '64'], env });
    try {
      const applied = await raised.call('multi_edit', edit);
      assert.ok(applied.response.success && applied.response.request_id, JSON.stringify(applied.response));
      // As a record from before sizes were kept: only the server's own limit lets undo read the file.
      const [folder] = fs.readdirSync(env.MULTI_EDIT_HISTORY_DIR);
      const recordFile = path.join(env.MULTI_EDIT_HISTORY_DIR, folder, `${applied.response.request_id}.json`);
      const record = JSON.parse(fs.readFileSync(recordFile, 'utf8')) as { files: { after?: { bytes?: number } }[] };
      record.files.forEach((kept) => delete kept.after?.bytes);
      fs.writeFileSync(recordFile, JSON.stringify(record));
      const undone = await raised.call('multi_edit_undo', { request_id: applied.response.request_id });
      assert.ok(undone.response.success, JSON.stringify(undone.response));
    } finally {
      await raised.close();
    }
    assert.ok(fs.readFileSync(file).equals(before), 'the undo restores the bytes');
  });

  it('undoes a request the CLI applied past the default 32 MB limit, by the size its record keeps at the server\'s default limit', async function () {
    this.timeout(120_000);
    const { root, env, file, before } = hugeProject();
    const request = JSON.stringify(markerEdit(file));
    const applied = parseCliResponse(runCli(['apply', '--max-file-size', '64', '-'], { cwd: root, env, input: request }));
    assert.ok(applied.success && applied.request_id, JSON.stringify(applied));
    const session = await startMcpSession({ cwd: root, args: ['--root', root], env });
    try {
      const undone = await session.call('multi_edit_undo', { request_id: applied.request_id });
      assert.ok(undone.response.success, JSON.stringify(undone.response));
      assert.equal(undone.response.undone_request_id, applied.request_id);
    } finally {
      await session.close();
    }
    assert.ok(fs.readFileSync(file).equals(before), 'the undo restores the bytes');
  });

  it('a stale undo is refused with STALE_CONTENT naming the file, and nothing changes', async () => {
    const { root, env } = project();
    const file = path.join(root, 'src/app.py');
    fs.writeFileSync(file, 'A = 1\n');
    const session = await startMcpSession({ cwd: root, args: ['--root', root], env });
    try {
      const applied = await session.call('multi_edit', { file_path: file, edits: [{ old_string: 'A = 1', new_string: 'A = 2' }] });
      assert.ok(applied.response.success);
      const later = parseCliResponse(runCli(['apply', '-'], { cwd: root, env, input: JSON.stringify({ file_path: file, edits: [{ old_string: 'A = 2', new_string: 'A = 3' }] }) }));
      assert.ok(later.success && later.request_id);
      const refused = await session.call('multi_edit_undo', { request_id: applied.response.request_id });
      assert.ok(!refused.response.success);
      assert.equal(refused.response.error_code, 'STALE_CONTENT');
      assert.equal(refused.response.file_path, file);
      assert.match(refused.response.message, new RegExp(`changed by request ${later.request_id}`));
      assert.equal(fs.readFileSync(file, 'utf8'), 'A = 3\n');
    } finally {
      await session.close();
    }
  });
});
