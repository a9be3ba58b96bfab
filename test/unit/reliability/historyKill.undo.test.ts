/**
 * An undo killed (SIGKILL) at every disk step, the store's commit and the history's writes
 * counted together; after the next run the files are all old or all new and the history
 * agrees: undone and marked undone, or as the request left them and still undoable (and
 * then undone for real). Never half.
 */
import * as assert from 'node:assert/strict';
import { NodeFileStore } from '../../../src/node/store/nodeFileStore';
import { RequestHistory } from '../../../src/shared/history/requestHistory';
import { recordFigure } from '../helpers/figures';
import { applyHere, child, filesState, fresh, historyKillFolders, nextRun, root, settings, stepsOf, unsettled } from './fixtures/historyKillHarness';

describe('reliability: an undo killed at every step', function () {
  this.timeout(120_000);
  historyKillFolders();

  it('an undo killed at every step: after the next run, undone and marked undone, or as applied and still undoable', async () => {
    fresh();
    const steps = stepsOf({ ACTION: 'undo', REQUEST_ID: await applyHere() });
    assert.equal(filesState(), 'old');
    const outcomes = { undone: 0, undoable: 0 };
    for (let at = 1; at <= steps; at++) {
      fresh();
      const id = await applyHere();
      const run = child({ ACTION: 'undo', REQUEST_ID: id, CRASH_AT: String(at) });
      assert.equal(run.signal, 'SIGKILL', `step ${at} did not crash: ${run.stdout}${String(run.stderr)}`);
      const entries = await nextRun();
      const entry = entries.find((candidate) => candidate.request_id === id);
      const state = filesState();
      assert.notEqual(state, 'mixed', `a kill at step ${at} left the files mixed`);
      assert.ok(entry, `a kill at step ${at}: the history lost request ${id}`);
      assert.deepEqual(unsettled(), [], `a kill at step ${at} left the history unsettled after the next run`);
      if (state === 'old') {
        assert.ok(entry.undone_at, `a kill at step ${at}: the files are undone, but the history does not say so`);
        outcomes.undone++;
      } else {
        assert.equal(entry.undone_at, undefined, `a kill at step ${at}: the history says undone, but the files are as the request left them`);
        const again = await new RequestHistory(settings(), 'cli').undo(root, id, false, { store: new NodeFileStore() });
        assert.ok(again.success, `a kill at step ${at}: the request is not undoable: ${JSON.stringify(again)}`);
        assert.equal(filesState(), 'old');
        outcomes.undoable++;
      }
    }
    recordFigure('processes killed', `${steps} SIGKILLs, one at every disk step of a 2-file undo (one file's text read back from a link): ${outcomes.undone} undone and marked undone, ${outcomes.undoable} left as applied and then undone, 0 half`);
    assert.ok(outcomes.undone > 0 && outcomes.undoable > 0, 'the kills fall on both sides of the commit');
  });
});
