/**
 * The protocol's limits, with the SDK's own client: arguments of 12 and 30 MB work,
 * a message over the server's bound gets a clean JSON-RPC error, a tool name that is
 * not a string gets InvalidParams in one line, and after each the session goes on.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MAX_MESSAGE_BYTES } from '../../src/node/mcp/lineTransport';
import { successOf } from './helpers/requestScenarios';
import { useMcpSession } from './helpers/mcpSession';
import { useTempDir } from './helpers/tempDir';

const MB = 1024 * 1024;

describe('MCP server: protocol limits', function () {
  this.timeout(180_000);
  const dir = useTempDir('limits', { per: 'suite' });
  const session = useMcpSession(dir);

  /** A small edit that must still work: the session went on. */
  async function stillServing(): Promise<void> {
    const target = path.join(dir(), 'after.txt');
    fs.writeFileSync(target, 'before\n');
    successOf((await session().call('multi_edit', { file_path: target, edits: [{ old_string: 'before', new_string: 'after' }] })).response);
    assert.equal(fs.readFileSync(target, 'utf8'), 'after\n');
  }

  for (const megabytes of [12, 30]) {
    it(`a ${megabytes} MB new_string is applied, and the session goes on`, async () => {
      const target = path.join(dir(), `big-${megabytes}.txt`);
      fs.writeFileSync(target, 'head\nMARK\ntail\n');
      const large = 'x'.repeat(megabytes * MB - 1) + '\n';
      successOf((await session().call('multi_edit', { file_path: target, edits: [{ old_string: 'MARK\n', new_string: large }] })).response);
      assert.equal(fs.statSync(target).size, 'head\ntail\n'.length + megabytes * MB);
      await stillServing();
    });
  }

  it('a message over the server\'s bound gets a one-line InvalidRequest error naming the bound, and the session goes on', async () => {
    const target = path.join(dir(), 'huge.txt');
    fs.writeFileSync(target, 'MARK\n');
    const huge = 'y'.repeat(MAX_MESSAGE_BYTES + MB);
    await assert.rejects(
      session().client.callTool({ name: 'multi_edit', arguments: { file_path: target, edits: [{ old_string: 'MARK', new_string: huge }] } }),
      (error: unknown) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.code, ErrorCode.InvalidRequest);
        assert.match(error.message, new RegExp(`over the ${MAX_MESSAGE_BYTES / MB} MiB`));
        assert.ok(!error.message.includes('\n'), 'one line');
        return true;
      },
    );
    assert.equal(fs.readFileSync(target, 'utf8'), 'MARK\n');
    await stillServing();
  });

  it('a tool name that is not a string gets InvalidParams (-32602) in one line, and the session goes on', async () => {
    for (const name of [5, null, { tool: 'multi_edit' }]) {
      await assert.rejects(
        session().client.request({ method: 'tools/call', params: { name, arguments: {} } } as never, z.object({}).passthrough()),
        (error: unknown) => {
          assert.ok(error instanceof McpError);
          assert.equal(error.code, ErrorCode.InvalidParams);
          assert.match(error.message, /params\.name must be a string/);
          assert.ok(!error.message.includes('\n'), `one line: ${error.message}`);
          return true;
        },
      );
    }
    await stillServing();
  });
});
