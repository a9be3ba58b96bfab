// @multiedit answering real chat turns in the chat view, with the scripted model as the language
// model (see chatHelpers.ts): the commands, the model-and-tool loop with a recovery from an
// envelope, the round limit, cancellation, confirmation, and results the model cannot read.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT } from '../../src/core/contract/toolNames';
import { CHAT_PARTICIPANT_NAME } from '../../src/vscode/platform/ids';
import type { TurnMetadata } from '../../src/vscode/chat/chatFollowups';
import { scriptedModel, sendChat, toolResultsSeen, useScript } from './chatHelpers';
import { codeOf, diagnosticsOf, editorSuiteFixture } from './editorHelpers';
import { readDisk, scratchDir, writeScratchFile } from './helpers';

const TAB_INDENTED = ['function total(items) {', '\tlet sum = 0;', '\tfor (const item of items) sum += item;', '\treturn sum;', '}', ''].join('\n');

function metadataOf(result: vscode.ChatResult): TurnMetadata {
  const metadata = result.metadata as TurnMetadata | undefined;
  assert.ok(metadata, 'the participant returns metadata');
  return metadata;
}

suite('chat end to end: @multiedit with a scripted model', () => {
  editorSuiteFixture();

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
    assert.equal(metadataOf(result).kind, 'conversation');
    assert.match(readDisk(file), /\treturn sum \* 2;/);
    assert.equal(model.requests.length, 3);
    const [, second, third] = model.requests;
    assert.deepEqual([...second.toolNames].sort(), ['multi_edit', 'multi_edit_files']);
    const [envelopeText] = toolResultsSeen(second);
    assert.match(envelopeText, /"error_code":"MATCH_NOT_FOUND"/);
    assert.match(envelopeText, /"kind":"INDENTATION"/);
    assert.match(envelopeText, /"snippet":"[^"]*\\treturn sum;/);
    assert.match(toolResultsSeen(third)[1], /"success":true/);
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
});
