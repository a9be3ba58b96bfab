/**
 * What a patch is answered with, through the built CLI and the MCP server (the SDK's own client):
 * hints that speak of patches, not of edits' strings; a ".." answered with the root the paths are
 * relative to; the failed file named in every text summary; a deleted file summarised in a dry run
 * unless the full diff is asked for; a bare "@@" after "*** Move to:"; and an empty name refused
 * as a malformed patch.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { EngineResponse, ErrorEnvelope } from '../../../src/core/contract/schemas';
import { parseCliResponse, runCli, type CliRun } from '../helpers/cliRun';
import { useMcpSession } from '../helpers/mcpSession';
import { envelopeOf, successOf } from '../helpers/requestScenarios';
import { useTempDir } from '../helpers/tempDir';

const EDIT_STRINGS_HINT = /old_string and new_string/;
const BIG_LINES = 3683;

describe('patch answers (CLI and MCP)', function () {
  this.timeout(60_000);
  const dir = useTempDir('patch-answers');

  function seed(): void {
    fs.mkdirSync(path.join(dir(), 'src'), { recursive: true });
    fs.writeFileSync(path.join(dir(), 'src', 'a.ts'), 'const a = 1;\nconst b = 2;\n');
    fs.writeFileSync(path.join(dir(), 'src', 'big.ts'), Array.from({ length: BIG_LINES }, (_, index) => `export const v${index} = ${index};\n`).join(''));
  }

  function cliPatch(text: string, ...args: string[]): CliRun {
    const file = path.join(dir(), 'change.patch');
    fs.writeFileSync(file, text);
    return runCli(['patch', ...args, file], { cwd: dir() });
  }

  const cliJson = (text: string, ...args: string[]): EngineResponse => parseCliResponse(cliPatch(text, ...args));

  describe('through the CLI', () => {
    beforeEach(seed);

    it('answers a malformed patch VALIDATION_FAILED with patch hints, never the hint about edits\' strings', () => {
      const envelope = envelopeOf(cliJson('*** Begin Patch\n*** Update File: src/a.ts\n@@\n-const a = 1;\n+const a = 3;\n*** Bogus\n'));
      assert.equal(envelope.error_code, 'VALIDATION_FAILED');
      assert.match(envelope.recovery_hints.join('\n'), /patch at the line named/);
      assert.doesNotMatch(envelope.recovery_hints.join('\n'), EDIT_STRINGS_HINT);
    });

    for (const [name, patch] of [
      ['an updated file', '*** Begin Patch\n*** Update File: ../outside.ts\n@@\n-x\n+y\n*** End Patch\n'],
      ['a move\'s destination', '*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: ../outside.ts\n*** End Patch\n'],
    ] as const) {
      it(`answers a ".." in ${name} PATH_TRAVERSAL that speaks of the root, not of absolute paths`, () => {
        const envelope = envelopeOf(cliJson(patch));
        assert.equal(envelope.error_code, 'PATH_TRAVERSAL');
        const hints = envelope.recovery_hints.join('\n');
        assert.match(hints, /relative to the root/);
        assert.doesNotMatch(hints, /absolute/);
      });
    }

    it('names the file that failed in the text summary of a rename applied twice (FILE_NOT_FOUND)', () => {
      const rename = '*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: src/c.ts\n@@\n-const a = 1;\n+const a = 3;\n*** End Patch\n';
      assert.equal(cliPatch(rename, '--no-history').status, 0);
      const again = cliPatch(rename, '--no-history', '--format', 'text');
      assert.equal(again.status, 1, again.stdout);
      const summary = again.stdout.split('\n').find((line) => line.startsWith('summary: '));
      assert.equal(summary, 'summary: fix src/a.ts (FILE_NOT_FOUND); 1 edit skipped', again.stdout);
    });

    it('names every failed file in the text summary of a unified diff that misses two files', () => {
      const diff = ['--- a/src/gone.ts', '+++ b/src/gone.ts', '@@ -1 +1 @@', '-x', '+y', '--- a/src/also-gone.ts', '+++ b/src/also-gone.ts', '@@ -1 +1 @@', '-x', '+y', ''].join('\n');
      const run = cliPatch(diff, '--format', 'text');
      const summary = run.stdout.split('\n').find((line) => line.startsWith('summary: '));
      assert.equal(summary, 'summary: fix src/gone.ts (FILE_NOT_FOUND), src/also-gone.ts (FILE_NOT_FOUND); 2 edits skipped', run.stdout);
    });

    it('summarises a deleted file in a dry run, and prints every line with --full-diff', () => {
      const deletion = '*** Begin Patch\n*** Delete File: src/big.ts\n*** End Patch\n';
      const summarised = cliPatch(deletion, '--dry-run', '--format', 'text');
      assert.equal(summarised.status, 0, summarised.stdout);
      assert.ok(summarised.stdout.includes('delete src/big.ts (3,683 lines; the full diff shows them)'), summarised.stdout);
      assert.ok(summarised.stdout.split('\n').length < 10, summarised.stdout);
      const full = cliPatch(deletion, '--dry-run', '--full-diff', '--format', 'text');
      assert.ok(full.stdout.includes('@@ -1,3683 +0,0 @@'), full.stdout.slice(0, 500));
      assert.ok(full.stdout.includes(`-export const v${BIG_LINES - 1} = ${BIG_LINES - 1};`));
      const json = successOf(cliJson(deletion, '--dry-run'));
      assert.equal(json.files[0].diff, 'delete src/big.ts (3,683 lines; the full diff shows them)\n');
      assert.ok(fs.existsSync(path.join(dir(), 'src', 'big.ts')), 'a dry run writes nothing');
    });

    it('accepts a bare "@@" after "*** Move to:": the file moves unchanged', () => {
      const success = successOf(cliJson('*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: src/moved.ts\n@@\n*** End Patch\n'));
      assert.equal(success.files[0].operation, 'move');
      assert.equal(fs.readFileSync(path.join(dir(), 'src', 'moved.ts'), 'utf8'), 'const a = 1;\nconst b = 2;\n');
      assert.ok(!fs.existsSync(path.join(dir(), 'src', 'a.ts')));
    });

    it('still refuses a bare "@@" under an update that does not move', () => {
      assert.equal(envelopeOf(cliJson('*** Begin Patch\n*** Update File: src/a.ts\n@@\n*** End Patch\n')).error_code, 'VALIDATION_FAILED');
    });

    for (const [name, patch] of [
      ['"*** Update File: " with no name', '*** Begin Patch\n*** Update File: \n@@\n-const a = 1;\n+const a = 3;\n*** End Patch\n'],
      ['"*** Move to: " with no name', '*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: \n@@\n-const a = 1;\n+const a = 3;\n*** End Patch\n'],
      ['"+++ b/" in a unified diff', '--- a/src/a.ts\n+++ b/\n@@ -1 +1 @@\n-const a = 1;\n+const a = 3;\n'],
      ['"./" as the name', '*** Begin Patch\n*** Update File: ./\n@@\n-const a = 1;\n+const a = 3;\n*** End Patch\n'],
    ] as const) {
      it(`answers an empty name (${name}) VALIDATION_FAILED at its patch line, as docs/patch.md says`, () => {
        const envelope = envelopeOf(cliJson(patch));
        assert.equal(envelope.error_code, 'VALIDATION_FAILED');
        assert.match(envelope.message, /^patch line \d+: expected the path .*found an empty name/);
        assert.ok(envelope.validation_issues?.[0]?.patch_line !== undefined);
        assert.doesNotMatch(envelope.recovery_hints.join('\n'), EDIT_STRINGS_HINT);
        assert.equal(fs.readFileSync(path.join(dir(), 'src', 'a.ts'), 'utf8'), 'const a = 1;\nconst b = 2;\n');
      });
    }
  });

  describe('through the MCP server', () => {
    const root = useTempDir('patch-answers-mcp', { per: 'suite' });
    const session = useMcpSession(root);

    beforeEach(() => {
      fs.rmSync(path.join(root(), 'src'), { recursive: true, force: true });
      fs.mkdirSync(path.join(root(), 'src'));
      fs.writeFileSync(path.join(root(), 'src', 'a.ts'), 'const a = 1;\n');
      fs.writeFileSync(path.join(root(), 'src', 'big.ts'), Array.from({ length: BIG_LINES }, (_, index) => `line ${index}\n`).join(''));
    });

    const call = (args: unknown): Promise<{ result: CallToolResult; response: EngineResponse }> => session().call('multi_edit_patch', args);
    const textOf = (result: CallToolResult): string => (result.content[0] as { text: string }).text;

    it('answers a malformed patch and a call of the wrong shape with patch hints', async () => {
      const malformed = envelopeOf((await call({ patch: '*** Begin Patch\n*** Update File: \n@@\n-x\n+y\n*** End Patch\n' })).response);
      assert.equal(malformed.error_code, 'VALIDATION_FAILED');
      assert.doesNotMatch(malformed.recovery_hints.join('\n'), EDIT_STRINGS_HINT);
      const shape: ErrorEnvelope = envelopeOf((await call({ patch: 42 })).response);
      assert.equal(shape.error_code, 'VALIDATION_FAILED');
      assert.match(shape.recovery_hints.join('\n'), /"patch": "<the patch text>"/);
      assert.doesNotMatch(shape.recovery_hints.join('\n'), EDIT_STRINGS_HINT);
    });

    it('answers a ".." with the root, and names the failed file of a repeated rename in the text it returns', async () => {
      const traversal = envelopeOf((await call({ patch: '*** Begin Patch\n*** Delete File: ../x.ts\n*** End Patch\n' })).response);
      assert.equal(traversal.error_code, 'PATH_TRAVERSAL');
      assert.doesNotMatch(traversal.recovery_hints.join('\n'), /absolute/);
      const rename = { patch: '*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: src/c.ts\n@@\n*** End Patch\n' };
      successOf((await call(rename)).response);
      const again = await call(rename);
      assert.equal(envelopeOf(again.response).error_code, 'FILE_NOT_FOUND');
      assert.match(textOf(again.result).split('\n')[0], /src\/a\.ts \(FILE_NOT_FOUND\)/);
    });

    it('summarises a deleted file in a dry run unless full_diff is set', async () => {
      const deletion = '*** Begin Patch\n*** Delete File: src/big.ts\n*** End Patch\n';
      const summarised = successOf((await call({ patch: deletion, dry_run: true })).response);
      assert.equal(summarised.files[0].diff, 'delete src/big.ts (3,683 lines; the full diff shows them)\n');
      const full = successOf((await call({ patch: deletion, dry_run: true, full_diff: true })).response);
      assert.ok(full.files[0].diff?.includes('-line 3682\n'), full.files[0].diff?.slice(-200));
      assert.ok(fs.existsSync(path.join(root(), 'src', 'big.ts')));
    });
  });
});
