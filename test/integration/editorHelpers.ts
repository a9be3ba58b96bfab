// Helpers for the editor tests (diagnostics, quick fixes, commands, preview): their suite hooks, the
// Multi-Edit diagnostics of a file, waiting for them, and the quick fixes VS Code offers on one of them.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS, DIAGNOSTIC_SOURCE } from '../../src/vscode/platform/ids';
import type { MultiEditApi } from '../../src/vscode/extension';
import { activateExtension, closeAllEditors, waitFor } from './helpers';

/**
 * The hooks of an editor suite: the extension active for the whole suite, and after each test no
 * Multi-Edit diagnostics and no open editors. Call it inside `suite`; read `api` once suiteSetup has run.
 */
export function editorSuiteFixture(): { readonly api: MultiEditApi } {
  const fixture = {} as { api: MultiEditApi };
  suiteSetup(async () => {
    fixture.api = await activateExtension();
  });
  teardown(async () => {
    await vscode.commands.executeCommand(COMMANDS.clearDiagnostics);
    await closeAllEditors();
  });
  return fixture;
}

export function multiEditDiagnostics(file: string): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(vscode.Uri.file(file)).filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE);
}

/** Waits until the file's Multi-Edit diagnostics satisfy `ready` (by default: there is at least one). */
export async function diagnosticsOf(
  file: string,
  ready: (diagnostics: vscode.Diagnostic[]) => boolean = (diagnostics) => diagnostics.length > 0,
): Promise<vscode.Diagnostic[]> {
  await waitFor(`Multi-Edit diagnostics on ${file}`, () => ready(multiEditDiagnostics(file)), 10_000);
  return multiEditDiagnostics(file);
}

export async function noDiagnosticsOn(file: string): Promise<void> {
  await diagnosticsOf(file, (diagnostics) => diagnostics.length === 0);
}

export function codeOf(diagnostic: vscode.Diagnostic): { value: string | number; target: vscode.Uri } {
  const code = diagnostic.code;
  assert.ok(typeof code === 'object' && code !== null, 'the code carries a target');
  return code;
}

/** The quick fixes VS Code collects for the diagnostic's range, from every provider. */
export async function quickFixesAt(file: string, diagnostic: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
    'vscode.executeCodeActionProvider',
    vscode.Uri.file(file),
    diagnostic.range,
    vscode.CodeActionKind.QuickFix.value,
  );
  // A plain Command has a string `command`; a CodeAction has a Command object (or none).
  return actions.filter((action): action is vscode.CodeAction => typeof action.command !== 'string');
}

/** Runs a code action's command exactly as the light bulb would. */
export async function runQuickFix<T>(action: vscode.CodeAction | undefined): Promise<T> {
  assert.ok(action?.command, 'the quick fix has a command');
  return vscode.commands.executeCommand<T>(action.command.command, ...(action.command.arguments ?? []));
}

export function fixTitled(actions: readonly vscode.CodeAction[], title: RegExp): vscode.CodeAction | undefined {
  return actions.find((action) => title.test(action.title));
}

// ---- fixtures ----

/** "  return total;" three times: an ambiguous old_string. */
export const THREE_TOTALS = [
  'function first() {',
  '  return total;',
  '}',
  'function second() {',
  '  return total;',
  '}',
  'function third() {',
  '  return total;',
  '}',
  '',
].join('\n');

/** A tab-indented function: a space-indented old_string misses it. */
export const AREA = [
  '// Geometry helpers',
  'export function area(width: number, height: number): number {',
  '\treturn width * height;',
  '}',
  '',
].join('\n');
