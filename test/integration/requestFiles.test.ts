// Request files and near misses, as a person meets them: CodeLens above the request, markers on
// the exact edit and field that failed in the file that was run, the failure notice worded as the
// Problems panel words it, "Open the failed request" going back to that file, and the hover that
// shows old_string against the file's text.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/vscode/platform/ids';
import type { EngineResponse } from '../../src/core/contract/schemas';
import { failureNotice } from '../../src/vscode/commands/runRequest';
import { REQUEST_MARKER_SOURCE } from '../../src/vscode/platform/ids';
import { diagnosticsOf, editorSuiteFixture } from './editorHelpers';
import { scratchDir, waitFor, writeScratchFile } from './helpers';

function requestMarkers(file: string): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(vscode.Uri.file(file)).filter((diagnostic) => diagnostic.source === REQUEST_MARKER_SOURCE);
}

async function markersOf(file: string, count: number): Promise<vscode.Diagnostic[]> {
  await waitFor(`${count} request markers on ${file}`, () => requestMarkers(file).length === count, 10_000);
  return requestMarkers(file);
}

function apply(uri: vscode.Uri): Thenable<EngineResponse | undefined> {
  return vscode.commands.executeCommand<EngineResponse | undefined>(COMMANDS.applyRequest, uri);
}

/** The text a marker covers in its document. */
async function markedText(file: string, diagnostic: vscode.Diagnostic): Promise<string> {
  return (await vscode.workspace.openTextDocument(file)).getText(diagnostic.range);
}

suite('request files', () => {
  editorSuiteFixture();

  test('CodeLens above the request: Apply and Preview, run on the file', async () => {
    const dir = scratchDir('lens');
    const request = writeScratchFile(dir, 'lens.multiedit.json', '\n{ "file_path": "x.ts", "edits": [] }\n');
    const document = await vscode.workspace.openTextDocument(request);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri);
    const ours = lenses.filter((lens) => lens.command?.command === COMMANDS.applyRequest || lens.command?.command === COMMANDS.previewRequest);
    assert.deepEqual(ours.map((lens) => lens.command?.title), ['$(play) Apply', '$(diff) Preview']);
    assert.ok(ours.every((lens) => lens.range.start.line === 1), 'on the line where the request starts');
    assert.equal((ours[0].command?.arguments?.[0] as vscode.Uri).fsPath, request);
  });

  test('a multi-file failure is marked on files[1].edits[0].old_string, and the notice names File 2, Edit 1 as the Problems panel does', async () => {
    const dir = scratchDir('multi');
    const first = writeScratchFile(dir, 'a.ts', 'export const a = 1;\n');
    const second = writeScratchFile(dir, 'b.ts', 'export const b = 2;\n');
    const request = writeScratchFile(dir, 'two.multiedit.json', JSON.stringify({
      files: [
        { file_path: first, edits: [{ old_string: 'a = 1', new_string: 'a = 10' }] },
        { file_path: second, edits: [{ old_string: 'b = 3', new_string: 'b = 30' }] },
      ],
    }, null, 2));
    const response = await apply(vscode.Uri.file(request));
    assert.equal(response?.success === false && response.error_code, 'MATCH_NOT_FOUND', JSON.stringify(response));
    const [marker] = await markersOf(request, 1);
    assert.equal(await markedText(request, marker), '"old_string": "b = 3"');
    assert.match(marker.message, /^File 2, Edit 1 · MATCH_NOT_FOUND: /);
    const [problem] = await diagnosticsOf(second);
    assert.match(problem.message, /^File 2, Edit 1 · MATCH_NOT_FOUND: /);
    assert.ok(response?.success === false);
    const notice = failureNotice(response);
    assert.match(notice, /^Multi-Edit · File 2, Edit 1 · MATCH_NOT_FOUND: old_string was not found in .*b\.ts\. No file was changed\.$/);
    assert.equal((await vscode.workspace.openTextDocument(first)).getText(), 'export const a = 1;\n');
  });

  test('VALIDATION_FAILED marks every problem on its own field, not only the first', async () => {
    const dir = scratchDir('invalid');
    const request = writeScratchFile(dir, 'invalid.multiedit.json', JSON.stringify({
      file_path: 3,
      edits: [{ old_string: 'a' }, { old_string: 'c', new_string: 'd', replaceAll: true }],
    }, null, 2));
    const response = await apply(vscode.Uri.file(request));
    assert.equal(response?.success === false && response.error_code, 'VALIDATION_FAILED');
    const markers = await markersOf(request, 3);
    const texts = await Promise.all(markers.map((marker) => markedText(request, marker)));
    // A missing field is marked on the first line of the object that lacks it.
    assert.deepEqual(texts, ['"file_path": 3', '{', '"replaceAll": true']);
    assert.deepEqual(markers.map((marker) => marker.message), [
      'file_path: expected string, got number',
      'edits[0].new_string: expected string, got nothing (the field is missing)',
      'edits[1].replaceAll: unknown field; did you mean replace_all?',
    ]);
    // Each problem shows once: the request-file schema only describes fields, so VS Code's JSON
    // support adds no warning of its own about them (it reports syntax errors, and there are none).
    await vscode.window.showTextDocument(vscode.Uri.file(request));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const others = vscode.languages.getDiagnostics(vscode.Uri.file(request)).filter((diagnostic) => diagnostic.source !== REQUEST_MARKER_SOURCE);
    assert.deepEqual(others.map((diagnostic) => `${diagnostic.source}: ${diagnostic.message}`), []);
  });

  test('"Open the failed request" opens the request file with the failing old_string selected', async () => {
    const dir = scratchDir('open');
    const target = writeScratchFile(dir, 'area.ts', 'export const area = 1;\n');
    const request = writeScratchFile(dir, 'open.multiedit.json', JSON.stringify({
      file_path: target, edits: [{ old_string: 'area = 2', new_string: 'area = 3' }],
    }, null, 2));
    await apply(vscode.Uri.file(request));
    await diagnosticsOf(target);
    await vscode.commands.executeCommand(COMMANDS.openFailedRequest);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, request);
    assert.equal(editor?.document.getText(editor.selection), '"old_string": "area = 2"');
  });

  test('the hover on a near miss shows old_string against the file line by line, whitespace visible', async () => {
    const dir = scratchDir('hover');
    const target = writeScratchFile(dir, 'log.ts', 'function log() {\n\tif (ready) {\n\t\treturn;\n\t}\n}\n');
    const request = writeScratchFile(dir, 'hover.multiedit.json', JSON.stringify({
      file_path: target, edits: [{ old_string: '    if (ready) {\n        return;', new_string: 'x' }],
    }));
    await apply(vscode.Uri.file(request));
    const [problem] = await diagnosticsOf(target);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', vscode.Uri.file(target), problem.range.start);
    const text = hovers.flatMap((hover) => hover.contents).map((content) => (typeof content === 'string' ? content : content.value)).join('\n');
    assert.match(text, /Edit 1: old_string \(−\) against the file \(\+\) from line 2/);
    assert.ok(text.includes('- ····if·(ready)·{'), text);
    assert.ok(text.includes('+ →if·(ready)·{'), text);
    assert.ok(text.includes('+ →→return;'), text);
    assert.ok(text.includes(`command:${COMMANDS.compareWithFile}`), 'links the diff editor');
  });
});

suite('patch files', () => {
  editorSuiteFixture();

  test('a .patch file of SEARCH/REPLACE blocks has the CodeLens, applies, and a failing block is marked on its line', async () => {
    const dir = scratchDir('patchfile');
    const relative = vscode.workspace.asRelativePath(dir, false);
    const target = writeScratchFile(dir, 'app.py', 'def main():\n    print("hi")\n');
    const good = writeScratchFile(dir, 'fix.patch', `${relative}/app.py\n<<<<<<< SEARCH\n    print("hi")\n=======\n    print("hello")\n>>>>>>> REPLACE\n`);
    const document = await vscode.workspace.openTextDocument(good);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri);
    assert.deepEqual(lenses.filter((lens) => lens.command?.command === COMMANDS.applyRequest).length, 1, 'Apply above the patch');
    const applied = await apply(vscode.Uri.file(good));
    assert.equal(applied?.success, true, JSON.stringify(applied));
    await waitFor('the block is applied', () => (vscode.workspace.textDocuments.find((document) => document.uri.fsPath === target)?.getText() ?? '').includes('hello'));

    const bad = writeScratchFile(dir, 'stale.patch', `intro text\n\n${relative}/app.py\n<<<<<<< SEARCH\n    print("bye")\n=======\n    print("x")\n>>>>>>> REPLACE\n`);
    const failed = await apply(vscode.Uri.file(bad));
    assert.equal(failed?.success === false && failed.error_code, 'MATCH_NOT_FOUND', JSON.stringify(failed));
    const [marker] = await markersOf(bad, 1);
    assert.equal(marker.range.start.line, 3, 'on the <<<<<<< SEARCH line of the failing block (patch line 4)');
  });
});
