/**
 * `multi-edit patch --root` against another process that swaps a directory under the root for
 * a link to outside while each call adds a file there: the CLI's store is confined as the MCP
 * server's is, so not a byte, not a lock, draft or `.new` file, lands outside.
 */
import * as assert from 'node:assert/strict';
import { describeRace, raceCliPatches } from '../shared/cliPatchRace';
import { recordFigure } from './helpers/figures';
import { CLI } from './helpers/cliRun';

const CALLS = 500;

describe('CLI: a directory swapped for a link to outside while patches add files', function () {
  // The store holds directories by handle on Linux only (SECURITY.md says what remains elsewhere).
  (process.platform === 'linux' ? it : it.skip)(`${CALLS} calls of multi-edit patch --root: nothing lands outside, and every success lands inside`, async function () {
    this.timeout(40 * 60_000);
    const outcome = await raceCliPatches(CLI, CALLS);
    // WRITE_FAILED: a folder the patch creates was swapped between its creation and the write; the call wrote nothing.
    const allowed = new Set(['ok', '1 OUTSIDE_WORKSPACE', '1 FILE_NOT_FOUND', '1 STALE_CONTENT', '1 FILE_BUSY', '1 WRITE_FAILED']);
    for (const code of outcome.tally.keys()) {
      assert.ok(allowed.has(code), `an expected outcome, not ${code}`);
    }
    assert.deepEqual(outcome.namesOutside, [], 'no name outside the root');
    assert.equal(outcome.bytesOutside, 0);
    assert.equal(outcome.addedInside, outcome.tally.get('ok') ?? 0, 'every success added its file inside the root');
    recordFigure('scope race', `CLI patch --root, ${describeRace(outcome)}`);
  });
});
