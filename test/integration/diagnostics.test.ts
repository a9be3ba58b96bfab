// Failed requests as diagnostics: where each kind of failure sits, what it says, and when it
// goes away. Requests come through vscode.lm.invokeTool (as a chat participant calls it) and
// through the multiEdit.applyRequest command; both publish to the same diagnostics.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/vscode/platform/ids';
import { TOOL_MULTI_EDIT } from '../../src/core/contract/toolNames';
import type { EngineResponse } from '../../src/core/contract/schemas';
import { AREA, codeOf, diagnosticsOf, editorSuiteFixture, multiEditDiagnostics, noDiagnosticsOn, THREE_TOTALS } from './editorHelpers';
import { expectError, expectSuccess, invokeTool, openInEditor, scratchDir, waitFor, withSettings, writeScratchFile } from './helpers';

suite('diagnostics: placement and wording', () => {
  editorSuiteFixture();

  test('AMBIGUOUS_MATCH: one Error on the first match, every match as "match i of N", code linked to its docs', async () => {
    const file = writeScratchFile(scratchDir('ambiguous'), 'totals.ts', THREE_TOTALS);
    expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: '  return total;', new_string: '  return sum;' }] }), 'AMBIGUOUS_MATCH');

    const [diagnostic, ...others] = await diagnosticsOf(file);
    assert.equal(others.length, 0, 'exactly one diagnostic for the ambiguous edit');
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.deepEqual([diagnostic.range.start.line, diagnostic.range.start.character, diagnostic.range.end.line, diagnostic.range.end.character], [1, 0, 1, 15]);
    const code = codeOf(diagnostic);
    assert.equal(code.value, 'AMBIGUOUS_MATCH');
    assert.match(code.target.toString(), /docs\/errors\.md#ambiguous_match$/);
    assert.match(diagnostic.message, /^Edit 1 · AMBIGUOUS_MATCH: old_string occurs 3 times/);
    assert.match(diagnostic.message, /\n• Add neighbouring lines to old_string, or use Ctrl\+\. to peek every match/, 'what a person can do follows');
    assert.doesNotMatch(diagnostic.message, /Set replace_all to true/, 'the agent\'s hints stay in the envelope');
    assert.doesNotMatch(diagnostic.message, /function second/, 'no snippet in the message');
    const related = diagnostic.relatedInformation ?? [];
    assert.deepEqual(related.map((info) => info.message), ['match 1 of 3', 'match 2 of 3', 'match 3 of 3']);
    assert.deepEqual(related.map((info) => info.location.range.start.line), [1, 4, 7]);
    assert.ok(related.every((info) => info.location.uri.fsPath === file));
  });

  test('MATCH_NOT_FOUND: on the closest partial match (a tab-indented line for a space-indented old_string)', async () => {
    const file = writeScratchFile(scratchDir('miss'), 'area.ts', AREA);
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, {
      file_path: file,
      edits: [{ old_string: '    return width * height;', new_string: '    return Math.abs(width * height);' }],
    }), 'MATCH_NOT_FOUND');

    const [diagnostic] = await diagnosticsOf(file);
    assert.equal(diagnostic.range.start.line, 2, `the line with "return width * height" (envelope: ${JSON.stringify(envelope.context)})`);
    assert.equal(codeOf(diagnostic).value, 'MATCH_NOT_FOUND');
    assert.match(diagnostic.message, /^Edit 1 · MATCH_NOT_FOUND: old_string was not found/);
    assert.match(diagnostic.message, /\nCause: INDENTATION/, 'the cause, for people');
    assert.match(diagnostic.message, /\n• Compare old_string with the file in a diff \(Ctrl\+\.\)/, 'what a person can do in the editor');
    assert.doesNotMatch(diagnostic.message, /context\.snippet/, 'no envelope field a person cannot see');
  });

  test('a failure after an edit that added lines above it sits on its line in the document, not in the text the earlier edit left', async () => {
    const file = writeScratchFile(scratchDir('shifted'), 'area.ts', AREA);
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, {
      file_path: file,
      edits: [
        { old_string: '// Geometry helpers\n', new_string: '// Geometry helpers\n// Areas\n// Perimeters\n// Volumes\n' },
        { old_string: '    return width * height;', new_string: '    return Math.abs(width * height);' },
      ],
    }), 'MATCH_NOT_FOUND');
    assert.equal(envelope.context?.closest_line, 6, 'the envelope counts lines in the text the first edit left');
    const [diagnostic] = await diagnosticsOf(file);
    assert.equal(diagnostic.range.start.line, 2, 'the document shows the file as read: the line with "return width * height"');
  });

  test('the second of two ambiguous edits sits on its own first match, with its own count', async () => {
    const file = writeScratchFile(scratchDir('ambiguous-two'), 'totals.ts', THREE_TOTALS);
    expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [
      { old_string: '  return total;', new_string: '  return sum;' },
      { old_string: '}', new_string: '};' },
    ] }), 'AMBIGUOUS_MATCH');
    const diagnostics = await diagnosticsOf(file, (found) => found.length === 2);
    const second = diagnostics.find((diagnostic) => diagnostic.message.startsWith('Edit 2'));
    assert.ok(second, diagnostics.map((diagnostic) => diagnostic.message).join('\n'));
    assert.deepEqual([second.range.start.line, second.range.start.character, second.range.end.character], [2, 0, 1]);
    assert.deepEqual((second.relatedInformation ?? []).map((info) => info.location.range.start.line), [2, 5, 8]);
  });

  test('ALREADY_APPLIED: says to remove the edit, not to fix old_string, since there is nothing to fix', async () => {
    const file = writeScratchFile(scratchDir('applied'), 'limit.ts', 'export const limit = 20;\n');
    expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'export const limit = 10;', new_string: 'export const limit = 20;' }] }), 'MATCH_NOT_FOUND');
    const [diagnostic] = await diagnosticsOf(file);
    assert.match(diagnostic.message, /\nCause: ALREADY_APPLIED/);
    assert.match(diagnostic.message, /\n• The file already holds this edit's new_string: check the file, and remove the edit from the request if it was applied earlier\.$/);
    assert.doesNotMatch(diagnostic.message, /fix old_string/);
  });

  test('MATCH_NOT_FOUND with nothing alike in the file sits on line 1', async () => {
    const file = writeScratchFile(scratchDir('nothing'), 'area.ts', AREA);
    expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'zzzz qqqq', new_string: 'x' }] }), 'MATCH_NOT_FOUND');
    const [diagnostic] = await diagnosticsOf(file);
    assert.equal(diagnostic.range.start.line, 0);
  });

  test('a skipped edit is an Information diagnostic on the failed edit it depends on', async () => {
    const file = writeScratchFile(scratchDir('skipped'), 'area.ts', AREA);
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, {
      file_path: file,
      edits: [
        { old_string: '  return width * height;', new_string: '  return scaled(width * height);' },
        { old_string: 'scaled(', new_string: 'scaledArea(' },
      ],
    }), 'MATCH_NOT_FOUND');
    assert.equal(envelope.edit_status.find((status) => status.edit_index === 1)?.status, 'skipped');

    const diagnostics = await diagnosticsOf(file, (found) => found.length === 2);
    const failed = diagnostics.find((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Error);
    const skipped = diagnostics.find((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Information);
    assert.ok(failed && skipped);
    assert.ok(skipped.range.isEqual(failed.range), 'the skipped edit sits on the edit it waits for');
    assert.match(skipped.message, /^Edit 2 · skipped: depends on edit/);
  });

  test('FILE_NOT_FOUND next to existing files goes on the closest-named one', async () => {
    const dir = scratchDir('missing');
    const sibling = writeScratchFile(dir, 'utils.ts', 'export const one = 1;\n');
    writeScratchFile(dir, 'main.ts', 'import { one } from "./utils";\n');
    expectError(await invokeTool(TOOL_MULTI_EDIT, {
      file_path: path.join(dir, 'utls.ts'),
      edits: [{ old_string: 'one', new_string: 'two' }],
    }), 'FILE_NOT_FOUND');
    const [diagnostic, ...others] = await diagnosticsOf(sibling);
    assert.equal(others.length, 0, 'the edits not checked do not add a diagnostic each');
    assert.equal(codeOf(diagnostic).value, 'FILE_NOT_FOUND');
    assert.match(diagnostic.message, /utls\.ts/);
  });

  test('a failed request file: FILE_NOT_FOUND sits on the file_path in the request', async () => {
    const dir = scratchDir('request-file');
    const request = writeScratchFile(dir, 'broken.multiedit.json', `${JSON.stringify({
      file_path: path.join(dir, 'nowhere', 'gone.ts'),
      edits: [{ old_string: 'a', new_string: 'b' }],
    }, null, 2)}\n`);
    const response = await vscode.commands.executeCommand<EngineResponse>(COMMANDS.applyRequest, vscode.Uri.file(request));
    assert.equal(response.success, false);
    const [diagnostic] = await diagnosticsOf(request);
    assert.equal(codeOf(diagnostic).value, 'FILE_NOT_FOUND');
    const document = await vscode.workspace.openTextDocument(request);
    assert.equal(document.getText(diagnostic.range), JSON.stringify(path.join(dir, 'nowhere', 'gone.ts')));
  });
});

suite('diagnostics: lifetime', () => {
  editorSuiteFixture();

  async function ambiguousFailure(label: string): Promise<string> {
    const file = writeScratchFile(scratchDir(label), 'totals.ts', THREE_TOTALS);
    expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: '  return total;', new_string: '  return sum;' }] }), 'AMBIGUOUS_MATCH');
    await diagnosticsOf(file);
    return file;
  }

  test('typing elsewhere moves the diagnostic with its text; typing on a failed range clears the file', async () => {
    const file = await ambiguousFailure('typing');
    const editor = await openInEditor(file);
    await editor.edit((builder) => builder.insert(new vscode.Position(0, 0), '// header\n// more\n'));
    const [moved] = await diagnosticsOf(file, ([first]) => first?.range.start.line === 3);
    assert.deepEqual(moved.relatedInformation?.map((info) => info.location.range.start.line), [3, 6, 9]);

    await editor.edit((builder) => builder.insert(new vscode.Position(6, 2), 'const x = 1; '));
    await noDiagnosticsOn(file);
  });

  test('a later successful request for the file clears its diagnostics', async () => {
    const file = await ambiguousFailure('success');
    expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'function first', new_string: 'function firstOne' }] }));
    await noDiagnosticsOn(file);
  });

  test('a later failure of the same file replaces its diagnostics', async () => {
    const file = await ambiguousFailure('replace');
    expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'function fourth', new_string: 'x' }] }), 'MATCH_NOT_FOUND');
    const diagnostics = await diagnosticsOf(file, (found) => found.length === 1 && codeOf(found[0]).value === 'MATCH_NOT_FOUND');
    assert.equal(diagnostics.length, 1);
  });

  test('multiEdit.clearDiagnostics clears every file', async () => {
    const first = await ambiguousFailure('clear-a');
    const second = await ambiguousFailure('clear-b');
    await vscode.commands.executeCommand(COMMANDS.clearDiagnostics);
    assert.equal(multiEditDiagnostics(first).length + multiEditDiagnostics(second).length, 0);
  });

  test('the history limit keeps only the newest failed requests', async () => {
    await withSettings({ 'diagnostics.historyLimit': 2 }, async () => {
      const files = [await ambiguousFailure('limit-a'), await ambiguousFailure('limit-b'), await ambiguousFailure('limit-c')];
      await waitFor('the oldest failure to drop', () => multiEditDiagnostics(files[0]).length === 0);
      assert.equal(multiEditDiagnostics(files[1]).length, 1);
      assert.equal(multiEditDiagnostics(files[2]).length, 1);
    });
  });

  test('a request that succeeds adds no diagnostics, and a failure leaves the file as it was', async () => {
    const file = writeScratchFile(scratchDir('untouched'), 'totals.ts', THREE_TOTALS);
    expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: '  return total;', new_string: '  return sum;' }] }), 'AMBIGUOUS_MATCH');
    await diagnosticsOf(file);
    assert.equal(fs.readFileSync(file, 'utf8'), THREE_TOTALS);
    const other = writeScratchFile(scratchDir('clean'), 'totals.ts', THREE_TOTALS);
    expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: other, edits: [{ old_string: 'function third', new_string: 'function last' }] }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(multiEditDiagnostics(other).length, 0);
  });
});
