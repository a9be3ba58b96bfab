/**
 * `multi-edit patch --root` against another process that swaps a directory under the root
 * for a symbolic link to a folder outside, while each call adds a new file in that
 * directory. Counts what lands outside the root: files, sidecars (lock, draft, `.new`)
 * and bytes. Run by the CLI attack test, and on its own (`node out/test/shared/cliPatchRace.js
 * CALLS`) to measure a build.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startDirectorySwapper } from './directorySwapper';

export interface RaceOutcome {
  readonly calls: number;
  /** Calls by exit code and error code, e.g. "ok" or "1 OUTSIDE_WORKSPACE". */
  readonly tally: ReadonlyMap<string, number>;
  /** Names that appeared outside the root, sidecars included. */
  readonly namesOutside: readonly string[];
  readonly bytesOutside: number;
  /** Files added inside the root, as the successes promise. */
  readonly addedInside: number;
}

/** Runs `calls` patches, `parallel` at a time, with the built CLI at `cli`. */
export async function raceCliPatches(cli: string, calls: number, parallel = 3): Promise<RaceOutcome> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-cli-race-')));
  const root = path.join(base, 'root');
  const out = path.join(base, 'out');
  const swapped = path.join(root, 'swapped');
  const held = path.join(root, 'held');
  fs.mkdirSync(swapped, { recursive: true });
  fs.mkdirSync(out);
  fs.writeFileSync(path.join(out, 'kept.txt'), 'outside\n');
  const tally = new Map<string, number>();
  const swapper = startDirectorySwapper(swapped, held, out);
  try {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < calls) {
        const call = next++;
        const patch = `*** Begin Patch\n*** Add File: swapped/new-${call}.txt\n+written by call ${call}\n*** End Patch\n`;
        const outcome = await runPatch(cli, root, patch);
        tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
  } finally {
    await swapper.stop();
  }
  const namesOutside = fs.readdirSync(out).filter((name) => name !== 'kept.txt');
  const bytesOutside = namesOutside.reduce((sum, name) => sum + fs.statSync(path.join(out, name)).size, 0)
    + (fs.readFileSync(path.join(out, 'kept.txt'), 'utf8') === 'outside\n' ? 0 : fs.statSync(path.join(out, 'kept.txt')).size);
  const addedInside = fs.readdirSync(swapped).filter((name) => /^new-\d+\.txt$/.test(name)).length;
  fs.rmSync(base, { recursive: true, force: true });
  return { calls, tally, namesOutside, bytesOutside, addedInside };
}

function runPatch(cli: string, root: string, patch: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, 'patch', '--root', root, '-'], { stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.once('close', (status) => resolve(outcomeOf(status, stdout)));
    child.stdin.end(patch);
  });
}

function outcomeOf(status: number | null, stdout: string): string {
  if (status === 0) {
    return 'ok';
  }
  try {
    return `${status} ${(JSON.parse(stdout) as { error_code?: string }).error_code ?? 'no code'}`;
  } catch {
    return `${status} no JSON`;
  }
}

export function describeRace(outcome: RaceOutcome): string {
  const counts = [...outcome.tally].sort().map(([code, count]) => `${count} ${code}`).join(', ');
  return `${outcome.calls} calls (${counts}); ${outcome.addedInside} files added inside; `
    + `${outcome.namesOutside.length} names and ${outcome.bytesOutside} bytes outside`;
}

if (require.main === module) {
  const calls = Number(process.argv[2] ?? 500);
  const cli = path.resolve(__dirname, '../../../dist/cli.js');
  void raceCliPatches(cli, calls).then((outcome) => {
    console.log(describeRace(outcome));
    for (const name of outcome.namesOutside.slice(0, 20)) {
      console.log(`  outside: ${name}`);
    }
  });
}
