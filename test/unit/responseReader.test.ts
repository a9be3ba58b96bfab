import * as assert from 'node:assert/strict';
import {
  ALL_ERROR_CODES, codeInfo, failureEntries, fileIndexOfStatus, isLeadPlace, leadFailure, otherFailures, userChoseOutcome,
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

  describe('failureEntries: each entry with its own code, file, cause and context, else the envelope\'s', () => {
    it('a one-file envelope: the lead has the envelope\'s cause and context, the others their own, every one the file\'s path', async () => {
      const store = new MemoryStore({ '/w/a.ts': 'const alpha = 1;\r\nconst beta = 2;\r\n' });
      const envelope = failureOf(await run('multi_edit', {
        file_path: '/w/a.ts',
        edits: [{ old_string: 'const  alpha', new_string: 'let alpha' }, { old_string: 'const beta = 3;', new_string: 'x' }],
      }, { store }));
      const entries = failureEntries(envelope);
      assert.deepEqual(entries.map((entry) => [entry.editIndex, entry.code, entry.lead, entry.fileIndex, entry.filePath, entry.numbersFiles]), [
        [0, 'MATCH_NOT_FOUND', true, 0, '/w/a.ts', false],
        [1, 'MATCH_NOT_FOUND', false, 0, '/w/a.ts', false],
      ]);
      assert.equal(entries[0].diagnosis, envelope.diagnosis);
      assert.equal(entries[0].context, envelope.context);
      assert.equal(entries[1].diagnosis, envelope.edit_status[1].diagnosis);
      assert.ok(entries[1].context?.snippet?.includes('const beta = 2;'), JSON.stringify(entries[1].context));
    });

    it('a multi-file envelope led by a missing file: the file\'s failure comes first, then each edit in its own file', async () => {
      const store = new MemoryStore({ '/w/b.ts': 'two\n' });
      const envelope = failureOf(await run('multi_edit_files', {
        files: [
          { file_path: '/w/a.ts', edits: [{ old_string: 'one', new_string: '1' }] },
          { file_path: '/w/b.ts', edits: [{ old_string: 'three', new_string: '3' }] },
        ],
      }, { store }));
      assert.equal(envelope.error_code, 'FILE_NOT_FOUND');
      const entries = failureEntries(envelope);
      const lead = entries[0];
      assert.deepEqual([lead.status, lead.code, lead.lead, lead.fileIndex, lead.editIndex, lead.filePath], ['failed', 'FILE_NOT_FOUND', true, 0, undefined, '/w/a.ts']);
      const inB = entries.filter((entry) => entry.fileIndex === 1);
      assert.deepEqual(inB.map((entry) => [entry.status, entry.code, entry.editIndex, entry.filePath, entry.numbersFiles, entry.lead]), [['failed', 'MATCH_NOT_FOUND', 0, '/w/b.ts', true, false]]);
      assert.equal(entries.filter((entry) => entry.lead).length, 1);
    });

    it('a skipped edit waits on the failed one of its file, and has no cause of its own', async () => {
      const store = new MemoryStore({ '/w/a.ts': 'alpha\n' });
      const envelope = failureOf(await run('multi_edit', {
        file_path: '/w/a.ts',
        edits: [{ old_string: 'gamma', new_string: 'delta' }, { old_string: 'delta', new_string: 'epsilon' }],
      }, { store }));
      const skipped = failureEntries(envelope).find((entry) => entry.status === 'skipped');
      assert.ok(skipped, JSON.stringify(envelope.edit_status));
      assert.deepEqual([skipped.editIndex, skipped.dependsOn, skipped.lead, skipped.diagnosis], [1, [0], false, undefined]);
    });
  });
});
