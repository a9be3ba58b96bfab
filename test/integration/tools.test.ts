// The language-model tools, called through vscode.lm.invokeTool exactly as a chat participant
// calls them: discovery, success, every failure the model must be able to recover from, and
// the guarantee that a failure leaves every file as it was.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { OUTPUT_CHANNEL_NAME } from '../../src/vscode/platform/ids';
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_MULTI_EDIT_PATCH, TOOL_NAMES } from '../../src/core/contract/toolNames';
import { requestJsonSchemas } from '../../src/core/contract/schemas';
import { requestInput } from '../../src/core/formats/inputFormats';
import type { MultiEditApi } from '../../src/vscode/extension';
import {
  activateExtension, closeAllEditors, expectError, expectSuccess, fileOperationsPatch, invokeTool, openInEditor, patchPath, readDisk, scratchDir, toolSuiteFixture, waitFor,
  waitForTools, writeScratchFile,
} from './helpers';

const GREETING = [
  'function greet(name) {',
  "  return 'Hello, ' + name;",
  '}',
  '',
  'function part(name) {',
  "  return 'Bye, ' + name;",
  '}',
  '',
].join('\n');

suite('language-model tools: discovery', () => {
  let api: MultiEditApi;
  suiteSetup(async () => {
    api = await activateExtension();
  });

  test('vscode.lm.tools lists both tools with the schemas generated from zod', async () => {
    const tools = await waitForTools();
    const generated = requestJsonSchemas();
    for (const name of TOOL_NAMES) {
      const tool = tools.find((candidate) => candidate.name === name);
      assert.ok(tool, `${name} is listed`);
      const expected: Record<string, unknown> = { ...generated[name] };
      delete expected.$schema;
      assert.deepEqual(tool.inputSchema, expected, `${name} inputSchema`);
      assert.match(tool.description, name === TOOL_MULTI_EDIT_PATCH ? /\*\*\* Begin Patch/ : /replace_all/);
      assert.match(tool.description, /next_action/);
    }
  });

  test('the "Multi-Edit" log channel exists and records each call with its outcome', async () => {
    assert.equal(api.log.name, OUTPUT_CHANNEL_NAME);
    const dir = scratchDir('log');
    const file = writeScratchFile(dir, 'logged.txt', 'alpha\n');
    await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'missing', new_string: 'x' }] });
    const logFile = path.join(api.logDirectory.fsPath, `${OUTPUT_CHANNEL_NAME}.log`);
    const logged = () => fs.existsSync(logFile) && fs.readFileSync(logFile, 'utf8');
    await waitFor(`a MATCH_NOT_FOUND line for logged.txt in ${logFile}`, () => {
      const text = logged();
      return typeof text === 'string' && /multi_edit \(tool\) 1 file \[.*logged\.txt\], 1 edit -> MATCH_NOT_FOUND.*\(\d+ ms\)/.test(text);
    }, 10_000);
  });
});

suite('language-model tools: results', () => {
  const fixture = toolSuiteFixture('tools');
  teardown(closeAllEditors);

  test('success on a closed file: edited, saved to disk, one text part with the summary first', async () => {
    const file = writeScratchFile(fixture.dir, 'greet.js', GREETING);
    const reply = await invokeTool(TOOL_MULTI_EDIT, {
      file_path: file,
      edits: [
        { old_string: "'Hello, '", new_string: "'Hi, '" },
        { old_string: 'name', new_string: 'who', replace_all: true },
      ],
    });
    const response = expectSuccess(reply);
    assert.equal(reply.summaryLine, response.summary);
    assert.equal(response.files.length, 1);
    assert.equal(response.files[0].edits_applied, 2);
    assert.equal(response.files[0].replacements, 5);
    assert.equal(response.edits_applied, 2, 'multi_edit keeps edits_applied at the top level');
    assert.equal(response.dry_run, false);
    assert.equal(response.files[0].diff, undefined, 'no diff unless include_diff');
    assert.equal(readDisk(file), GREETING.replace("'Hello, '", "'Hi, '").replaceAll('name', 'who'));
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.fsPath === file);
    assert.ok(!document?.isDirty, 'the document was saved');
  });

  test('each finished call is published on the outcome bus as a tool outcome', async () => {
    const file = writeScratchFile(fixture.dir, 'bus.txt', 'one\n');
    const reply = await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'one', new_string: 'two' }] });
    const outcome = fixture.api.bus.lastOutcome;
    assert.equal(outcome?.id, reply.recordId, 'the result names the record published');
    assert.equal(outcome?.tool, TOOL_MULTI_EDIT);
    assert.equal(outcome?.source, 'tool');
    assert.equal(outcome?.response.success, true);
    assert.deepEqual(outcome?.request && requestInput(outcome.request), { file_path: file, edits: [{ old_string: 'one', new_string: 'two' }] });
  });

  test('each result names its own request record in its last part, with two calls of one tool running at once', async () => {
    const failing = writeScratchFile(fixture.dir, 'concurrent-fail.txt', 'alpha\n');
    const passing = writeScratchFile(fixture.dir, 'concurrent-pass.txt', 'beta\n');
    const [failed, applied] = await Promise.all([
      invokeTool(TOOL_MULTI_EDIT, { file_path: failing, edits: [{ old_string: 'gamma', new_string: 'delta' }] }),
      invokeTool(TOOL_MULTI_EDIT, { file_path: passing, edits: [{ old_string: 'beta', new_string: 'epsilon' }] }),
    ]);
    assert.notEqual(failed.recordId, applied.recordId);
    for (const [reply, file] of [[failed, failing], [applied, passing]] as const) {
      const record = fixture.api.runner.recordById(reply.recordId);
      assert.ok(record, `record #${reply.recordId} is known`);
      assert.deepEqual(record.request?.files.map((target) => target.filePath), [file]);
      assert.deepEqual(record.response, reply.response, 'the record holds the response the caller got');
    }
    assert.equal(failed.response.success, false);
    assert.equal(readDisk(passing), 'epsilon\n');
  });

  test('MATCH_NOT_FOUND returns the raw text around the closest match and changes nothing', async () => {
    const file = writeScratchFile(fixture.dir, 'greet.js', GREETING);
    const reply = await invokeTool(TOOL_MULTI_EDIT, {
      file_path: file,
      edits: [
        { old_string: "'Bye, '", new_string: "'See you, '" },
        { old_string: "  return 'Hi, ' + name;", new_string: "  return 'Hey, ' + name;" },
      ],
    });
    const envelope = expectError(reply, 'MATCH_NOT_FOUND');
    assert.equal(reply.summaryLine, envelope.summary);
    assert.equal(envelope.category, 'match');
    assert.equal(envelope.retryable, true);
    assert.equal(envelope.edit_index, 1);
    assert.ok(envelope.context?.snippet?.includes("  return 'Hello, ' + name;"), 'the snippet holds the line that differs least, verbatim');
    assert.ok(!/^\s*\d+[:|]/m.test(envelope.context?.snippet ?? ''), 'the snippet has no line numbers');
    assert.equal(typeof envelope.context?.start_line, 'number');
    assert.deepEqual(envelope.edit_status.map((status) => [status.edit_index, status.status]), [[1, 'failed']]);
    assert.equal(envelope.next_action.action, 'fix_and_resubmit');
    assert.deepEqual(envelope.next_action.edits_to_fix, [1]);
    assert.equal(readDisk(file), GREETING, 'the first, matching edit was not applied either');
  });

  test('the same failing request sent again is named a repeat: re-read on the second, stop on the third; a changed request starts over', async () => {
    const file = writeScratchFile(fixture.dir, 'repeat.js', GREETING);
    const request = { file_path: file, edits: [{ old_string: "  return 'Hi, ' + name;", new_string: "  return 'Hey, ' + name;" }] };
    const first = expectError(await invokeTool(TOOL_MULTI_EDIT, request), 'MATCH_NOT_FOUND');
    assert.equal(first.next_action.action, 'fix_and_resubmit');
    assert.equal(first.next_action.repeated, undefined);
    const second = expectError(await invokeTool(TOOL_MULTI_EDIT, request), 'MATCH_NOT_FOUND');
    assert.equal(second.next_action.action, 'reread_and_retry');
    assert.equal(second.next_action.repeated, 2);
    assert.match(second.recovery_hints[0], /2nd time this same request failed the same way in this session/);
    assert.match(second.recovery_hints[0], /Re-read lines \d+-\d+ of /);
    assert.match(second.summary, /^Repeated \(2nd time\)/);
    const third = expectError(await invokeTool(TOOL_MULTI_EDIT, request), 'MATCH_NOT_FOUND');
    assert.equal(third.next_action.action, 'stop');
    assert.equal(third.next_action.repeated, 3);
    const changed = expectError(await invokeTool(TOOL_MULTI_EDIT, { ...request, edits: [{ ...request.edits[0], new_string: "  return 'Yo, ' + name;" }] }), 'MATCH_NOT_FOUND');
    assert.equal(changed.next_action.repeated, undefined, 'another request is no repeat');
    assert.equal(changed.next_action.action, 'fix_and_resubmit');
    assert.equal(readDisk(file), GREETING);
  });

  test('AMBIGUOUS_MATCH lists the capped locations and the uncapped total', async () => {
    const lines = Array.from({ length: 8 }, (_, index) => `step(${index}); log();`);
    const file = writeScratchFile(fixture.dir, 'steps.js', `${lines.join('\n')}\n`);
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'log();', new_string: 'trace();' }] }), 'AMBIGUOUS_MATCH');
    assert.equal(envelope.context?.total_matches, 8);
    const locations = envelope.context?.match_locations ?? [];
    assert.equal(locations.length, 5, 'multiEdit.maxMatchLocations defaults to 5');
    assert.deepEqual(locations.map((location) => location.line), [1, 2, 3, 4, 5]);
    assert.equal(locations[0].column, 10);
    assert.ok(locations[0].snippet.includes('step(0); log();'));
    assert.equal(readDisk(file), `${lines.join('\n')}\n`);
  });

  test('FILE_NOT_FOUND for a path with no file', async () => {
    const missing = path.join(fixture.dir, 'nope.ts');
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: missing, edits: [{ old_string: 'a', new_string: 'b' }] }), 'FILE_NOT_FOUND');
    assert.equal(envelope.file_path, missing);
    assert.equal(envelope.next_action.action, 'fix_and_resubmit');
    assert.ok(!fs.existsSync(missing), 'no file was created');
  });

  test('FILE_NOT_FOUND for a typo names the closest entries of the folder, from the workspace store', async () => {
    const dir = scratchDir('typo');
    writeScratchFile(dir, 'utils.ts', 'export const a = 1;\n');
    writeScratchFile(dir, 'index.ts', 'export * from "./utils";\n');
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: path.join(dir, 'utls.ts'), edits: [{ old_string: 'a', new_string: 'b' }] }), 'FILE_NOT_FOUND');
    assert.equal(envelope.context?.nearby_names?.[0], 'utils.ts', JSON.stringify(envelope.context));
  });

  test('VALIDATION_FAILED names the field, and nothing is written', async () => {
    const file = writeScratchFile(fixture.dir, 'valid.txt', 'keep\n');
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'keep' }] }), 'VALIDATION_FAILED');
    assert.match(envelope.message, /new_string/);
    assert.equal(envelope.category, 'input');
    assert.equal(readDisk(file), 'keep\n');
  });

  test('INVALID_ENCODING for a binary file, which stays byte for byte', async () => {
    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0d, 0x0a, 0xff]);
    const file = writeScratchFile(fixture.dir, 'image.png', bytes);
    expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'PNG', new_string: 'GIF' }] }), 'INVALID_ENCODING');
    assert.deepEqual(Uint8Array.from(fs.readFileSync(file)), bytes);
  });

  test('dry_run changes nothing and returns the unified diff', async () => {
    const file = writeScratchFile(fixture.dir, 'dry.txt', 'one\ntwo\nthree\n');
    const response = expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'two', new_string: 'deux' }], dry_run: true }));
    assert.equal(response.dry_run, true);
    assert.match(response.files[0].diff ?? '', /^-two$/m);
    assert.match(response.files[0].diff ?? '', /^\+deux$/m);
    assert.equal(readDisk(file), 'one\ntwo\nthree\n');
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.fsPath === file);
    assert.ok(!document?.isDirty, 'no buffer was touched');
  });

  test('include_diff returns the diff of a real run', async () => {
    const file = writeScratchFile(fixture.dir, 'diff.txt', 'red\n');
    const response = expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'red', new_string: 'blue' }], include_diff: true }));
    assert.match(response.files[0].diff ?? '', /^\+blue$/m);
    assert.equal(readDisk(file), 'blue\n');
  });

  test('multi_edit_files applies every file or none: the second fails, the first stays as it was, open in an editor', async () => {
    const first = writeScratchFile(fixture.dir, 'first.ts', 'export const a = 1;\n');
    const second = writeScratchFile(fixture.dir, 'second.ts', 'export const b = 2;\n');
    const editor = await openInEditor(first);
    const reply = await invokeTool(TOOL_MULTI_EDIT_FILES, {
      files: [
        { file_path: first, edits: [{ old_string: 'a = 1', new_string: 'a = 10' }] },
        { file_path: second, edits: [{ old_string: 'c = 3', new_string: 'c = 30' }] },
      ],
    });
    const envelope = expectError(reply, 'MATCH_NOT_FOUND');
    assert.equal(envelope.file_index, 1);
    assert.equal(envelope.file_path, second);
    assert.equal(envelope.edit_status[0].file_index, 1);
    assert.equal(editor.document.getText(), 'export const a = 1;\n', 'the open buffer is untouched');
    assert.equal(editor.document.isDirty, false);
    assert.equal(readDisk(first), 'export const a = 1;\n');
    assert.equal(readDisk(second), 'export const b = 2;\n');
  });

  test('multi_edit_files success edits and saves every file', async () => {
    const first = writeScratchFile(fixture.dir, 'one.ts', 'import { oldName } from "./two";\n');
    const second = writeScratchFile(fixture.dir, 'two.ts', 'export function oldName() {}\n');
    const response = expectSuccess(await invokeTool(TOOL_MULTI_EDIT_FILES, {
      files: [
        { file_path: first, edits: [{ old_string: 'oldName', new_string: 'newName' }] },
        { file_path: second, edits: [{ old_string: 'oldName', new_string: 'newName' }] },
      ],
    }));
    assert.deepEqual(response.files.map((file) => [file.file_path, file.edits_applied]), [[first, 1], [second, 1]]);
    assert.equal(readDisk(first), 'import { newName } from "./two";\n');
    assert.equal(readDisk(second), 'export function newName() {}\n');
  });
});

suite('language-model tools: multi_edit_patch', () => {
  suiteSetup(async () => {
    await activateExtension();
  });

  test('one patch updates, adds, deletes and moves files in one WorkspaceEdit, and one undo puts every file back', async () => {
    const dir = scratchDir('patch');
    const updated = writeScratchFile(dir, 'greet.js', GREETING);
    const { patch, added, deleted, moved, destination } = fileOperationsPatch(dir, 'greet.js', ['@@ function greet(name) {', "-  return 'Hello, ' + name;", "+  return `Hello, ${name}`;"]);
    const response = expectSuccess(await invokeTool(TOOL_MULTI_EDIT_PATCH, { patch }));
    assert.deepEqual(response.files.map((file) => file.operation), ['update', 'add', 'delete', 'move']);
    await waitFor('the patch is on disk', () => fs.existsSync(destination) && !fs.existsSync(deleted) && !fs.existsSync(moved));
    assert.match(readDisk(updated), /return `Hello, \$\{name\}`;/);
    assert.equal(readDisk(added), 'export const added = true;\n');
    assert.equal(readDisk(destination), 'export const part = 2;\n');

    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(updated));
    await vscode.commands.executeCommand('undo');
    await waitFor('one undo restores every file', () => fs.existsSync(deleted) && fs.existsSync(moved) && !fs.existsSync(added) && !fs.existsSync(destination), 10_000);
  });

  test('a patch whose second file does not match changes nothing, and names its hunk by patch line', async () => {
    const dir = scratchDir('patch-fail');
    const relative = patchPath(dir);
    const first = writeScratchFile(dir, 'a.txt', 'a\n');
    const patch = ['*** Begin Patch', `*** Add File: ${relative}/b.txt`, '+b', `*** Update File: ${relative}/a.txt`, '@@', '-missing', '+x', '*** End Patch', ''].join('\n');
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT_PATCH, { patch }), 'MATCH_NOT_FOUND');
    assert.equal(envelope.file_index, 1);
    assert.equal(envelope.context?.patch_line, 5);
    assert.equal(readDisk(first), 'a\n');
    assert.equal(fs.existsSync(path.join(dir, 'b.txt')), false);
  });
});
