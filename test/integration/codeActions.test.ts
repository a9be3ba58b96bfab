// Quick fixes on Multi-Edit diagnostics: which ones VS Code offers (through the same
// vscode.executeCodeActionProvider the light bulb uses), and that each does what it says.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT } from '../../src/core/contract/toolNames';
import type { EngineResponse, ErrorEnvelope } from '../../src/core/contract/schemas';
import {
  AREA, diagnosticsOf, editorSuiteFixture, fixTitled, multiEditDiagnostics, noDiagnosticsOn, quickFixesAt, runQuickFix, THREE_TOTALS,
} from './editorHelpers';
import { expectError, invokeTool, readDisk, scratchDir, withSettings, writeScratchFile } from './helpers';

const AMBIGUOUS_EDIT = { old_string: '  return total;', new_string: '  return sum;' };
const MISSED_EDIT = { old_string: '    return width * height;', new_string: '    return Math.abs(width * height);' };

interface Failed {
  readonly file: string;
  readonly diagnostic: vscode.Diagnostic;
  readonly fixes: vscode.CodeAction[];
  readonly envelope: ErrorEnvelope;
}

/** A failed tool call, its one Multi-Edit diagnostic and the Multi-Edit quick fixes on it. */
async function failWith(label: string, content: string, edit: object, code: ErrorEnvelope['error_code']): Promise<Failed> {
  const file = writeScratchFile(scratchDir(label), 'subject.ts', content);
  const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [edit] }), code);
  const [diagnostic] = await diagnosticsOf(file);
  const fixes = (await quickFixesAt(file, diagnostic)).filter((action) => action.command?.command.startsWith('multiEdit.'));
  return { file, diagnostic, fixes, envelope };
}

suite('quick fixes', () => {
  editorSuiteFixture();

  test('AMBIGUOUS_MATCH offers peek (preferred), the replace_all retry and the request fixes, all of kind quickfix', async () => {
    const { file, diagnostic, fixes } = await failWith('offers-ambiguous', THREE_TOTALS, AMBIGUOUS_EDIT, 'AMBIGUOUS_MATCH');
    assert.deepEqual(fixes.map((fix) => fix.title), [
      'Peek all 3 match locations',
      'Retry edit 1 with replace_all',
      'Open the failed request',
      'Show envelope',
      'Copy envelope',
      'Copy hints',
      'Dismiss',
    ]);
    assert.deepEqual(fixes.filter((fix) => fix.isPreferred).map((fix) => fix.title), ['Peek all 3 match locations']);
    for (const fix of fixes) {
      assert.equal(fix.kind?.value, vscode.CodeActionKind.QuickFix.value, fix.title);
    }
    const atCursor = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider', vscode.Uri.file(file), new vscode.Range(diagnostic.range.start, diagnostic.range.start),
      vscode.CodeActionKind.QuickFix.value,
    );
    assert.equal(atCursor.filter((action) => action.command?.command.startsWith('multiEdit.')).length, fixes.length, 'the same fixes with the cursor at its start');
  });

  test('MATCH_NOT_FOUND offers a re-run and no replace_all retry', async () => {
    const { fixes } = await failWith('offers-miss', AREA, MISSED_EDIT, 'MATCH_NOT_FOUND');
    const titles = fixes.map((fix) => fix.title);
    assert.ok(titles.includes('Re-run the request'));
    assert.ok(!titles.some((title) => /replace_all|Peek/.test(title)), titles.join(', '));
  });

  test('no quick fixes on text without a Multi-Edit diagnostic', async () => {
    const { file } = await failWith('elsewhere', THREE_TOTALS, AMBIGUOUS_EDIT, 'AMBIGUOUS_MATCH');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider', vscode.Uri.file(file), new vscode.Range(2, 0, 2, 1), vscode.CodeActionKind.QuickFix.value,
    );
    assert.deepEqual(actions.filter((action) => action.command?.command.startsWith('multiEdit.')), []);
  });

  test('"Retry edit 1 with replace_all" replaces every occurrence and the diagnostic goes (confirmation off by setting)', async () => {
    await withSettings({ 'diagnostics.confirmReplaceAll': false }, async () => {
      const { file, fixes } = await failWith('retry', THREE_TOTALS, AMBIGUOUS_EDIT, 'AMBIGUOUS_MATCH');
      const response = await runQuickFix<EngineResponse>(fixTitled(fixes, /replace_all/));
      assert.equal(response.success, true, JSON.stringify(response));
      assert.equal(readDisk(file), THREE_TOTALS.replaceAll('return total;', 'return sum;'));
      await noDiagnosticsOn(file);
    });
  });

  test('"Dismiss" removes the diagnostic', async () => {
    const { file, fixes } = await failWith('dismiss', THREE_TOTALS, AMBIGUOUS_EDIT, 'AMBIGUOUS_MATCH');
    await runQuickFix(fixTitled(fixes, /^Dismiss$/));
    assert.equal(multiEditDiagnostics(file).length, 0);
  });

  test('"Show envelope" opens the envelope as JSON from the read-only multi-edit: scheme', async () => {
    const { fixes, envelope } = await failWith('envelope', THREE_TOTALS, AMBIGUOUS_EDIT, 'AMBIGUOUS_MATCH');
    const uri = await runQuickFix<vscode.Uri>(fixTitled(fixes, /^Show envelope$/));
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.toString(), uri.toString());
    assert.equal(editor.document.languageId, 'json');
    assert.equal(uri.scheme, 'multi-edit', 'a content provider\'s document: the editor shows it read-only');
    assert.deepEqual(JSON.parse(editor.document.getText()), envelope);
  });

  test('"Open the failed request" shows the request with the failing edit marked and selected', async () => {
    const { fixes } = await failWith('request', THREE_TOTALS, AMBIGUOUS_EDIT, 'AMBIGUOUS_MATCH');
    await runQuickFix(fixTitled(fixes, /^Open the failed request$/));
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    const text = editor.document.getText();
    assert.match(text, /\/\/ ✗ Edit 1 · AMBIGUOUS_MATCH: old_string occurs 3 times/);
    assert.deepEqual(JSON.parse(editor.document.getText(editor.selection)), AMBIGUOUS_EDIT);
  });

  test('"Copy envelope" and "Copy hints" put them on the clipboard', async () => {
    const { fixes, envelope } = await failWith('copy', THREE_TOTALS, AMBIGUOUS_EDIT, 'AMBIGUOUS_MATCH');
    await runQuickFix(fixTitled(fixes, /^Copy envelope$/));
    assert.deepEqual(JSON.parse(await vscode.env.clipboard.readText()), envelope);
    await runQuickFix(fixTitled(fixes, /^Copy hints$/));
    assert.equal(await vscode.env.clipboard.readText(), envelope.recovery_hints.join('\n'));
  });

  test('"Peek all 3 match locations" opens the file at the first match and peeks all three', async () => {
    const { file, fixes } = await failWith('peek', THREE_TOTALS, AMBIGUOUS_EDIT, 'AMBIGUOUS_MATCH');
    const shown = await runQuickFix<number>(fixTitled(fixes, /^Peek all/));
    assert.equal(shown, 3);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, file);
    assert.equal(editor.selection.start.line, 1);
  });

  test('after the file is fixed, "Re-run the request" succeeds and the diagnostics stay clear', async () => {
    const { file, fixes } = await failWith('rerun', AREA, MISSED_EDIT, 'MATCH_NOT_FOUND');
    const rerun = fixTitled(fixes, /^Re-run the request$/);
    const document = await vscode.workspace.openTextDocument(file);
    const fix = new vscode.WorkspaceEdit();
    fix.replace(document.uri, new vscode.Range(2, 0, 2, 1), '    ');
    assert.ok(await vscode.workspace.applyEdit(fix));
    await noDiagnosticsOn(file);
    const response = await runQuickFix<EngineResponse>(rerun);
    assert.equal(response.success, true, JSON.stringify(response));
    assert.match(document.getText(), /return Math\.abs\(width \* height\);/);
    assert.equal(multiEditDiagnostics(file).length, 0);
  });
});
