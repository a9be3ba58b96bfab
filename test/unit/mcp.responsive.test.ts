/**
 * The MCP server stays responsive during long work, with the SDK's own client: pings
 * and a second call are answered while a patch of 20,000 hunks on a 2.4 MB file is
 * planned (planning yields to the event loop), and a patch of 200,000 hunks is refused
 * with the limit named while pings go on being answered. The latencies are printed.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { useMcpSession } from './helpers/mcpSession';
import { useTempDir } from './helpers/tempDir';

const LINES = Array.from({ length: 230_000 }, (_, index) => `v${index}=${index % 97}`);

function hunks(count: number): string {
  return Array.from({ length: count }, (_, index) => `@@\n-${LINES[(index * 11) % LINES.length]}\n+${LINES[(index * 11) % LINES.length]}#`).join('\n');
}

describe('MCP server: responsive during long calls', function () {
  this.timeout(300_000);
  const dir = useTempDir('responsive', { per: 'suite' });
  const session = useMcpSession(dir);

  /** Pings every few milliseconds until `work` settles: the latency of each ping answered before it did. */
  async function pingsDuring<T>(work: Promise<T>): Promise<{ result: T; answeredBefore: number[] }> {
    let settled = false;
    const answeredBefore: number[] = [];
    const settledWork = work.finally(() => {
      settled = true;
    });
    while (!settled) {
      const sent = performance.now();
      await Promise.race([session().client.ping(), settledWork]);
      if (!settled) {
        answeredBefore.push(performance.now() - sent);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return { result: await settledWork, answeredBefore };
  }

  it('answers pings and another call while it plans 20,000 hunks', async () => {
    fs.writeFileSync(path.join(dir(), 'big.txt'), `${LINES.join('\n')}\n`);
    fs.writeFileSync(path.join(dir(), 'small.txt'), 'before\n');
    const started = performance.now();
    const long = session().call('multi_edit_patch', { patch: `*** Begin Patch\n*** Update File: big.txt\n${hunks(20_000)}\n*** End Patch\n` });
    let longDone = false;
    void long.then(() => {
      longDone = true;
    });
    // Give the server the long call first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await session().call('multi_edit', { file_path: path.join(dir(), 'small.txt'), edits: [{ old_string: 'before', new_string: 'after' }] });
    const secondBeforeLong = !longDone;
    const { result, answeredBefore } = await pingsDuring(long);
    const longMs = performance.now() - started;
    assert.ok(second.response.success);
    assert.ok(result.response.success, JSON.stringify(result.response).slice(0, 400));
    console.log(`      20,000 hunks on 2.4 MB: ${Math.round(longMs)} ms; ${answeredBefore.length} pings answered during it, slowest ${Math.round(Math.max(...answeredBefore))} ms, median ${Math.round(answeredBefore.sort((a, b) => a - b)[answeredBefore.length >> 1])} ms; another call answered first: ${secondBeforeLong}`);
    assert.ok(secondBeforeLong, 'a second call was answered while the long one was planned');
    assert.ok(answeredBefore.length > 0, 'pings were answered while the long call was planned');
  });

  it('refuses 200,000 hunks with the limit named, and goes on answering pings', async () => {
    const started = performance.now();
    const { result, answeredBefore } = await pingsDuring(session().call('multi_edit_patch', { patch: `*** Begin Patch\n*** Update File: big.txt\n${hunks(200_000)}\n*** End Patch\n` }));
    const refusedMs = performance.now() - started;
    assert.equal(result.response.success ? 'success' : result.response.error_code, 'VALIDATION_FAILED');
    assert.match(result.response.success ? '' : result.response.message, /more than 20000 hunks/);
    const after = performance.now();
    await session().client.ping();
    console.log(`      200,000 hunks (${Math.round(hunks(200_000).length / 1e5) / 10} MB): refused in ${Math.round(refusedMs)} ms; ${answeredBefore.length} pings answered meanwhile; the next ping took ${Math.round(performance.now() - after)} ms`);
  });
});
