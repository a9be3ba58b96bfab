// What another extension reaches of Multi-Edit as a user installs it (from the .vsix, so VS Code
// runs it in production mode): its public surfaces work, and nothing hands over the runner or a
// way to hook a commit. This file knows Multi-Edit only by its id, as a stranger would.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

const MULTI_EDIT_ID = 'multi-edit.multi-edit';

function multiEdit(): vscode.Extension<unknown> {
  const extension = vscode.extensions.getExtension(MULTI_EDIT_ID);
  assert.ok(extension, `${MULTI_EDIT_ID} is installed`);
  return extension;
}

/** Every property of the shared global object: extensions of one host share it, so a leak would show here. */
function globalKeys(): Set<PropertyKey> {
  return new Set(Reflect.ownKeys(globalThis));
}

/**
 * zod 4, bundled in Multi-Edit, keeps its settings and schema registry on the global object by
 * design (every copy of zod in a host shares them); they hold schemas, none of Multi-Edit's services.
 */
const ZOD_GLOBALS = new Set<PropertyKey>(['__zod_globalConfig', '__zod_globalRegistry']);

/**
 * Global properties added since `before` whose name Multi-Edit's bundle spells, besides zod's: the
 * host itself adds globals as it loads modules lazily (graceful-fs, for one), and those are not Multi-Edit's.
 */
function globalsFromMultiEdit(before: Set<PropertyKey>): string[] {
  const extension = multiEdit();
  const bundle = fs.readFileSync(path.join(extension.extensionPath, (extension.packageJSON as { main: string }).main), 'utf8');
  return [...globalKeys()]
    .filter((key) => !before.has(key) && !ZOD_GLOBALS.has(key))
    .map((key) => (typeof key === 'symbol' ? (key.description ?? '') : String(key)))
    .filter((name) => name.length > 0 && bundle.includes(name));
}

suite('Multi-Edit installed: what another extension can reach', () => {
  let globalsBefore: Set<PropertyKey>;
  let activeBefore: boolean;

  suiteSetup(() => {
    activeBefore = multiEdit().isActive;
    globalsBefore = globalKeys();
  });

  test('it is an installed extension, not one under development, and this extension activates it', () => {
    const extensionsDir = process.env.MULTI_EDIT_TEST_EXTENSIONS_DIR;
    assert.ok(extensionsDir, 'the runner names the extensions folder');
    const installedAt = fs.realpathSync(multiEdit().extensionPath);
    assert.ok(installedAt.startsWith(fs.realpathSync(extensionsDir) + path.sep), `${installedAt} lies in the extensions folder`);
    assert.equal(activeBefore, false, 'nothing activated Multi-Edit before this test');
  });

  test('activating it hands back nothing: no runner to drive, no commit to hook', async () => {
    const extension = multiEdit();
    const exported = await extension.activate();
    assert.equal(extension.isActive, true);
    assert.equal(exported, undefined, 'activate() resolves to undefined');
    assert.equal(extension.exports, undefined, 'the exports are undefined');
    assert.deepEqual(globalsFromMultiEdit(globalsBefore), [], 'activation put nothing on the shared global object');
  });

  test('its language-model tool edits a file for this extension and answers with text only', async () => {
    await multiEdit().activate();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the run opens a workspace folder');
    const file = path.join(folder.uri.fsPath, 'stranger.ts');
    fs.writeFileSync(file, 'export const greeting = "hello";\n');
    const result = await vscode.lm.invokeTool('multi_edit', {
      input: { file_path: file, edits: [{ old_string: '"hello"', new_string: '"hello, stranger"' }] },
      toolInvocationToken: undefined,
    }, new vscode.CancellationTokenSource().token);
    for (const part of result.content) {
      assert.ok(part instanceof vscode.LanguageModelTextPart, 'every part of the answer is text, nothing callable');
    }
    const answer = (result.content[0] as vscode.LanguageModelTextPart).value;
    const response = JSON.parse(answer.slice(answer.indexOf('\n') + 1)) as { success?: unknown };
    assert.equal(response.success, true, answer);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    assert.equal(document.getText(), 'export const greeting = "hello, stranger";\n');
    assert.deepEqual(globalsFromMultiEdit(globalsBefore), [], 'the commit put nothing on the shared global object');
  });

  test('the only commands it registers are those its manifest declares', async () => {
    await multiEdit().activate();
    const manifest = multiEdit().packageJSON as { contributes: { commands: { command: string }[] } };
    const declared = manifest.contributes.commands.map((entry) => entry.command).sort();
    const registered = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('multiEdit.')).sort();
    assert.deepEqual(registered, declared);
  });
});
