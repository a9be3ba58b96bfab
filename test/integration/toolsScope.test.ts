// Where the tools may write, and who decides: workspace scope, protected globs, relative
// paths, the confirmation prepareInvocation asks for, and cancellation.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_MULTI_EDIT_PATCH, type ToolName } from '../../src/core/contract/toolNames';
import type { ErrorEnvelope } from '../../src/core/contract/schemas';
import type { RequestRecord as RequestOutcome } from '../../src/vscode/run/requestRecord';
import { MultiEditFilesTool } from '../../src/vscode/tools/multiEditFilesTool';
import { MultiEditTool } from '../../src/vscode/tools/multiEditTool';
import {
  closeAllEditors, expectError, expectSuccess, invokeTool, patchPath, readDisk, scratchDir, toolSuiteFixture, waitFor, withSettings, workspaceRoot,
  writeScratchFile,
} from './helpers';

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

function markdownText(message: string | vscode.MarkdownString | undefined): string {
  return typeof message === 'string' ? message : message?.value ?? '';
}

suite('language-model tools: scope and confirmation', () => {
  const fixture = toolSuiteFixture('scope');
  let outside: string;

  setup(() => {
    outside = scratchDir('outside', 'outside');
  });
  teardown(async () => {
    fs.rmSync(outside, { recursive: true, force: true });
    await closeAllEditors();
  });

  test('prepareInvocation names the file and the edit count, and asks before editing outside the workspace', async () => {
    const tool = new MultiEditTool(fixture.api);
    const inside = path.join(fixture.dir, 'inside.ts');
    const insidePrep = await tool.prepareInvocation({ input: { file_path: inside, edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd' }] } });
    assert.equal(insidePrep.invocationMessage, `Applying 2 edits to ${vscode.workspace.asRelativePath(inside)}`);
    assert.equal(insidePrep.confirmationMessages, undefined, 'no confirmation inside the workspace');

    const target = path.join(outside, 'notes.md');
    const outsidePrep = await tool.prepareInvocation({ input: { file_path: target, edits: [{ old_string: 'a', new_string: 'b' }] } });
    assert.ok(outsidePrep.confirmationMessages, 'a target outside the workspace needs confirmation');
    assert.match(outsidePrep.confirmationMessages.title, /outside the workspace/);
    const body = markdownText(outsidePrep.confirmationMessages.message);
    assert.ok(body.includes('notes.md') && body.includes('1 edit'), body);
  });

  test('prepareInvocation for several files lists them, and the "always" policy asks even inside', async () => {
    const tool = new MultiEditFilesTool(fixture.api);
    const input = {
      files: [
        { file_path: path.join(fixture.dir, 'a.ts'), edits: [{ old_string: 'x', new_string: 'y' }] },
        { file_path: path.join(fixture.dir, 'b.ts'), edits: [{ old_string: 'x', new_string: 'y' }, { old_string: 'p', new_string: 'q' }] },
      ],
      dry_run: true,
    };
    const prepared = await tool.prepareInvocation({ input });
    assert.match(String(prepared.invocationMessage), /^Checking 3 edits to 2 files: .*a\.ts, .*b\.ts \(dry run\)$/);
    assert.equal(prepared.confirmationMessages, undefined);
    await withSettings({ confirmation: 'always' }, async () => {
      const asked = await tool.prepareInvocation({ input });
      assert.match(asked.confirmationMessages?.title ?? '', /Apply 3 edits/);
    });
  });

  test('OUTSIDE_WORKSPACE when confirmation is off and outside edits are not allowed', async () => {
    const target = writeScratchFile(outside, 'outside.txt', 'old\n');
    await withSettings({ confirmation: 'never' }, async () => {
      const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: target, edits: [{ old_string: 'old', new_string: 'new' }] }), 'OUTSIDE_WORKSPACE');
      assert.equal(envelope.category, 'scope');
      assert.equal(envelope.next_action.action, 'ask_user');
      assert.ok(envelope.recovery_hints.some((hint) => hint.includes(workspaceRoot())), 'a hint names the workspace folder');
    });
    assert.equal(readDisk(target), 'old\n');
  });

  test('multiEdit.allowOutsideWorkspace lets the edit through without asking', async () => {
    const target = writeScratchFile(outside, 'allowed.txt', 'old\n');
    await withSettings({ allowOutsideWorkspace: true }, async () => {
      const prepared = await new MultiEditTool(fixture.api).prepareInvocation({ input: { file_path: target, edits: [{ old_string: 'old', new_string: 'new' }] } });
      assert.equal(prepared.confirmationMessages, undefined);
      expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: target, edits: [{ old_string: 'old', new_string: 'new' }] }));
    });
    assert.equal(readDisk(target), 'new\n');
  });

  test('a tool call reads its request once: prepareInvocation\'s reading goes on to invoke', async () => {
    const hooks = fixture.api.readHooks;
    assert.ok(hooks, 'the reading hook exists under the test harness');
    const reads: ToolName[] = [];
    hooks.afterRead = (tool) => reads.push(tool);
    try {
      const a = writeScratchFile(fixture.dir, 'once-a.ts', 'export const a = 1;\n');
      const b = writeScratchFile(fixture.dir, 'once-b.ts', 'export const b = 1;\n');
      const calls: ReadonlyArray<readonly [ToolName, object]> = [
        [TOOL_MULTI_EDIT, { file_path: a, edits: [{ old_string: 'a = 1', new_string: 'a = 2' }] }],
        [TOOL_MULTI_EDIT_FILES, { files: [{ file_path: a, edits: [{ old_string: 'a = 2', new_string: 'a = 3' }] }, { file_path: b, edits: [{ old_string: 'b = 1', new_string: 'b = 2' }] }] }],
        [TOOL_MULTI_EDIT_PATCH, { patch: `*** Begin Patch\n*** Update File: ${patchPath(fixture.dir)}/once-b.ts\n@@\n-export const b = 2;\n+export const b = 3;\n*** End Patch\n` }],
        [TOOL_MULTI_EDIT, { file_path: a, edits: [{ old_string: 'not there', new_string: 'x' }] }],
        [TOOL_MULTI_EDIT, { file_path: a, edits: [{ old_string: 'no new_string' }] }],
      ];
      for (const [tool, input] of calls) {
        reads.length = 0;
        await invokeTool(tool, input);
        assert.deepEqual(reads, [tool], `${tool} ${JSON.stringify(input)}: read ${reads.length} times`);
      }
      assert.equal(readDisk(a), 'export const a = 3;\n');
      assert.equal(readDisk(b), 'export const b = 3;\n');
    } finally {
      hooks.afterRead = undefined;
    }
  });

  test('the confirmation asked is carried to invoke: only a question that named outside targets allows them', async () => {
    const target = writeScratchFile(outside, 'confirmed.txt', 'old\n');
    const input = { file_path: target, edits: [{ old_string: 'old', new_string: 'new' }] };
    const invocation = { input, toolInvocationToken: undefined };
    const token = new vscode.CancellationTokenSource().token;
    const tool = new MultiEditTool(fixture.api);
    const unasked = await tool.invoke(invocation, token);
    assert.match(textOf(unasked), /OUTSIDE_WORKSPACE/, 'without a prepared question, nothing outside is confirmed');
    const prepared = await tool.prepareInvocation({ input });
    assert.match(prepared.confirmationMessages?.title ?? '', /outside the workspace/);
    const confirmed = await tool.invoke(invocation, token);
    assert.doesNotMatch(textOf(confirmed), /OUTSIDE_WORKSPACE/, textOf(confirmed));
    assert.equal(readDisk(target), 'new\n');
  });

  test('FORBIDDEN_PATH for .git/config, which stays unchanged', async () => {
    const config = writeScratchFile(fixture.dir, path.join('.git', 'config'), '[core]\n\tbare = false\n');
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: config, edits: [{ old_string: 'false', new_string: 'true' }] }), 'FORBIDDEN_PATH');
    assert.match(envelope.message + envelope.recovery_hints.join(' '), /\.git/);
    assert.equal(readDisk(config), '[core]\n\tbare = false\n');
  });

  test('a relative path resolves against the only workspace folder, with a warning', async () => {
    const file = writeScratchFile(fixture.dir, 'relative.txt', 'before\n');
    const relative = path.relative(workspaceRoot(), file);
    const response = expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: relative, edits: [{ old_string: 'before', new_string: 'after' }] }));
    assert.equal(response.files[0].file_path, file);
    assert.ok(response.warnings?.some((warning) => warning.code === 'RELATIVE_PATH_RESOLVED'), JSON.stringify(response.warnings));
    assert.equal(readDisk(file), 'after\n');
  });

  test('PATH_TRAVERSAL for a ".." segment, even one that stays inside the workspace', async () => {
    const file = writeScratchFile(fixture.dir, 'kept.txt', 'same\n');
    const sneaky = `${fixture.dir}${path.sep}sub${path.sep}..${path.sep}kept.txt`;
    expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: sneaky, edits: [{ old_string: 'same', new_string: 'other' }] }), 'PATH_TRAVERSAL');
    assert.equal(readDisk(file), 'same\n');
  });

  test('cancelling the token during the call stops the commit: nothing is written, the outcome is CANCELLED', async () => {
    const file = writeScratchFile(fixture.dir, 'cancel.txt', 'untouched\n');
    const source = new vscode.CancellationTokenSource();
    fixture.api.storeHooks.beforeCommit = async (_writes, cancellation) => {
      source.cancel();
      await waitFor('the cancellation to reach the tool', () => cancellation?.isCancellationRequested === true);
    };
    const outcome = new Promise<RequestOutcome>((resolve) => {
      const listener = fixture.api.bus.onDidFinish((finished) => {
        if (finished.request?.files[0].path === file) {
          listener.dispose();
          resolve(finished);
        }
      });
    });
    try {
      // VS Code drops the result of a call whose token was cancelled and rejects instead.
      await assert.rejects(
        invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'untouched', new_string: 'changed' }] }, source.token),
        (error: Error) => error instanceof vscode.CancellationError || error.name === 'Canceled',
      );
      const finished = await outcome;
      assert.equal(finished.source, 'tool');
      assert.equal((finished.response as ErrorEnvelope).error_code, 'CANCELLED');
      assert.equal((finished.response as ErrorEnvelope).next_action.action, 'stop');
    } finally {
      delete fixture.api.storeHooks.beforeCommit;
    }
    assert.equal(readDisk(file), 'untouched\n');
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.fsPath === file);
    assert.ok(!document?.isDirty);
  });

  test('the runner returns CANCELLED for a token cancelled before the request starts', async () => {
    const file = writeScratchFile(fixture.dir, 'early.txt', 'untouched\n');
    const source = new vscode.CancellationTokenSource();
    source.cancel();
    const { response } = await fixture.api.runner.run(TOOL_MULTI_EDIT_FILES, { files: [{ file_path: file, edits: [{ old_string: 'untouched', new_string: 'x' }] }] }, { source: 'command', token: source.token });
    assert.equal(response.success, false);
    assert.equal((response as ErrorEnvelope).error_code, 'CANCELLED');
    assert.equal(readDisk(file), 'untouched\n');
  });
});
