/**
 * The recovery benchmark's quick mode: every fixture through multi_edit with the
 * envelope reader and through the peer with the message reader. It checks that the
 * figures are computed and that the envelope reader never makes or keeps a wrong
 * edit; times are the benchmark's business (npm run bench:recovery), not a test's.
 */
import * as assert from 'node:assert/strict';
import { loadFixtures, multiEditTool, peerTool, prepare, runColumns, type Fixture } from '../../bench/recovery/harness';
import { envelopeReader, messageReader } from '../../bench/recovery/readers';

describe('recovery benchmark (quick mode)', () => {
  let fixtures: Fixture[];

  before(async () => {
    fixtures = await loadFixtures();
  });

  it('has at least 40 fixtures, each with an intended result the sent request does not give', async () => {
    assert.ok(fixtures.length >= 40, `${fixtures.length} fixtures`);
    for (const fixture of fixtures) {
      const { onDisk, intended } = await prepare(fixture);
      assert.ok(fixture.sent.length > 0, fixture.id);
      assert.ok(fixture.intended.length === 0 ? onDisk === intended : onDisk !== intended, fixture.id);
    }
  });

  it('computes rounds and outcomes for every fixture; the envelope reader converges within 2 rounds on 95% with no wrong or dropped edit', async () => {
    const [envelope, peer] = await runColumns(fixtures, [
      { label: 'multi_edit, envelope reader', tool: multiEditTool('refuseMultiline'), reader: envelopeReader },
      { label: 'peer, message reader', tool: await peerTool(), reader: messageReader },
    ]);
    for (const summary of [envelope, peer]) {
      assert.equal(summary.results.length, fixtures.length);
      assert.ok(summary.results.every((result) => result.rounds >= 1 && result.rounds <= 5), summary.label);
      assert.equal(summary.converged + summary.wrong + summary.dropped + summary.gaveUp, fixtures.length, summary.label);
    }
    assert.equal(envelope.wrong, 0, JSON.stringify(envelope.results.filter((r) => r.outcome === 'wrong edit')));
    assert.equal(envelope.dropped, 0);
    assert.ok(envelope.withinTwo >= Math.ceil(0.95 * fixtures.length), `${envelope.withinTwo} of ${fixtures.length} within 2 rounds`);
  });
});
