// The recap a conversation leaves in view, and /explain, on real engine responses.
import * as assert from 'node:assert/strict';
import { formatForModel } from '../../src/core/contract/format';
import type { ToolCallRecord } from '../../src/vscode/chat/turnMetadata';
import { latestFailure, renderExplanation, renderRecap } from '../../src/vscode/chat/conversation/recap';
import { escapeMarkdown } from '../../src/vscode/chat/render/markdownText';
import { failureOf, run, successOf } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';

const FILE = '/w/src/total.js';
const TEXT = 'function total(items) {\n\tlet sum = 0;\n\treturn sum;\n}\n';

async function nearMiss(): Promise<string> {
  return formatForModel(failureOf(await run('multi_edit', {
    file_path: FILE, edits: [{ old_string: '    return sum;', new_string: '    return sum * 2;' }],
  }, { store: new MemoryStore({ [FILE]: TEXT }) })));
}

async function applied(): Promise<string> {
  return formatForModel(successOf(await run('multi_edit', {
    file_path: FILE, edits: [{ old_string: '\treturn sum;', new_string: '\treturn sum * 2;' }],
  }, { store: new MemoryStore({ [FILE]: TEXT }) })));
}

describe('chat recap and /explain', () => {
  it('the recap lists a failed call with its code and cause, then the call that recovered', async () => {
    const calls: ToolCallRecord[] = [
      { round: 1, tool: 'multi_edit', success: false, errorCode: 'MATCH_NOT_FOUND', modelText: await nearMiss() },
      { round: 2, tool: 'multi_edit', success: true, modelText: await applied() },
    ];
    const lines = renderRecap(calls).split('\n');
    assert.equal(lines[0], '**Tool calls in this turn**');
    assert.match(lines[2], /^- Round 1 · `multi_edit` · `MATCH_NOT_FOUND` Edit 1 of 1 failed: .* \(`INDENTATION` line 1 of old\\_string is indented with 4 spaces where the file has a tab at line 3\)$/);
    assert.equal(lines[3], `- Round 2 · \`multi_edit\` · ${escapeMarkdown('Applied 1 edit (1 replacement) to /w/src/total.js')}`);
  });

  it('the recap is empty when every call succeeded, and says when a call did not run', async () => {
    assert.equal(renderRecap([{ round: 1, tool: 'multi_edit', success: true, modelText: await applied() }]), '');
    assert.match(renderRecap([{ round: 1, tool: 'multi_edit_v2', success: false }]), /- Round 1 · `multi_edit_v2` · did not run/);
  });

  it('/explain finds the newest failure and says what to do next', async () => {
    const failure = await nearMiss();
    assert.equal(latestFailure([await applied(), 'not a response']), undefined);
    const envelope = latestFailure([failure, await applied()]);
    assert.equal(envelope?.error_code, 'MATCH_NOT_FOUND');
    assert.ok(envelope);
    const text = renderExplanation(envelope).map((part) => (part.kind === 'markdown' ? part.text : `<${part.title}>`)).join('');
    assert.ok(text.startsWith('**The last failure in this chat**'));
    assert.ok(text.includes('`INDENTATION`'));
    assert.ok(text.endsWith('**Next step:** Correct the failing edits and send the whole request again; nothing was written.\n'));
  });
});
