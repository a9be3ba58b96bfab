import * as assert from 'node:assert/strict';
import {
  ALL_ERROR_CODES, codeInfo, fileIndexOfStatus, isLeadPlace, leadFailure, otherFailures, userChoseOutcome,
} from '../../src/core/index';
import { failureOf, run } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';

describe('the response reader', () => {
  it('marks exactly CANCELLED and USER_DENIED as outcomes the user chose, in the codes table', () => {
    const chosen = ALL_ERROR_CODES.filter((code) => codeInfo(code).userChose);
    assert.deepEqual(chosen.sort(), ['CANCELLED', 'USER_DENIED']);
  });

  it('reads a one-file envelope: the lead is the first failed edit, the others follow, no choice of the user', async () => {
    const store = new MemoryStore({ '/w/a.ts': 'alpha\nbeta\n' });
    const response = await run('multi_edit', {
      file_path: '/w/a.ts',
      edits: [{ old_string: 'gamma', new_string: 'g' }, { old_string: 'alpha', new_string: 'a' }, { old_string: 'delta', new_string: 'd' }],
    }, { store });
    const envelope = failureOf(response);
    assert.equal(envelope.file_index, undefined);
    assert.equal(leadFailure(envelope)?.edit_index, 0);
    assert.deepEqual(otherFailures(envelope).map((status) => status.edit_index), [2]);
    assert.equal(isLeadPlace(envelope, undefined, 0), true);
    assert.equal(isLeadPlace(envelope, 0, 2), false);
    assert.equal(userChoseOutcome(response), false);
  });

  it('reads a multi-file envelope: the lead carries its file, and each entry its own file index', async () => {
    const store = new MemoryStore({ '/w/a.ts': 'one\n', '/w/b.ts': 'two\n' });
    const envelope = failureOf(await run('multi_edit_files', {
      files: [
        { file_path: '/w/a.ts', edits: [{ old_string: 'one', new_string: '1' }] },
        { file_path: '/w/b.ts', edits: [{ old_string: 'three', new_string: '3' }, { old_string: 'four', new_string: '4' }] },
      ],
    }, { store }));
    const lead = leadFailure(envelope);
    assert.ok(lead);
    assert.equal(fileIndexOfStatus(lead, envelope), 1);
    assert.equal(lead.edit_index, 0);
    assert.deepEqual(otherFailures(envelope).map((status) => [fileIndexOfStatus(status, envelope), status.edit_index]), [[1, 1]]);
  });
});
