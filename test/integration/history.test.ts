// The request history in the editor: a request applied by the language-model tool is undone
// from Show Request History byte for byte; the history is the command line's too (a request
// the CLI applied in the workspace folder is listed and undone here, and the reverse, a large
// file's text read back from the link the CLI kept); a large document with unsaved changes is
// kept beside its record as the UTF-8 bytes of its text, and undone from them; a stale
// undo is refused naming the file; Undo Last Request marks the request undone in the history.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_PATCH } from '../../src/core/contract/toolNames';
import type { EngineResponse, ErrorEnvelope, SuccessResponse } from '../../src/core/contract/schemas';
import { historyFolder } from '../../src/shared/history/historyBook';
import { COMMANDS, EXTENSION_ID, READ_ONLY_SCHEME } from '../../src/vscode/platform/ids';
import { closeAllEditors, expectSuccess, fileOperationsPatch, invokeTool, openInEditor, patchPath, toolSuiteFixture, waitFor, workspaceRoot, writeScratchFile } from './helpers';

type UndoAnswer = SuccessResponse | ErrorEnvelope;

function historyCommand(requestId: string, action: 'preview' | 'undo'): Thenable<UndoAnswer | undefined> {
  return vscode.commands.executeCommand<UndoAnswer | undefined>(COMMANDS.showRequestHistory, { requestId, action });
}

/** Every file under `dir`, by its relative path, as hex bytes. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(dir, full)] = fs.readFileSync(full).toString('hex');
    }
  };
  walk(dir);
  return files;
}

/** Waits until `dir` holds exactly `expected` (a WorkspaceEdit's file operations reach the disk a moment after it is applied). */
async function waitForBytes(what: string, dir: string, expected: Record<string, string>): Promise<void> {
  await waitFor(what, () => JSON.stringify(snapshot(dir)) === JSON.stringify(expected), 10_000).catch(() => assert.deepEqual(snapshot(dir), expected, what));
}

/** The multi-edit command line of this checkout, run in the workspace folder with the extension's history folder. */
function cli(args: readonly string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension);
  const run = spawnSync(process.execPath, [path.join(extension.extensionPath, 'dist', 'cli.js'), ...args], {
    cwd: workspaceRoot(),
    input,
    encoding: 'utf8',
    // The extension host may be Electron: it runs the CLI as Node. The history folder is the one the extension uses.
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', MULTI_EDIT_HISTORY_DIR: historyFolder(process.env) },
    timeout: 20_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** How many texts the history keeps by a link to a file (a large file's text before a request), over every root. */
function linkedOriginals(): number {
  const folder = historyFolder(process.env);
  return fs.readdirSync(folder).reduce((count, root) => count + fs.readdirSync(path.join(folder, root)).filter((name) => name.endsWith('.original')).length, 0);
}

/** Lines enough to make a file large: the CLI's history then keeps its text by a link to the file, which VS Code reads back to undo. */
const LARGE_TAIL = '// a line that makes the file large enough to be kept by a link\r\n'.repeat(1_200);

function cliResponse(run: { status: number | null; stdout: string; stderr: string }): EngineResponse {
  assert.ok(run.stdout.trim() !== '', `the CLI answered nothing (status ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as EngineResponse;
}

suite('request history', function () {
  // The first test starts the tools and the CLI on a busy host: more than the default 30 s may pass.
  this.timeout(90_000);
  const fixture = toolSuiteFixture('history');
  teardown(() => closeAllEditors());

  test('a request applied by the tool is previewed, then undone from Show Request History byte for byte (update, add, delete, move; BOM and CRLF)', async () => {
    const { dir } = fixture;
    writeScratchFile(dir, 'greet.js', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("function greet(name) {\r\n  return 'Hello, ' + name;\r\n}\r\n")]));
    const { patch } = fileOperationsPatch(dir, 'greet.js', ['@@ function greet(name) {', "-  return 'Hello, ' + name;", "+  return `Hello, ${name}`;"]);
    const before = snapshot(dir);
    const applied = expectSuccess(await invokeTool(TOOL_MULTI_EDIT_PATCH, { patch }));
    const id = applied.request_id;
    assert.ok(id, 'an applied request carries its request_id');
    await waitFor('the patch is on disk', () => !fs.existsSync(path.join(dir, 'old.txt')));
    const after = snapshot(dir);

    const listed = await fixture.api.runner.historyItems(100);
    const item = listed.find((candidate) => candidate.entry.request_id === id);
    assert.ok(item, `request ${id} is in the history`);
    assert.equal(item.entry.surface, 'vscode');
    assert.equal(item.root, fs.realpathSync.native(workspaceRoot()), 'the history is keyed by the workspace folder\'s real path');
    assert.deepEqual(item.entry.files.map((file) => file.operation), ['update', 'add', 'delete', 'move']);

    const preview = await historyCommand(id, 'preview');
    assert.ok(preview?.success, JSON.stringify(preview));
    assert.equal(preview.dry_run, true);
    assert.equal(preview.undone_request_id, id);
    assert.match(preview.files[0]?.diff ?? '', /-  return `Hello, \$\{name\}`;/);
    assert.deepEqual(snapshot(dir), after, 'a preview writes nothing');

    const undone = await historyCommand(id, 'undo');
    assert.ok(undone?.success, JSON.stringify(undone));
    assert.equal(undone.undone_request_id, id);
    await waitForBytes('every file is back, byte for byte', dir, before);

    const again = await historyCommand(id, 'undo');
    assert.ok(again && !again.success, JSON.stringify(again));
    assert.match(again.message, /already undone/);
  });

  test('a request the CLI applied in the workspace folder is listed and undone in VS Code; one VS Code applied is undone by the CLI', async () => {
    const { dir } = fixture;
    const target = writeScratchFile(dir, 'limits.ts', `export const retries = 3;\r\nexport const delay = 10;\r\n${LARGE_TAIL}`);
    const before = snapshot(dir);
    const patch = ['*** Begin Patch', `*** Update File: ${patchPath(dir)}/limits.ts`, '@@', '-export const retries = 3;', '+export const retries = 5;', '*** End Patch'].join('\n');
    const linked = linkedOriginals();
    const applied = cliResponse(cli(['patch', '-'], patch));
    assert.ok(applied.success && applied.request_id, JSON.stringify(applied));
    assert.equal(linkedOriginals(), linked + 1, 'the CLI kept the large file\'s text by a link');
    const item = await fixture.api.runner.historyItem(applied.request_id);
    assert.equal(item?.entry.surface, 'cli', 'the CLI\'s request is in the history VS Code reads');
    const preview = await historyCommand(applied.request_id, 'preview');
    assert.ok(preview?.success, JSON.stringify(preview));
    const restoredUri = vscode.Uri.from({ scheme: READ_ONLY_SCHEME, path: `/undo/${applied.request_id}/1-restored/limits.ts` });
    assert.equal((await vscode.workspace.openTextDocument(restoredUri)).getText(), `export const retries = 3;\r\nexport const delay = 10;\r\n${LARGE_TAIL}`, 'the preview shows the text the link keeps');
    const undone = await historyCommand(applied.request_id, 'undo');
    assert.ok(undone?.success, JSON.stringify(undone));
    await waitForBytes('the CLI\'s request is undone from VS Code', dir, before);

    const edited = expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: target, edits: [{ old_string: 'delay = 10', new_string: 'delay = 20' }] }));
    assert.ok(edited.request_id);
    const listing = cli(['history']);
    assert.equal(listing.status, 0, listing.stderr);
    const { requests } = JSON.parse(listing.stdout) as { requests: { request_id: string; surface: string }[] };
    assert.equal(requests.find((request) => request.request_id === edited.request_id)?.surface, 'vscode', 'the CLI lists the request VS Code applied');
    const byCli = cliResponse(cli(['undo', edited.request_id]));
    assert.ok(byCli.success, JSON.stringify(byCli));
    await waitForBytes('the CLI undid VS Code\'s request', dir, before);
  });

  test('a request\'s record is on disk, synced, before VS Code saves the document it edited', async () => {
    const { dir } = fixture;
    const target = writeScratchFile(dir, 'saved.ts', 'export const saved = false;\n');
    const folder = historyFolder(process.env);
    const pendingAtSave: string[] = [];
    const watch = vscode.workspace.onWillSaveTextDocument((event) => {
      if (event.document.uri.fsPath === target) {
        pendingAtSave.push(...fs.readdirSync(folder).flatMap((root) => fs.readdirSync(path.join(folder, root)).filter((name) => name.endsWith('.pending.json'))));
      }
    });
    try {
      const edited = expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: target, edits: [{ old_string: 'saved = false', new_string: 'saved = true' }] }));
      assert.ok(edited.request_id);
      await waitFor('the edit is saved', () => fs.readFileSync(target, 'utf8') === 'export const saved = true;\n');
      assert.ok(pendingAtSave.includes(`${edited.request_id}.pending.json`), `when VS Code saved the file, the history held ${JSON.stringify(pendingAtSave)}`);
    } finally {
      watch.dispose();
    }
  });

  test('a large Latin-1 file the CLI deleted with --encoding latin1 (kept by a link) is re-created by VS Code byte for byte', async () => {
    const { dir } = fixture;
    writeScratchFile(dir, 'gone.txt', Buffer.from(`caf\xe9 cr\xe8me\r\n${LARGE_TAIL}`, 'latin1'));
    writeScratchFile(dir, 'kept.txt', 'kept\n');
    const before = snapshot(dir);
    const patch = ['*** Begin Patch', `*** Delete File: ${patchPath(dir)}/gone.txt`, '*** End Patch'].join('\n');
    const applied = cliResponse(cli(['patch', '--encoding', 'latin1', '-'], patch));
    assert.ok(applied.success && applied.request_id, JSON.stringify(applied));
    const undone = await historyCommand(applied.request_id, 'undo');
    assert.ok(undone?.success, JSON.stringify(undone));
    await waitForBytes('the deleted file is back in Latin-1', dir, before);
  });

  test('a large document with unsaved changes is kept beside its record as the UTF-8 bytes of its text, and undo brings that text back', async () => {
    const { dir } = fixture;
    const target = writeScratchFile(dir, 'draft.ts', `export const stage = "saved";\n${'// a line that makes the document large\n'.repeat(400)}`);
    const editor = await openInEditor(target);
    // Unsaved: the text the request finds, and the history keeps, is the document's, not the file's.
    assert.ok(await editor.edit((builder) => builder.insert(new vscode.Position(0, 0), '// an unsaved line: café, 😀\n')));
    const draft = editor.document.getText();
    const applied = expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: target, edits: [{ old_string: 'stage = "saved"', new_string: 'stage = "edited"' }] }));
    assert.ok(applied.request_id);
    const before = (await fixture.api.runner.historyItem(applied.request_id))?.entry.files[0].before;
    assert.ok(before?.original !== undefined && before.text === undefined, `the record names a copy instead of holding the text: ${JSON.stringify(before)}`);
    const folder = historyFolder(process.env);
    const [copy] = fs.readdirSync(folder).map((root) => path.join(folder, root, before.original ?? '')).filter((candidate) => fs.existsSync(candidate));
    assert.ok(fs.readFileSync(copy).equals(Buffer.from(draft, 'utf8')), 'the copy holds the document\'s text as UTF-8');
    const undone = await historyCommand(applied.request_id, 'undo');
    assert.ok(undone?.success, JSON.stringify(undone));
    await waitFor('the document holds its unsaved text again', () => editor.document.getText() === draft);
  });

  test('an undo after the file changed is refused with STALE_CONTENT naming the file, and nothing changes', async () => {
    const { dir } = fixture;
    const target = writeScratchFile(dir, 'stale.ts', 'let count = 0;\n');
    const applied = expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: target, edits: [{ old_string: 'let count', new_string: 'let total' }] }));
    assert.ok(applied.request_id);
    const document = await vscode.workspace.openTextDocument(target);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((builder) => builder.insert(new vscode.Position(1, 0), 'total++;\n'));
    assert.ok(await document.save());
    const changed = snapshot(dir);

    const refused = await historyCommand(applied.request_id, 'undo');
    assert.ok(refused && !refused.success, JSON.stringify(refused));
    assert.equal(refused.error_code, 'STALE_CONTENT');
    assert.match(refused.message, /stale\.ts was changed/);
    assert.equal(document.getText(), 'let total = 0;\ntotal++;\n');
    assert.deepEqual(snapshot(dir), changed);
    const item = await fixture.api.runner.historyItem(applied.request_id);
    assert.equal(item?.entry.undone_at, undefined, 'the refused request stays undoable');
  });

  test('Undo Last Request takes the request back in the editor and marks it undone in the history', async () => {
    const { dir } = fixture;
    const target = writeScratchFile(dir, 'last.ts', 'export const mode = "a";\n');
    const applied = expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: target, edits: [{ old_string: '"a"', new_string: '"b"' }] }));
    const id = applied.request_id;
    assert.ok(id);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target));
    assert.equal(await vscode.commands.executeCommand(COMMANDS.undoLastRequest), 'undone');
    let undoneAt: string | undefined;
    const deadline = Date.now() + 5_000;
    while (undoneAt === undefined && Date.now() < deadline) {
      undoneAt = (await fixture.api.runner.historyItem(id))?.entry.undone_at;
      if (undoneAt === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(undoneAt, 'the history marks the request undone');
  });
});
