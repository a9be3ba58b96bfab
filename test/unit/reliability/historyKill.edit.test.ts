/**
 * An edit with its history record, killed (SIGKILL) at every disk step, the store's commit
 * and the history's writes counted together; after the next run the files are all old
 * without a record, or all new with it: a request is never applied without its record.
 * Nothing is left pending in the history folder once the next run settled it. The large file's
 * text is kept by a link, or, with a store that makes none (as VS Code's), by a copy.
 */
import * as assert from 'node:assert/strict';
import { recordFigure } from '../helpers/figures';
import { child, file, filesState, fresh, historyKillFolders, keptBefore, NAMES, nextRun, OLD, request, stepsOf, unsettled } from './fixtures/historyKillHarness';

describe('reliability: an edit with its history killed at every step', function () {
  this.timeout(120_000);
  historyKillFolders();

  for (const [keptBy, store] of [['a link', {}], ['a copy', { NO_LINKS: '1' }]] as const) {
    it(`an edit killed at every step, the large file's text kept by ${keptBy}: after the next run, all old without a record, or all new with its record`, async () => {
      fresh();
      const steps = stepsOf({ ACTION: 'apply', REQUEST: JSON.stringify(request()), ...store });
      const [uncrashed] = await nextRun();
      assert.deepEqual(uncrashed.files.map((kept) => kept.before?.original !== undefined), [false, true], `the large file is kept by ${keptBy}, the small one in the record`);
      const outcomes = { old: 0, new: 0 };
      for (let at = 1; at <= steps; at++) {
        fresh();
        const run = child({ ACTION: 'apply', REQUEST: JSON.stringify(request()), CRASH_AT: String(at), ...store });
        assert.equal(run.signal, 'SIGKILL', `step ${at} did not crash: ${run.stdout}${String(run.stderr)}`);
        const entries = await nextRun();
        const state = filesState();
        assert.notEqual(state, 'mixed', `a kill at step ${at} left the files mixed`);
        if (state === 'new') {
          assert.equal(entries.length, 1, `a kill at step ${at}: the request was applied, but the history keeps ${entries.length} records`);
          assert.deepEqual(entries[0].files.map((kept) => [kept.path, keptBefore(kept)]), NAMES.map((name) => [file(name), OLD(name)]));
        } else {
          assert.deepEqual(entries, [], `a kill at step ${at}: the request was not applied, but the history keeps a record of it`);
        }
        assert.deepEqual(unsettled(), [], `a kill at step ${at} left the history unsettled after the next run`);
        outcomes[state === 'new' ? 'new' : 'old']++;
      }
      recordFigure('processes killed', `${steps} SIGKILLs, one at every disk step of a 2-file edit with its history record (one file's text kept by ${keptBy}): ${outcomes.old} all old without a record, ${outcomes.new} all new with it, 0 applied without a record`);
      assert.ok(outcomes.old > 0 && outcomes.new > 0, 'the kills fall on both sides of the commit');
    });
  }
});
