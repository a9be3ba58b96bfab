// @multiedit answering real chat turns in the chat view, with the scripted model as the language
// model (see chatHelpers.ts): the commands, the model-and-tool loop with a recovery from an
// envelope, the round limit, cancellation, confirmation, and results the model cannot read.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_MULTI_EDIT_PATCH } from '../../src/core/contract/toolNames';
import { CHAT_PARTICIPANT_NAME } from '../../src/vscode/platform/ids';
import type { TurnMetadata } from '../../src/vscode/chat/turnMetadata';
import { scriptedModel, sendChat, toolResultsSeen, useScript } from './chatHelpers';
import { codeOf, diagnosticsOf, editorSuiteFixture } from './editorHelpers';
import { readDisk, scratchDir, waitFor, withSettings, writeScratchFile } from './helpers';

const TAB_INDENTED = ['function total(items) {', '\tlet sum = 0;', '\tfor (const item of items) sum += item;', '\treturn sum;', '}', ''].join('\n');

function metadataOf(result: vscode.ChatResult): TurnMetadata {
  const metadata = result.metadata as TurnMetadata | undefined;
  assert.ok(metadata, 'the participant returns metadata');
  return metadata;
}

suite('chat end to end: @multiedit with a scripted model', () => {
  const fixture = editorSuiteFixture();

  test('/apply applies the request in the prompt; the turn\'s metadata says so; no model is asked', async function () {
    const model = await scriptedModel(this);
    const file = writeScratchFile(scratchDir('chat-apply'), 'total.js', TAB_INDENTED);
    const request = { file_path: file, edits: [{ old_string: 'let sum = 0;', new_string: 'let sum = 10;' }] };
    const result = await sendChat(`@${CHAT_PARTICIPANT_NAME} /apply ${JSON.stringify(request)}`);
    const metadata = metadataOf(result);
    assert.equal(metadata.kind, 'request');
    assert.equal(metadata.kind === 'request' && metadata.success, true);
    assert.match(readDisk(file), /\tlet sum = 10;/);
    assert.equal(model.requests.length, 0);
  });

  test('/preview writes nothing; a failing /apply leaves its code on the failing line in the Problems panel', async function () {
    await scriptedModel(this);
    const file = writeScratchFile(scratchDir('chat-preview'), 'total.js', TAB_INDENTED);
    const preview = await sendChat(`@${CHAT_PARTICIPANT_NAME} /preview ${JSON.stringify({ file_path: file, edits: [{ old_string: 'return sum;', new_string: 'return sum * 2;' }] })}`);
    const previewed = metadataOf(preview);
    assert.ok(previewed.kind === 'request' && previewed.success && previewed.dryRun);
    assert.equal(readDisk(file), TAB_INDENTED);

    const failing = await sendChat(`@${CHAT_PARTICIPANT_NAME} /apply ${JSON.stringify({ file_path: file, edits: [{ old_string: '  return sum;', new_string: '  return sum * 2;' }] })}`);
    const failed = metadataOf(failing);
    assert.ok(failed.kind === 'request' && !failed.success);
    assert.equal(failed.kind === 'request' && failed.nextAction, 'fix_and_resubmit');
    const [diagnostic] = await diagnosticsOf(file);
    assert.equal(codeOf(diagnostic).value, 'MATCH_NOT_FOUND');
    assert.equal(diagnostic.range.start.line, 3, 'on the line that differs');
    assert.equal(readDisk(file), TAB_INDENTED);
  });

  test('a free-text turn: the model calls multi_edit, gets the envelope, and fixes its call from context.snippet', async function () {
    const model = await scriptedModel(this);
    const file = writeScratchFile(scratchDir('chat-recover'), 'total.js', TAB_INDENTED);
    useScript([{
      prompt: 'double the total',
      rounds: [
        { text: 'I will change the return.', toolCalls: [{ name: TOOL_MULTI_EDIT, input: { file_path: file, edits: [{ old_string: '    return sum;', new_string: '    return sum * 2;' }] } }] },
        { text: 'The file is indented with tabs; copying the line from the snippet.', toolCalls: [{ name: TOOL_MULTI_EDIT, fixFromLastResult: true }] },
        { text: 'Done: the total is doubled.' },
      ],
    }]);
    const result = await sendChat(`@${CHAT_PARTICIPANT_NAME} double the total in total.js`);
    const metadata = metadataOf(result);
    assert.ok(metadata.kind === 'conversation');
    assert.deepEqual(metadata.calls.map((call) => [call.round, call.tool, call.success, call.errorCode]), [
      [1, TOOL_MULTI_EDIT, false, 'MATCH_NOT_FOUND'],
      [2, TOOL_MULTI_EDIT, true, undefined],
    ], 'the round history is in ChatResult.metadata');
    assert.match(readDisk(file), /\treturn sum \* 2;/);
    assert.equal(model.requests.length, 3);
    const [, second, third] = model.requests;
    assert.deepEqual([...second.toolNames].sort(), ['multi_edit', 'multi_edit_files', 'multi_edit_patch']);
    const [envelopeText] = toolResultsSeen(second);
    assert.match(envelopeText, /"error_code":"MATCH_NOT_FOUND"/);
    assert.match(envelopeText, /"kind":"INDENTATION"/);
    assert.match(envelopeText, /"snippet":"[^"]*\\treturn sum;/);
    assert.match(toolResultsSeen(third)[1], /"success":true/);
  });

  test('two calls of one tool in one round, the first failing: each call gets its own request record and result', async function () {
    const model = await scriptedModel(this);
    const failing = writeScratchFile(scratchDir('chat-two-calls'), 'failing.js', TAB_INDENTED);
    const passing = writeScratchFile(scratchDir('chat-two-calls'), 'passing.js', TAB_INDENTED);
    useScript([{ prompt: 'two files at once', rounds: [
      { toolCalls: [
        { name: TOOL_MULTI_EDIT, input: { file_path: failing, edits: [{ old_string: 'let total = 0;', new_string: 'let total = 1;' }] } },
        { name: TOOL_MULTI_EDIT, input: { file_path: passing, edits: [{ old_string: '\tlet sum = 0;', new_string: '\tlet sum = 1;' }] } },
      ] },
      { text: 'One file changed.' },
    ] }]);
    const metadata = metadataOf(await sendChat(`@${CHAT_PARTICIPANT_NAME} two files at once`));
    assert.ok(metadata.kind === 'conversation');
    assert.deepEqual(metadata.calls.map((call) => [call.round, call.tool, call.success, call.errorCode]), [
      [1, TOOL_MULTI_EDIT, false, 'MATCH_NOT_FOUND'],
      [1, TOOL_MULTI_EDIT, true, undefined],
    ]);
    const [failed, applied] = metadata.calls.map((call) => {
      assert.ok(call.recordId !== undefined, 'the call names its request record');
      const record = fixture.api.runner.recordById(call.recordId);
      assert.ok(record, `record #${call.recordId} is known`);
      return record;
    });
    assert.deepEqual([failed.request?.files[0].filePath, failed.response.success], [failing, false]);
    assert.deepEqual([applied.request?.files[0].filePath, applied.response.success], [passing, true]);
    const [firstResult, secondResult] = toolResultsSeen(model.requests[1]);
    assert.match(firstResult, /"error_code":"MATCH_NOT_FOUND"/);
    assert.match(secondResult, /"success":true/);
    for (const text of [firstResult, secondResult]) {
      assert.ok(!text.includes('Multi-Edit request #'), 'the part naming the record is not given to the model');
    }
    assert.match(readDisk(passing), /\tlet sum = 1;/);
    assert.equal(readDisk(failing), TAB_INDENTED);
  });

  test('round limit: a model that keeps calling tools is stopped after 5 rounds, and the turn\'s metadata says so (the Continue follow-up)', async function () {
    const model = await scriptedModel(this);
    const file = writeScratchFile(scratchDir('chat-rounds'), 'total.js', TAB_INDENTED);
    useScript([{
      prompt: 'keep trying',
      rounds: [{ toolCalls: [{ name: TOOL_MULTI_EDIT, input: { file_path: file, edits: [{ old_string: 'absent text', new_string: 'x' }] } }] }],
    }]);
    const result = await sendChat(`@${CHAT_PARTICIPANT_NAME} keep trying`);
    const metadata = metadataOf(result);
    assert.ok(metadata.kind === 'conversation' && metadata.stoppedAtRoundLimit);
    assert.equal(model.requests.length, 5);
    assert.equal(readDisk(file), TAB_INDENTED);
  });

  test('#multiEdit in the prompt: the first round offers only that tool and requires the model to call it', async function () {
    const model = await scriptedModel(this);
    const file = writeScratchFile(scratchDir('chat-reference'), 'total.js', TAB_INDENTED);
    useScript([{ prompt: 'start at ten', rounds: [
      { toolCalls: [{ name: TOOL_MULTI_EDIT, input: { file_path: file, edits: [{ old_string: '\tlet sum = 0;', new_string: '\tlet sum = 10;' }] } }] },
      { text: 'Started at ten.' },
    ] }]);
    await sendChat(`@${CHAT_PARTICIPANT_NAME} start at ten`, { toolIds: [TOOL_MULTI_EDIT] });
    assert.deepEqual(model.requests.map((request) => [[...request.toolNames].sort(), request.toolMode]), [
      [[TOOL_MULTI_EDIT], 'required'],
      [[TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_MULTI_EDIT_PATCH], 'auto'],
    ]);
    assert.match(readDisk(file), /\tlet sum = 10;/);
  });

  test('cancelling while the model thinks ends the turn at once; nothing is written', async function () {
    const model = await scriptedModel(this);
    const file = writeScratchFile(scratchDir('chat-cancel'), 'total.js', TAB_INDENTED);
    useScript([{ prompt: 'think slowly', rounds: [
      { delayMs: 15_000, toolCalls: [{ name: TOOL_MULTI_EDIT, input: { file_path: file, edits: [{ old_string: '\treturn sum;', new_string: '\treturn 0;' }] } }] },
    ] }]);
    const started = Date.now();
    const turn = sendChat(`@${CHAT_PARTICIPANT_NAME} think slowly`);
    await waitFor('the model to receive the request', () => model.requests.length === 1, 10_000);
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    await turn;
    assert.ok(Date.now() - started < 12_000, 'the turn ended before the model would have answered');
    assert.equal(model.requests[0].cancelled, true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(model.requests.length, 1, 'no further round starts after the cancellation');
    assert.equal(readDisk(file), TAB_INDENTED);
  });

  test('confirmation "always": the turn waits for the user; accepting the tool call applies the edit', async function () {
    const model = await scriptedModel(this);
    const file = writeScratchFile(scratchDir('chat-confirm'), 'total.js', TAB_INDENTED);
    useScript([{ prompt: 'with my consent', rounds: [
      { toolCalls: [{ name: TOOL_MULTI_EDIT, input: { file_path: file, edits: [{ old_string: '\treturn sum;', new_string: '\treturn sum + 1;' }] } }] },
      { text: 'Applied after your confirmation.' },
    ] }]);
    await withSettings({ confirmation: 'always' }, async () => {
      const pending = await sendChat(`@${CHAT_PARTICIPANT_NAME} with my consent`);
      assert.equal(pending.type, 'confirmation');
      assert.equal(pending.toolId, TOOL_MULTI_EDIT);
      assert.equal(readDisk(file), TAB_INDENTED, 'nothing is written before the user accepts');
      await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
      await waitFor('the accepted edit and the model\'s closing reply', () => readDisk(file).includes('\treturn sum + 1;') && model.requests.length === 2, 10_000);
    });
  });

  test('a tool result the model cannot read: the turn ends with the model\'s own words, and the call is kept as not run', async function () {
    const model = await scriptedModel(this);
    useScript([{ prompt: 'use the new tool', rounds: [
      { toolCalls: [{ name: 'multi_edit_v2', input: { file_path: '/nowhere.js', edits: [] } }] },
      { toolCalls: [{ name: 'multi_edit_v2', fixFromLastResult: true }] },
    ] }]);
    const result = await sendChat(`@${CHAT_PARTICIPANT_NAME} use the new tool`);
    const metadata = metadataOf(result);
    assert.ok(metadata.kind === 'conversation' && !metadata.stoppedAtRoundLimit);
    assert.deepEqual(metadata.calls, [{ round: 1, tool: 'multi_edit_v2', success: false }]);
    assert.equal(model.requests.length, 2);
    assert.match(toolResultsSeen(model.requests[1])[0], /^Unknown tool multi_edit_v2: use multi_edit, multi_edit_files or multi_edit_patch\.$/);
  });
});
