// Facts about the extension host itself that every other integration test relies on.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../../src/vscode/platform/ids';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

suite('extension host', () => {
  test('is the VS Code version the runner chose, which the manifest allows', () => {
    assert.ok(process.env.MULTI_EDIT_TEST_VSCODE, 'the runner sets MULTI_EDIT_TEST_VSCODE');
    assert.equal(vscode.version, process.env.MULTI_EDIT_TEST_VSCODE);
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    const minimum = /^\^(\d+)\.(\d+)\./.exec(extension?.packageJSON.engines.vscode ?? '');
    assert.ok(minimum, 'engines.vscode is a ^ range');
    const [major, minor] = vscode.version.split('.').map(Number);
    assert.ok(major === Number(minimum[1]) && minor >= Number(minimum[2]), `${vscode.version} is below engines.vscode`);
  });

  test('loads Multi-Edit from this checkout and activates it', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    assert.equal(extension.extensionUri.fsPath, REPO_ROOT);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  test('offers the language-model tool API', () => {
    assert.equal(typeof vscode.lm.registerTool, 'function');
    assert.equal(typeof vscode.lm.invokeTool, 'function');
    assert.ok(Array.isArray(vscode.lm.tools), 'vscode.lm.tools is an array');
  });

  test('has one workspace folder: a fresh copy of the demo workspace', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1);
    const expected = process.env.MULTI_EDIT_TEST_WORKSPACE;
    assert.ok(expected, 'the runner sets MULTI_EDIT_TEST_WORKSPACE');
    assert.equal(folders[0].uri.fsPath, expected);
    assert.notEqual(expected, path.join(REPO_ROOT, 'demo', 'workspace'), 'the tests never edit demo/workspace itself');
  });
});
