/**
 * SIGINT and SIGTERM at every stage of a CLI run, sent by a real process to a real one:
 * while the file is read, while the patch is planned, while the syntax gate parses, and
 * while the commit holds its staged files. Each run ends CANCELLED (exit 1) with every
 * file as it was and no sidecar left. The stage is reached through the test hook
 * MULTI_EDIT_TEST_HOLD (docs/reliability.md); planning is held by its own size (20,000
 * hunks on a 2.4 MB file). The time from the signal to the exit is printed.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { responseSchema } from '../../../src/core/contract/schemas';
import { CLI } from '../helpers/cliRun';
import { useTempDir } from '../helpers/tempDir';

const STAGES = ['read', 'plan', 'gate', 'commit'] as const;
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

describe('signals at every stage of a CLI run', function () {
  this.timeout(300_000);
  const dir = useTempDir('signal-stages');

  /** The files a run may touch: a TypeScript file for the gate, a large text file for planning. */
  function seed(): Map<string, string> {
    const lines = Array.from({ length: 230_000 }, (_, index) => `v${index}=${index % 97}`);
    const files = new Map([
      ['app.ts', 'export const answer: number = 41;\n'],
      ['big.txt', `${lines.join('\n')}\n`],
    ]);
    for (const [name, text] of files) {
      fs.writeFileSync(path.join(dir(), name), text);
    }
    const hunks = Array.from({ length: 20_000 }, (_, index) => `@@\n-${lines[index * 11]}\n+${lines[index * 11]}#`).join('\n');
    fs.writeFileSync(path.join(dir(), 'plan.patch'), `*** Begin Patch\n*** Update File: big.txt\n${hunks}\n*** End Patch\n`);
    fs.writeFileSync(path.join(dir(), 'small.patch'), '*** Begin Patch\n*** Update File: app.ts\n@@\n-export const answer: number = 41;\n+export const answer: number = 42;\n*** End Patch\n');
    return files;
  }

  for (const stage of STAGES) {
    for (const signal of SIGNALS) {
      it(`${signal} while it ${stage === 'read' ? 'reads' : stage === 'plan' ? 'plans' : stage === 'gate' ? 'runs the syntax gate' : 'commits'}: CANCELLED, nothing written`, async () => {
        const files = seed();
        const child = spawn(process.execPath, [CLI, 'patch', stage === 'plan' ? 'plan.patch' : 'small.patch'], {
          cwd: dir(), env: { ...process.env, MULTI_EDIT_TEST_HOLD: stage }, stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8');
        });
        const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
        await new Promise<void>((resolve) => {
          child.stderr.on('data', (chunk: Buffer) => {
            stderr += chunk.toString('utf8');
            if (stderr.includes(`multi-edit: test hold: ${stage}`)) {
              resolve();
            }
          });
        });
        const sent = performance.now();
        child.kill(signal);
        const status = await exited;
        const afterMs = performance.now() - sent;
        const response = responseSchema.parse(JSON.parse(stdout));
        console.log(`      ${signal} at ${stage}: ${response.success ? 'success' : response.error_code} ${Math.round(afterMs)} ms after the signal`);
        assert.equal(response.success ? 'success' : response.error_code, 'CANCELLED', stdout.slice(0, 400));
        assert.equal(status, 1);
        for (const [name, text] of files) {
          assert.equal(fs.readFileSync(path.join(dir(), name), 'utf8'), text, `${name} is unchanged`);
        }
        assert.deepEqual(fs.readdirSync(dir()).filter((name) => name.includes('multi-edit')), [], 'no sidecar is left');
      });
    }
  }
});
