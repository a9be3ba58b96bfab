/** Runs the built CLI (dist/cli.js) as a user would, and runs request scenarios through it. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { responseSchema, type EngineResponse } from '../../../src/core/contract/schemas';
import { assertHygienic } from '../../shared/hygiene';
import { seedScenario, type RequestScenario, type ScenarioFiles } from './requestScenarios';

export const REPO_ROOT = path.resolve(__dirname, '../../../..');
export const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], options: { readonly cwd: string; readonly input?: string; readonly env?: NodeJS.ProcessEnv }): CliRun {
  const env = options.env ? { ...process.env, ...options.env } : process.env;
  // Bounded: a run that hangs (a stuck file system under test) fails its test instead of the suite.
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd, input: options.input, encoding: 'utf8', env, timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The JSON response on stdout, parsed by the response schema and checked for leaks. */
export function parseCliResponse(run: CliRun): EngineResponse {
  const response = responseSchema.parse(JSON.parse(run.stdout));
  assertHygienic(response);
  return response;
}

export interface ScenarioRun {
  readonly run: CliRun;
  readonly files: ScenarioFiles;
}

/**
 * Seeds `dir` with the scenario's files and runs its request with `multi-edit apply`
 * from `dir`. Request files go to `requestDir`, so `dir` holds only the scenario's files.
 */
export function runScenarioThroughCli(scenario: RequestScenario, dir: string, requestDir: string, extraArgs: readonly string[] = []): ScenarioRun {
  const files = seedScenario(dir, scenario);
  const json = JSON.stringify(scenario.request(files.at));
  const args = ['apply', ...(scenario.dryRun ? ['--dry-run'] : []), ...extraArgs];
  if (scenario.via === 'stdin') {
    return { run: runCli([...args, '-'], { cwd: dir, input: json }), files };
  }
  const requestFile = path.join(requestDir, 'request.json');
  fs.writeFileSync(requestFile, scenario.via === 'bom-file' ? `\uFEFF${json}` : json);
  return { run: runCli([...args, requestFile], { cwd: dir }), files };
}
