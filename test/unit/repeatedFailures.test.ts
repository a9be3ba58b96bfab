/** The loop breaker: the same failing request again in one session escalates next_action and says it is a repeat. */
import * as assert from 'node:assert/strict';
import { RepeatedFailures } from '../../src/core/report/repeatedFailures';
import { assertValidResponse, failureOf, run } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';

const FILE = '/w/src/app.ts';
const TEXT = 'export const a = 1;\nexport const b = 2;\n';
const FAILING = { file_path: FILE, edits: [{ old_string: 'export const a = 10;', new_string: 'export const a = 11;' }] };

async function attempt(repeats: RepeatedFailures, input: unknown) {
  const store = new MemoryStore({ [FILE]: TEXT });
  const response = repeats.note('multi_edit', input, await run('multi_edit', input, { store }));
  assertValidResponse(response);
  return failureOf(response);
}

describe('the loop breaker', () => {
  it('answers the first failure as it is, the second identical one with reread_and_retry and a repeat, the third with stop', async () => {
    const repeats = new RepeatedFailures();
    const first = await attempt(repeats, FAILING);
    assert.equal(first.next_action.action, 'fix_and_resubmit');
    assert.equal(first.next_action.repeated, undefined);

    const second = await attempt(repeats, FAILING);
    assert.equal(second.next_action.action, 'reread_and_retry');
    assert.equal(second.next_action.repeated, 2);
    assert.match(second.recovery_hints[0], /2nd time this same request failed the same way/);
    assert.match(second.recovery_hints[0], /Re-read lines 1-\d+ of \/w\/src\/app\.ts/);
    assert.match(second.summary, /^Repeated \(2nd time\)/);
    assert.deepEqual(second.diagnosis, first.diagnosis, 'the facts stay the same');

    const third = await attempt(repeats, FAILING);
    assert.equal(third.next_action.action, 'stop');
    assert.equal(third.next_action.repeated, 3);
  });

  it('counts a changed request, or another session, afresh', async () => {
    const repeats = new RepeatedFailures();
    await attempt(repeats, FAILING);
    const changed = await attempt(repeats, { ...FAILING, edits: [{ old_string: 'export const b = 20;', new_string: 'x' }] });
    assert.equal(changed.next_action.repeated, undefined);
    const elsewhere = await attempt(new RepeatedFailures(), FAILING);
    assert.equal(elsewhere.next_action.repeated, undefined);
  });
});
