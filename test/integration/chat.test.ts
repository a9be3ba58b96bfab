// The @multiedit chat participant in the extension host, on every VS Code version: the
// contribution, the activation that registers it, and that an outcome from the chat source becomes
// diagnostics like any other. Real chat turns need a language model; chatEndToEnd.test.ts drives
// them with the scripted model where VS Code can host it (1.104 and later).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CHAT_COMMANDS, CHAT_PARTICIPANT_ID, CHAT_PARTICIPANT_NAME, EXTENSION_ID } from '../../src/vscode/platform/ids';
import { TOOL_MULTI_EDIT } from '../../src/core/contract/toolNames';
import type { RequestRecord as RequestOutcome } from '../../src/vscode/run/requestRecord';
import { codeOf, diagnosticsOf, editorSuiteFixture, noDiagnosticsOn, THREE_TOTALS } from './editorHelpers';
import { scratchDir, writeScratchFile } from './helpers';

interface ContributedParticipant {
  readonly id: string;
  readonly name: string;
  readonly fullName: string;
  readonly description: string;
  readonly isSticky: boolean;
  readonly commands: readonly { readonly name: string; readonly description: string }[];
}

suite('chat participant', () => {
  const fixture = editorSuiteFixture();

  test('is contributed as @multiedit with /apply, /preview and /explain, under the IDs the code registers', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    const participants = extension.packageJSON.contributes.chatParticipants as ContributedParticipant[];
    assert.equal(participants.length, 1);
    const [participant] = participants;
    assert.equal(participant.id, CHAT_PARTICIPANT_ID);
    assert.equal(participant.name, CHAT_PARTICIPANT_NAME);
    assert.equal(participant.fullName, 'Multi-Edit');
    assert.equal(participant.isSticky, false);
    assert.ok(participant.description.length > 0);
    assert.deepEqual(participant.commands.map((command) => command.name), Object.values(CHAT_COMMANDS));
    assert.ok(participant.commands.every((command) => command.description.length > 0));
  });

  test('activation, which registers the participant, succeeds', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  test('a request run for the chat becomes diagnostics, and a later success for the file clears them', async () => {
    const file = writeScratchFile(scratchDir('chat'), 'totals.ts', THREE_TOTALS);
    const seen: RequestOutcome[] = [];
    const listening = fixture.api.bus.onDidFinish((outcome) => seen.push(outcome));
    try {
      // The call /apply makes with the prompt's request.
      const { response: failed } = await fixture.api.runner.run(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: '  return total;', new_string: '  return sum;' }] }, { source: 'chat' });
      assert.equal(failed.success, false);
      const [diagnostic] = await diagnosticsOf(file);
      assert.equal(codeOf(diagnostic).value, 'AMBIGUOUS_MATCH');
      assert.equal(diagnostic.relatedInformation?.length, 3);

      const { response: applied } = await fixture.api.runner.run(TOOL_MULTI_EDIT, {
        file_path: file, edits: [{ old_string: '  return total;', new_string: '  return sum;', replace_all: true }],
      }, { source: 'chat' });
      assert.equal(applied.success, true);
      await noDiagnosticsOn(file);
      assert.deepEqual(seen.map((outcome) => [outcome.source, outcome.response.success]), [['chat', false], ['chat', true]]);
    } finally {
      listening.dispose();
    }
  });
});
