/**
 * The published package serves MCP through npx: `npm pack`, then `npx <tarball> mcp`
 * from an empty directory, driven by the SDK client. Everything the CLI and the server
 * run (the SDK, zod, diff) is bundled in dist/, so the package has no dependencies and
 * npx installs it offline, with an empty cache.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO_ROOT } from './helpers/cliRun';
import { recordFigure } from './helpers/figures';
import { useTempDir } from './helpers/tempDir';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

describe('MCP server from the packed package (npm pack, then npx)', function () {
  this.timeout(120_000);
  const work = useTempDir('npx', { per: 'suite' });

  it('npx on the tarball starts `multi-edit mcp` in an empty directory, and it edits a file there', async () => {
    const packed = spawnSync(NPM, ['pack', '--silent', '--pack-destination', work()], { cwd: REPO_ROOT, encoding: 'utf8' });
    assert.equal(packed.status, 0, packed.stderr);
    const tarball = path.join(work(), packed.stdout.trim().split('\n').pop() ?? '');
    const listing = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.split('\n');
    assert.ok(listing.includes('package/dist/cli.js') && listing.includes('package/dist/mcp.js'), listing.join('\n'));

    const project = path.join(work(), 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'config.ts'), 'export const retries = 3;\n');
    const started = Date.now();
    // An empty cache of its own and no network: the tarball must be all there is to install.
    const transport = new StdioClientTransport({
      command: NPX,
      args: ['--yes', `file:${tarball}`, 'mcp'],
      cwd: project,
      env: { ...process.env, npm_config_cache: path.join(work(), 'npm-cache'), npm_config_offline: 'true', npm_config_update_notifier: 'false' } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'multi-edit-npx-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name), ['multi_edit', 'multi_edit_files', 'multi_edit_patch', 'multi_edit_undo', 'multi_edit_history']);
      const result = (await client.callTool({
        name: 'multi_edit',
        arguments: { file_path: 'config.ts', edits: [{ old_string: 'retries = 3', new_string: 'retries = 5' }] },
      })) as CallToolResult;
      assert.equal(result.isError, false, JSON.stringify(result));
      assert.equal(fs.readFileSync(path.join(project, 'config.ts'), 'utf8'), 'export const retries = 5;\n');
      recordFigure('npx', `npx on the packed tarball served its first call ${((Date.now() - started) / 1000).toFixed(1)} s after start (offline install included); tarball ${(fs.statSync(tarball).size / 1024).toFixed(0)} KB`);
    } finally {
      await client.close();
    }
  });
});
