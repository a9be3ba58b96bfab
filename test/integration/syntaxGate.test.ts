// The syntax gate in the real extension host: the language-model tools honour
// multiEdit.syntaxCheck, and a refused edit is a problem on the edit's lines with a
// hover of the would-be lines and an "Apply anyway" quick fix.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT } from '../../src/core/contract/toolNames';
import type { EngineResponse } from '../../src/core/contract/schemas';
import { diagnosticsOf, editorSuiteFixture, fixTitled, noDiagnosticsOn, quickFixesAt, runQuickFix } from './editorHelpers';
import { expectError, expectSuccess, invokeTool, readDisk, scratchDir, withSettings, writeScratchFile } from './helpers';

const SOURCE = [
  'export function area(width: number, height: number): number {',
  '  return Math.abs(width * height);',
  '}',
  '',
  'export function perimeter(width: number, height: number): number {',
  '  return 2 * (width + height);',
  '}',
  '',
].join('\n');
const DROPPED_PAREN = { old_string: '  return Math.abs(width * height);', new_string: '  return Math.abs(width * height;' };

suite('syntax gate', () => {
  editorSuiteFixture();

  test('the tools refuse an edit that breaks the parse, warn under "warn", and say nothing under "off"', async () => {
    const file = writeScratchFile(scratchDir('syntax-setting'), 'shapes.ts', SOURCE);
    const refused = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [DROPPED_PAREN] }), 'SYNTAX_REGRESSION');
    assert.deepEqual(refused.context?.syntax_errors?.[0]?.line, 2);
    assert.equal(readDisk(file), SOURCE);
    await withSettings({ syntaxCheck: 'warn' }, async () => {
      const warned = expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [DROPPED_PAREN] }));
      assert.deepEqual(warned.warnings?.map((warning) => [warning.code, warning.line]), [['SYNTAX_REGRESSION', 2]]);
    });
    await withSettings({ syntaxCheck: 'off' }, async () => {
      const silent = expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'return 2 * (width + height);', new_string: 'return 2 * (width + height;' }] }));
      assert.equal(silent.warnings, undefined);
    });
  });

  test('the problem sits on the edit\'s lines, its hover shows the would-be lines, and "Apply anyway" writes them', async () => {
    const file = writeScratchFile(scratchDir('syntax-problem'), 'shapes.ts', SOURCE);
    expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [DROPPED_PAREN] }), 'SYNTAX_REGRESSION');
    const [diagnostic] = await diagnosticsOf(file);
    assert.equal(diagnostic.range.start.line, 1, 'on the line the edit replaces');
    assert.match(diagnostic.message, /SYNTAX_REGRESSION|syntax/i);

    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', vscode.Uri.file(file), diagnostic.range.start);
    const hoverText = hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value))).join('\n');
    assert.match(hoverText, />\s+2\s+ {2}return Math\.abs\(width \* height;/, hoverText);

    const fixes = (await quickFixesAt(file, diagnostic)).filter((action) => action.command?.command.startsWith('multiEdit.'));
    const applyAnyway = fixTitled(fixes, /^Apply anyway$/);
    assert.ok(applyAnyway, fixes.map((fix) => fix.title).join(', '));
    const response = await withSettings({ 'diagnostics.confirmApplyAnyway': false }, () => runQuickFix<EngineResponse>(applyAnyway));
    assert.ok(response.success, JSON.stringify(response));
    assert.deepEqual(response.warnings?.map((warning) => warning.code), ['SYNTAX_REGRESSION']);
    assert.match(readDisk(file), /Math\.abs\(width \* height;/);
    await noDiagnosticsOn(file);
  });
});
