// Overlapping multi_edit calls on one document, as an agent that fires tool calls in parallel
// makes them: each call edits its own line, and none may be lost. Every call either succeeds
// and its line is in the document, or returns STALE_CONTENT and its line is absent.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT } from '../../src/core/contract/toolNames';
import { closeAllEditors, invokeTool, openInEditor, toolSuiteFixture, writeScratchFile, type ToolReply } from './helpers';

const ROUNDS = 10;

interface RaceTally {
  succeeded: number;
  stale: number;
  lost: number;
  /** Rounds whose document is not exactly the original with the successful edits applied. */
  corrupted: number;
  /** Any reply other than success or STALE_CONTENT, as "call i: CODE". */
  readonly unexpected: string[];
}

const lineOf = (call: number) => `line ${call} of the race`;
/** Odd calls also add a line, so an edit applied to text it was not planned against lands visibly wrong. */
const editedLineOf = (call: number) => `${lineOf(call)}, edited${call % 2 === 1 ? `\n  added by call ${call}` : ''}`;

/** Fires `calls` overlapping calls at one file and checks each reply against the document it left. */
async function raceRound(file: string, calls: number, tally: RaceTally): Promise<void> {
  const replies: ToolReply[] = await Promise.all(Array.from({ length: calls }, (_, call) =>
    invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: lineOf(call), new_string: editedLineOf(call) }] })));
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const text = document.getText();
  const expected = replies.map((reply, call) => `${reply.response.success ? editedLineOf(call) : lineOf(call)}\n`).join('');
  replies.forEach((reply, call) => {
    const { response } = reply;
    if (response.success) {
      tally.succeeded++;
      if (!text.includes(editedLineOf(call))) {
        tally.lost++;
      }
    } else if (response.error_code === 'STALE_CONTENT') {
      tally.stale++;
      if (!text.includes(`${lineOf(call)}\n`) || !response.retryable) {
        tally.unexpected.push(`call ${call}: STALE_CONTENT, yet its line was edited or it is not retryable`);
      }
    } else {
      tally.unexpected.push(`call ${call}: ${response.error_code} ${response.message}`);
    }
  });
  if (text !== expected) {
    tally.corrupted++;
  }
}

async function race(fixture: { readonly dir: string }, calls: number, openFirst: boolean): Promise<RaceTally> {
  const tally: RaceTally = { succeeded: 0, stale: 0, lost: 0, corrupted: 0, unexpected: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const text = `${Array.from({ length: calls }, (_, call) => lineOf(call)).join('\n')}\n`;
    const file = writeScratchFile(fixture.dir, `race-${calls}-${round}.txt`, text);
    if (openFirst) {
      await openInEditor(file);
    }
    await raceRound(file, calls, tally);
  }
  return tally;
}

/** The figures go to the host's console and into the test's title, which the runner prints. */
function report(test: Mocha.Runnable | undefined, calls: number, tally: RaceTally): void {
  const line = `extension-host race: ${ROUNDS} rounds × ${calls} calls, ${tally.succeeded} succeeded, ${tally.stale} stale, ${tally.lost} lost`;
  console.log(`    ${line}`);
  if (test) {
    test.title += ` (${line})`;
  }
}

suite('extension host: overlapping tool calls on one document', function () {
  // Each applied call also writes and syncs its record in the request history before it commits, and a
  // call planned again after STALE_CONTENT does so again: 80 overlapping calls take longer than 30 s on a busy host.
  this.timeout(120_000);
  const fixture = toolSuiteFixture('race');
  teardown(closeAllEditors);

  for (const { calls, openFirst } of [{ calls: 2, openFirst: false }, { calls: 8, openFirst: false }, { calls: 8, openFirst: true }]) {
    const where = openFirst ? 'open in an editor' : 'not open';
    test(`${calls} calls at once, each on its own line (${where}): no update is lost`, async function () {
      const tally = await race(fixture, calls, openFirst);
      report(this.test, calls, tally);
      assert.deepEqual(tally.unexpected, [], 'every call succeeds or returns STALE_CONTENT');
      assert.equal(tally.lost, 0, 'no successful call lost its line');
      assert.equal(tally.corrupted, 0, 'every document holds exactly the original lines and the successful edits');
      assert.equal(tally.succeeded + tally.stale, ROUNDS * calls);
      assert.ok(tally.succeeded >= ROUNDS, 'at least one call of each round succeeds');
    });
  }
});
