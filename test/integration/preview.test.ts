// multiEdit.previewRequest: the changes go to VS Code's Refactor Preview, nothing changes until
// they are applied there, discarding is USER_DENIED, and applying only part is undone. The
// preview is driven with the workbench's own commands (refactorPreview.discard, refactorPreview.focus,
// list.focusFirst, refactorPreview.toggleCheckedState, refactorPreview.apply), as its buttons run them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/vscode/platform/ids';
import { TOOL_MULTI_EDIT } from '../../src/core/contract/toolNames';
import type { EngineResponse } from '../../src/core/contract/schemas';
import { previewEntries, previewFiles } from '../../src/vscode/preview/refactorPreview';
import { diagnosticsOf, editorSuiteFixture, multiEditDiagnostics, THREE_TOTALS } from './editorHelpers';
import { fileOperationsPatch, patchPath, readDisk, scratchDir, waitFor, writeScratchFile } from './helpers';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the preview command and tracks when it ends. */
function startPreview(request: object): { readonly done: () => boolean; readonly response: Thenable<EngineResponse | undefined> } {
  let finished = false;
  const response = vscode.commands.executeCommand<EngineResponse | undefined>(COMMANDS.previewRequest, request);
  response.then(() => { finished = true; }, () => { finished = true; });
  return { done: () => finished, response };
}

/** Repeats `step` (a no-op while no preview is open) until the preview command ends. */
async function driveUntilDone(preview: { done: () => boolean }, step: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!preview.done()) {
    assert.ok(Date.now() < deadline, 'the preview did not end');
    await step();
    await settle(250);
  }
}

async function run(command: string): Promise<void> {
  await vscode.commands.executeCommand(command);
}

/**
 * Unticks the preview's first entry once the preview is open and its tree has the focus
 * (otherwise the toggle acts on nothing, and Apply applies every change, which start ticked),
 * applies the rest, and checks that the request was denied as applied only in part.
 */
async function untickFirstAndApply(preview: ReturnType<typeof startPreview>): Promise<void> {
  await settle(1500);
  await run('refactorPreview.focus');
  await settle(300);
  await run('list.focusFirst');
  await run('refactorPreview.toggleCheckedState');
  await settle(300);
  await driveUntilDone(preview, () => run('refactorPreview.apply'));
  const response = await preview.response;
  assert.equal(response?.success === false && response.error_code, 'USER_DENIED', JSON.stringify(response));
  assert.match(response?.success === false ? response.message : '', /Only part of the preview was applied/);
}

suite('preview (Refactor Preview)', () => {
  const fixture = editorSuiteFixture();

  test('every change starts ticked (needs no confirmation) and is labelled with its edit', async () => {
    const file = writeScratchFile(scratchDir('labels'), 'totals.ts', THREE_TOTALS);
    const request = {
      file_path: file,
      edits: [
        { old_string: 'function first', new_string: 'function one' },
        { old_string: '  return total;', new_string: '  return sum;', replace_all: true },
      ],
    };
    const planned = await fixture.api.runner.plan(TOOL_MULTI_EDIT, request, { source: 'command' });
    assert.ok(planned.ok);
    const entries = previewEntries(await previewFiles(planned.plan));
    assert.deepEqual(entries.map((entry) => entry.metadata.label), [
      'Edit 1: “function first” → “function one”',
      'Edit 2: “return total;” → “return sum;”',
      'Edit 2: “return total;” → “return sum;”',
      'Edit 2: “return total;” → “return sum;”',
    ]);
    assert.ok(entries.every((entry) => !entry.metadata.needsConfirmation), 'VS Code ticks the entries that need no confirmation');
    assert.deepEqual(entries.map((entry) => entry.range.start.line), [0, 1, 4, 7]);
  });

  test('nothing changes while the preview is open; discarding it is USER_DENIED and leaves every file as it was', async () => {
    const file = writeScratchFile(scratchDir('discard'), 'totals.ts', THREE_TOTALS);
    const preview = startPreview({ file_path: file, edits: [{ old_string: 'function first', new_string: 'function one' }] });
    await settle(1000);
    assert.equal(preview.done(), false, 'the command waits for the preview');
    const document = await vscode.workspace.openTextDocument(file);
    assert.equal(document.getText(), THREE_TOTALS, 'the buffer is unchanged while the preview is open');
    await driveUntilDone(preview, () => run('refactorPreview.discard'));
    const response = await preview.response;
    assert.equal(response?.success, false);
    assert.equal(response.success === false && response.error_code, 'USER_DENIED');
    assert.equal(document.getText(), THREE_TOTALS);
    assert.equal(readDisk(file), THREE_TOTALS);
    assert.equal(multiEditDiagnostics(file).length, 0, 'a discarded preview is not a problem to review');
  });

  test('Apply, pressed at once, commits the whole request: every change opens ticked', async () => {
    const file = writeScratchFile(scratchDir('apply'), 'totals.ts', THREE_TOTALS);
    const preview = startPreview({ file_path: file, edits: [{ old_string: 'function first', new_string: 'function one' }] });
    await driveUntilDone(preview, () => run('refactorPreview.apply'));
    const response = await preview.response;
    assert.equal(response?.success, true, JSON.stringify(response));
    assert.equal(response.success && response.dry_run, false);
    await waitFor('the saved file', () => readDisk(file) === THREE_TOTALS.replace('function first', 'function one'));
  });

  test('a patch that updates, adds, deletes and moves files is shown whole; Apply commits it and one undo puts the tree back', async () => {
    const dir = scratchDir('patch-operations');
    const updated = writeScratchFile(dir, 'totals.ts', THREE_TOTALS);
    const { patch, added, deleted, moved, destination } = fileOperationsPatch(dir, 'totals.ts', ['@@', '-function first() {', '+function one() {']);
    const preview = startPreview({ patch });
    await settle(1000);
    assert.equal(preview.done(), false, 'the command waits for the preview');
    assert.ok(!fs.existsSync(added) && fs.existsSync(deleted) && fs.existsSync(moved), 'no file operation happens before Apply');
    await driveUntilDone(preview, () => run('refactorPreview.apply'));
    const response = await preview.response;
    assert.equal(response?.success, true, JSON.stringify(response));
    assert.deepEqual(response.success && response.files.map((file) => file.operation), ['update', 'add', 'delete', 'move']);
    await waitFor('the patched tree', () => readDisk(updated) === THREE_TOTALS.replace('function first() {', 'function one() {'));
    assert.equal(readDisk(added), 'export const added = true;\n');
    assert.equal(readDisk(destination), 'export const part = 2;\n');
    assert.equal(fs.existsSync(deleted), false);
    assert.equal(fs.existsSync(moved), false);

    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(updated));
    await run('undo');
    await waitFor('one undo restores every file', () => fs.existsSync(deleted) && fs.existsSync(moved) && !fs.existsSync(added) && !fs.existsSync(destination), 10_000);
    assert.equal(readDisk(moved), 'export const part = 1;\n');
  });

  test('a patch whose file to add was created meanwhile opens no preview and is FILE_EXISTS, like Apply', async () => {
    const dir = scratchDir('patch-exists');
    const relative = patchPath(dir);
    const updated = writeScratchFile(dir, 'a.txt', 'a\n');
    const taken = writeScratchFile(dir, 'b.txt', 'already here\n');
    const patch = ['*** Begin Patch', `*** Update File: ${relative}/a.txt`, '@@', '-a', '+A', `*** Add File: ${relative}/b.txt`, '+b', '*** End Patch', ''].join('\n');
    const response = await vscode.commands.executeCommand<EngineResponse | undefined>(COMMANDS.previewRequest, { patch });
    assert.equal(response?.success, false, JSON.stringify(response));
    assert.equal(response.success === false && response.error_code, 'FILE_EXISTS');
    assert.equal(readDisk(updated), 'a\n');
    assert.equal(readDisk(taken), 'already here\n');
  });

  test('unticking one file of a multi-file preview and applying the rest is undone: all or nothing', async () => {
    const dir = scratchDir('partial');
    const first = writeScratchFile(dir, 'a.ts', 'export const a = 1;\n');
    const second = writeScratchFile(dir, 'b.ts', 'export const b = 2;\n');
    const preview = startPreview({
      files: [
        { file_path: first, edits: [{ old_string: 'a = 1', new_string: 'a = 10' }] },
        { file_path: second, edits: [{ old_string: 'b = 2', new_string: 'b = 20' }] },
      ],
    });
    await untickFirstAndApply(preview);
    for (const [file, text] of [[first, 'export const a = 1;\n'], [second, 'export const b = 2;\n']]) {
      assert.equal((await vscode.workspace.openTextDocument(file)).getText(), text);
    }
  });

  test('a patch with file operations applied only in part is undone: text, added and deleted files are as they were', async () => {
    const dir = scratchDir('patch-partial');
    const relative = patchPath(dir);
    const updated = writeScratchFile(dir, 'a.txt', 'a\n');
    const deleted = writeScratchFile(dir, 'c.txt', 'keep me\n');
    const added = path.join(dir, 'b.txt');
    const patch = ['*** Begin Patch', `*** Update File: ${relative}/a.txt`, '@@', '-a', '+A', `*** Add File: ${relative}/b.txt`, '+b', `*** Delete File: ${relative}/c.txt`, '*** End Patch', ''].join('\n');
    await untickFirstAndApply(startPreview({ patch }));
    await waitFor('the tree as it was', () => fs.existsSync(deleted) && !fs.existsSync(added));
    assert.equal(readDisk(deleted), 'keep me\n');
    assert.equal((await vscode.workspace.openTextDocument(updated)).getText(), 'a\n');
  });

  test('a request that cannot be planned opens no preview and shows its diagnostics', async () => {
    const file = writeScratchFile(scratchDir('unplanned'), 'totals.ts', THREE_TOTALS);
    const response = await vscode.commands.executeCommand<EngineResponse>(COMMANDS.previewRequest, {
      file_path: file, edits: [{ old_string: '  return total;', new_string: '  return sum;' }],
    });
    assert.equal(response.success === false && response.error_code, 'AMBIGUOUS_MATCH');
    await diagnosticsOf(file);
  });
});
