// The palette commands: applying a request from each of its sources (a request object from
// another extension, a request file, the active editor's JSON or its selection), showing the last
// envelope, and re-running the latest failed request.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/vscode/platform/ids';
import type { EngineResponse } from '../../src/core/contract/schemas';
import { codeOf, diagnosticsOf, editorSuiteFixture, multiEditDiagnostics, noDiagnosticsOn, THREE_TOTALS } from './editorHelpers';
import { openInEditor, readDisk, scratchDir, workspaceRoot, writeScratchFile } from './helpers';

function apply(argument?: unknown): Thenable<EngineResponse | undefined> {
  return vscode.commands.executeCommand<EngineResponse | undefined>(COMMANDS.applyRequest, argument);
}

suite('commands', () => {
  editorSuiteFixture();

  test('the commands are contributed as "Multi-Edit: ..." (category, or title for those in context menus)', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const id of Object.values(COMMANDS)) {
      assert.ok(all.includes(id), `${id} is registered`);
    }
    const manifest = vscode.extensions.getExtension('multi-edit.multi-edit')?.packageJSON as {
      contributes: { commands: { command: string; title: string; category?: string }[]; jsonValidation: { fileMatch: string; url: string }[] };
    };
    for (const id of Object.values(COMMANDS)) {
      const command = manifest.contributes.commands.find((candidate) => candidate.command === id);
      const shown = command?.category === undefined ? command?.title : `${command.category}: ${command.title}`;
      assert.match(shown ?? '', /^Multi-Edit: [A-Z]/, `${id}, with its title read from package.nls.json`);
    }
    assert.deepEqual(manifest.contributes.jsonValidation, [{ fileMatch: '*.multiedit.json', url: './schemas/multiedit-request.editor.schema.json' }]);
  });

  test('applyRequest takes a request object from another extension (multi_edit_files by its shape)', async () => {
    const dir = scratchDir('object');
    const first = writeScratchFile(dir, 'a.ts', 'export const a = 1;\n');
    const second = writeScratchFile(dir, 'b.ts', 'export const b = 2;\n');
    const response = await apply({
      files: [
        { file_path: first, edits: [{ old_string: 'a = 1', new_string: 'a = 10' }] },
        { file_path: second, edits: [{ old_string: 'b = 2', new_string: 'b = 20' }] },
      ],
    });
    assert.equal(response?.success, true, JSON.stringify(response));
    assert.equal(readDisk(first), 'export const a = 10;\n');
    assert.equal(readDisk(second), 'export const b = 20;\n');
  });

  test('applyRequest runs a request file given as a Uri; its relative path resolves in the workspace folder', async () => {
    const dir = scratchDir('file');
    const target = writeScratchFile(dir, 'target.ts', 'let count = 0;\n');
    const relative = path.relative(workspaceRoot(), target);
    const request = writeScratchFile(dir, 'rename.multiedit.json', JSON.stringify({
      file_path: relative,
      edits: [{ old_string: 'let count', new_string: 'let total' }],
    }));
    const response = await apply(vscode.Uri.file(request));
    assert.equal(response?.success, true, JSON.stringify(response));
    assert.equal(readDisk(target), 'let total = 0;\n');
  });

  test('applyRequest uses the selection of the active JSON editor, and a failure shows on the target', async () => {
    const dir = scratchDir('selection');
    const target = writeScratchFile(dir, 'totals.ts', THREE_TOTALS);
    const request = { file_path: target, edits: [{ old_string: '  return total;', new_string: '  return sum;' }] };
    const notes = writeScratchFile(dir, 'notes.json', `{\n  "before": 1,\n  "request": ${JSON.stringify(request)}\n}\n`);
    const editor = await openInEditor(notes);
    const line = editor.document.lineAt(2);
    const start = line.text.indexOf('{');
    editor.selection = new vscode.Selection(2, start, 2, line.text.lastIndexOf('}') + 1);
    const response = await apply();
    assert.equal(response?.success, false);
    const [diagnostic] = await diagnosticsOf(target);
    assert.equal(codeOf(diagnostic).value, 'AMBIGUOUS_MATCH');
    assert.equal(readDisk(target), THREE_TOTALS);
  });

  test('applyRequest on an editor that is not valid JSON runs nothing', async () => {
    const dir = scratchDir('invalid');
    const target = writeScratchFile(dir, 'target.ts', 'let count = 0;\n');
    const broken = writeScratchFile(dir, 'broken.multiedit.json', `{ "file_path": ${JSON.stringify(target)}, "edits": [ `);
    await openInEditor(broken);
    assert.equal(await apply(), undefined);
    assert.equal(readDisk(target), 'let count = 0;\n');
    assert.equal(multiEditDiagnostics(broken).length, 0);
  });

  test('showLastEnvelope opens the last response, whichever surface it came from', async () => {
    const dir = scratchDir('last');
    const target = writeScratchFile(dir, 'target.ts', 'let count = 0;\n');
    const response = await apply({ file_path: target, edits: [{ old_string: 'missing', new_string: 'x' }] });
    const uri = await vscode.commands.executeCommand<vscode.Uri>(COMMANDS.showLastEnvelope);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.deepEqual(JSON.parse(document.getText()), response);
  });

  test('the palette\'s "Re-run Failed Request" runs the latest failed request again, even after its problem cleared', async () => {
    const dir = scratchDir('rerun');
    const target = writeScratchFile(dir, 'target.ts', 'let count = 0;\n');
    await apply({ file_path: target, edits: [{ old_string: 'let total', new_string: 'let sum' }] });
    await diagnosticsOf(target);
    const editor = await openInEditor(target);
    await editor.edit((builder) => builder.replace(new vscode.Range(0, 0, 0, 9), 'let total'));
    await noDiagnosticsOn(target);
    assert.ok(await editor.document.save());
    const response = await vscode.commands.executeCommand<EngineResponse>(COMMANDS.rerunRequest);
    assert.equal(response.success, true, JSON.stringify(response));
    const document = await vscode.workspace.openTextDocument(target);
    assert.equal(document.getText(), 'let sum = 0;\n');
  });

  test('Undo Last Request takes back every file of the last request, to its bytes before it, once', async () => {
    const dir = scratchDir('undoLast');
    const firstBefore = 'export const größe = 1;\r\nexport const name = "a";\r\n';
    const secondBefore = 'let count = 0;\n';
    const first = writeScratchFile(dir, 'first.ts', firstBefore);
    const second = writeScratchFile(dir, 'second.ts', secondBefore);
    const response = await apply({
      files: [
        { file_path: first, edits: [{ old_string: 'größe = 1', new_string: 'größe = 2' }] },
        { file_path: second, edits: [{ old_string: 'let count', new_string: 'let total' }] },
      ],
    });
    assert.equal(response?.success, true, JSON.stringify(response));
    assert.equal(readDisk(second), 'let total = 0;\n');

    assert.equal(await vscode.commands.executeCommand(COMMANDS.undoLastRequest), 'undone');
    for (const [file, before] of [[first, firstBefore], [second, secondBefore]]) {
      const document = await vscode.workspace.openTextDocument(file);
      assert.equal(document.getText(), before, file);
      if (document.isDirty) {
        assert.ok(await document.save());
      }
      assert.deepEqual(readFileSync(file), Buffer.from(before, 'utf8'), `${file} on disk`);
    }
    assert.equal(await vscode.commands.executeCommand(COMMANDS.undoLastRequest), 'nothing', 'a second run has nothing to undo');
  });

  test('Undo Last Request leaves the files alone when they changed after the request', async () => {
    const dir = scratchDir('undoChanged');
    const target = writeScratchFile(dir, 'target.ts', 'let count = 0;\n');
    const response = await apply({ file_path: target, edits: [{ old_string: 'let count', new_string: 'let total' }] });
    assert.equal(response?.success, true, JSON.stringify(response));
    const editor = await openInEditor(target);
    await editor.edit((builder) => builder.insert(new vscode.Position(1, 0), 'total++;\n'));
    assert.equal(await vscode.commands.executeCommand(COMMANDS.undoLastRequest), 'changed');
    assert.equal(editor.document.getText(), 'let total = 0;\ntotal++;\n');
  });
});
