// The workspace FileStore under the tools: unsaved buffers are what gets edited, one
// applyEdit is one undo step, versions are re-checked before the commit, the document's
// line endings survive, and saving follows multiEdit.saveAfterEdit.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES } from '../../src/core/contract/toolNames';
import {
  closeAllEditors, expectError, expectSuccess, invokeTool, openInEditor, readDisk, toolSuiteFixture, withSettings, writeScratchFile,
} from './helpers';

const SOURCE = ['const width = 10;', 'const height = 20;', 'const area = width * height;', ''].join('\n');

suite('workspace FileStore', () => {
  const fixture = toolSuiteFixture('store');
  teardown(async () => {
    delete fixture.api.storeHooks.beforeCommit;
    await closeAllEditors();
  });

  test('an open, dirty buffer is what gets edited; it stays dirty, and one undo reverts every edit', async () => {
    const file = writeScratchFile(fixture.dir, 'dirty.ts', SOURCE);
    const editor = await openInEditor(file);
    await editor.edit((builder) => builder.insert(new vscode.Position(0, 0), '// unsaved note\n'));
    const beforeTool = editor.document.getText();
    assert.ok(editor.document.isDirty);

    const response = expectSuccess(await invokeTool(TOOL_MULTI_EDIT, {
      file_path: file,
      edits: [
        { old_string: '// unsaved note', new_string: '// edited note' },
        { old_string: 'width = 10', new_string: 'width = 11' },
        { old_string: 'height = 20', new_string: 'height = 21' },
      ],
    }));
    assert.equal(response.edits_applied, 3);
    assert.equal(editor.document.getText(), beforeTool.replace('unsaved', 'edited').replace('10', '11').replace('20', '21'));
    assert.ok(editor.document.isDirty, 'a buffer that was dirty stays dirty (saveAfterEdit: ifNotDirty)');
    assert.equal(readDisk(file), SOURCE, 'the disk is untouched');

    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), beforeTool, 'one undo step reverts all three edits');
  });

  test('STALE_CONTENT when the document changes before every commit; only those changes remain', async () => {
    const file = writeScratchFile(fixture.dir, 'stale.ts', SOURCE);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    let hookRan = 0;
    fixture.api.storeHooks.beforeCommit = async (writes) => {
      hookRan++;
      assert.deepEqual(writes.map((write) => write.path), [file]);
      const change = new vscode.WorkspaceEdit();
      change.insert(document.uri, new vscode.Position(0, 0), '// someone else\n');
      assert.ok(await vscode.workspace.applyEdit(change));
    };
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'width = 10', new_string: 'width = 99' }] }), 'STALE_CONTENT');
    // The request is planned again after each change: once, then four more times.
    assert.equal(hookRan, 5);
    assert.equal(envelope.category, 'transient');
    assert.equal(envelope.retryable, true);
    assert.equal(envelope.next_action.action, 'reread_and_retry');
    assert.equal(document.getText(), `${'// someone else\n'.repeat(5)}${SOURCE}`, 'the planned edit was not applied');
    assert.equal(readDisk(file), SOURCE);
  });

  test('a document changed once between planning and commit: the request is planned again and applied on top of the change', async () => {
    const file = writeScratchFile(fixture.dir, 'stale-once.ts', SOURCE);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    let hookRan = 0;
    fixture.api.storeHooks.beforeCommit = async () => {
      hookRan++;
      if (hookRan === 1) {
        const change = new vscode.WorkspaceEdit();
        change.insert(document.uri, new vscode.Position(0, 0), '// someone else\n');
        assert.ok(await vscode.workspace.applyEdit(change));
      }
    };
    expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'width = 10', new_string: 'width = 99' }] }));
    assert.equal(hookRan, 2);
    assert.equal(document.getText(), `// someone else\n${SOURCE.replace('width = 10', 'width = 99')}`);
  });

  test('a CRLF document keeps CRLF: LF newlines in the edit become CRLF', async () => {
    const crlf = 'alpha\r\nbeta\r\ngamma\r\n';
    const file = writeScratchFile(fixture.dir, 'windows.txt', crlf);
    expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'alpha\nbeta', new_string: 'one\ntwo\nthree' }] }));
    assert.equal(readDisk(file), 'one\r\ntwo\r\nthree\r\ngamma\r\n');
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    assert.equal(document.eol, vscode.EndOfLine.CRLF);
  });

  test('edits next to CRLF pairs and surrogate pairs land exactly', async () => {
    const text = 'a\r\n😀b\r\n😀c\r\n';
    const file = writeScratchFile(fixture.dir, 'pairs.txt', text);
    expectSuccess(await invokeTool(TOOL_MULTI_EDIT, {
      file_path: file,
      edits: [
        { old_string: '\n😀b', new_string: '\n😁b' },
        { old_string: 'c\r\n', new_string: 'C\r\n' },
      ],
    }));
    assert.equal(readDisk(file), 'a\r\n😁b\r\n😀C\r\n');
  });

  test('saveAfterEdit "never" leaves a closed file edited in a dirty buffer, not on disk', async () => {
    const file = writeScratchFile(fixture.dir, 'unsaved.txt', 'draft\n');
    await withSettings({ saveAfterEdit: 'never' }, async () => {
      expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'draft', new_string: 'final' }] }));
    });
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    assert.equal(document.getText(), 'final\n');
    assert.ok(document.isDirty);
    assert.equal(readDisk(file), 'draft\n');
  });

  test('saveAfterEdit "always" also saves a buffer that was dirty before', async () => {
    const file = writeScratchFile(fixture.dir, 'always.txt', 'one\n');
    const editor = await openInEditor(file);
    await editor.edit((builder) => builder.insert(new vscode.Position(1, 0), 'two\n'));
    await withSettings({ saveAfterEdit: 'always' }, async () => {
      expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'two', new_string: 'deux' }] }));
    });
    assert.equal(editor.document.isDirty, false);
    assert.equal(readDisk(file), 'one\ndeux\n');
  });

  test('a multi-file commit with a stale second document applies nothing to the first', async () => {
    const first = writeScratchFile(fixture.dir, 'first.txt', 'left\n');
    const second = writeScratchFile(fixture.dir, 'second.txt', 'right\n');
    const firstEditor = await openInEditor(first);
    fixture.api.storeHooks.beforeCommit = async () => {
      const secondDocument = await vscode.workspace.openTextDocument(vscode.Uri.file(second));
      const change = new vscode.WorkspaceEdit();
      change.insert(secondDocument.uri, new vscode.Position(0, 0), 'x');
      await vscode.workspace.applyEdit(change);
    };
    expectError(await invokeTool(TOOL_MULTI_EDIT_FILES, {
      files: [
        { file_path: first, edits: [{ old_string: 'left', new_string: 'LEFT' }] },
        { file_path: second, edits: [{ old_string: 'right', new_string: 'RIGHT' }] },
      ],
    }), 'STALE_CONTENT');
    assert.equal(firstEditor.document.getText(), 'left\n');
    assert.equal(firstEditor.document.isDirty, false);
    assert.equal(readDisk(first), 'left\n');
  });

  test('filesystem failures keep their codes: IS_DIRECTORY, FILE_TOO_LARGE (a setting) and SYMLINK_LOOP', async () => {
    const edit = [{ old_string: 'a', new_string: 'b' }];
    expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: fixture.dir, edits: edit }), 'IS_DIRECTORY');

    const big = writeScratchFile(fixture.dir, 'big.txt', 'a'.repeat(1.5 * 1024 * 1024));
    await withSettings({ maxFileSizeMB: 1 }, async () => {
      const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: big, edits: edit }), 'FILE_TOO_LARGE');
      assert.equal(envelope.retryable, false);
    });

    const loop = path.join(fixture.dir, 'loop-a');
    fs.symlinkSync(path.join(fixture.dir, 'loop-b'), loop);
    fs.symlinkSync(loop, path.join(fixture.dir, 'loop-b'));
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: loop, edits: edit }), 'SYMLINK_LOOP');
    assert.ok(!envelope.message.includes('ELOOP:'), 'no raw Node error text');
  });
});
