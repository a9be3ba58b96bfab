// The recap a conversation leaves in view, and /explain, on real engine responses.
import * as assert from 'node:assert/strict';
import { formatForModel } from '../../src/core/contract/format';
import type { ErrorEnvelope, SuccessResponse } from '../../src/core/contract/schemas';
import { latestFailure, type RecapEntry, renderExplanation, renderRecap } from '../../src/vscode/chat/conversation/recap';
import { escapeMarkdown } from '../../src/vscode/chat/render/markdownText';
import { failureOf, run, successOf } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';

const FILE = '/w/src/total.js';
const TEXT = 'function total(items) {\n\tlet sum = 0;\n\treturn sum;\n}\n';

async function nearMiss(): Promise<ErrorEnvelope> {
  return failureOf(await run('multi_edit', {
    file_path: FILE, edits: [{ old_string: '    return sum;', new_string: '    return sum * 2;' }],
  }, { store: new MemoryStore({ [FILE]: TEXT }) }));
}

async function applied(): Promise<SuccessResponse> {
  return successOf(await run('multi_edit', {
    file_path: FILE, edits: [{ old_string: '\treturn sum;', new_string: '\treturn sum * 2;' }],
  }, { store: new MemoryStore({ [FILE]: TEXT }) }));
}

describe('chat recap and /explain', () => {
  it('the recap lists a failed call with its code and cause, then the call that recovered', async () => {
    const entries: RecapEntry[] = [
      { call: { round: 1, tool: 'multi_edit', success: false, errorCode: 'MATCH_NOT_FOUND' }, response: await nearMiss() },
      { call: { round: 2, tool: 'multi_edit', success: true }, response: await applied() },
    ];
    const lines = renderRecap(entries).split('\n');
    assert.equal(lines[0], '**Tool calls in this turn**');
    assert.match(lines[2], /^- Round 1 · `multi_edit` · `MATCH_NOT_FOUND` Edit 1 of 1 failed: .* \(`INDENTATION` line 1 of old\\_string is indented with 4 spaces where the file has a tab at line 3\)$/);
    assert.equal(lines[3], `- Round 2 · \`multi_edit\` · ${escapeMarkdown('Applied 1 edit (1 replacement) to /w/src/total.js')}`);
  });

  it('the recap is empty when every call succeeded, and says when a call did not run', async () => {
    assert.equal(renderRecap([{ call: { round: 1, tool: 'multi_edit', success: true }, response: await applied() }]), '');
    assert.match(renderRecap([{ call: { round: 1, tool: 'multi_edit_v2', success: false } }]), /- Round 1 · `multi_edit_v2` · did not run/);
  });

  it('/explain finds the newest failure and says what to do next', async () => {
    const failure = formatForModel(await nearMiss());
    const success = formatForModel(await applied());
    assert.equal(latestFailure([success, 'not a response']), undefined);
    const envelope = latestFailure([failure, success]);
    assert.equal(envelope?.error_code, 'MATCH_NOT_FOUND');
    assert.ok(envelope);
    const text = renderExplanation(envelope).map((part) => (part.kind === 'markdown' ? part.text : `<${part.title}>`)).join('');
    assert.ok(text.startsWith('**The last failure in this chat**'));
    assert.ok(text.includes('`INDENTATION`'));
    assert.ok(text.endsWith('**Next step:** Correct the failing edits and send the whole request again; nothing was written.\n'));
  });
});
