// Runs a suite of tests inside a real VS Code extension host, offline: code-server serves VS Code,
// Chromium opens the workbench with the suite's extension under development and its compiled
// mocha entry in the `payload`, and the tests report through a results file. The suite is the
// first argument:
// - `integration` (the default): this checkout under development, test/integration; the test-only
//   extensions the VS Code version supports are installed beside it (extensions.mjs).
// - `installed`: Multi-Edit packaged (`npm run package`) and installed from its .vsix as a user
//   installs it, so it runs in production mode, and the stranger extension of test/installed under
//   development: what another extension can reach of Multi-Edit.
//
// MULTI_EDIT_VSCODE picks the VS Code version (versions.mjs; default: the newest).
//
// Prints each test, then `N passed, N failed`; exits non-zero on a failed test, a timeout
// (TEST_TIMEOUT_S, default 600) or when no test ran. Logs of a failed run are kept in
// test-artifacts/<suite>-<version>/; the counts go to test-artifacts/results/<suite>-<version>.json.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openBrowser } from './browser.mjs';
import { ARTIFACTS_DIR, REPO_ROOT, createTempRun, installExtension, saveLogs, startCodeServer } from './codeServer.mjs';
import { installTestExtensions } from './extensions.mjs';
import { selectVersion } from './versions.mjs';

const VERSION = selectVersion();
const TIMEOUT_S = Number(process.env.TEST_TIMEOUT_S || 600);
const STRANGER_SOURCE = path.join(REPO_ROOT, 'test', 'installed');
const STRANGER_COMPILED = path.join(REPO_ROOT, 'out', 'test', 'installed');

/**
 * `prepare(sandbox)` readies the sandbox before code-server starts and returns the extension under
 * development, the mocha entry, the extension host's extra env and what to say about the run.
 */
const SUITES = {
  integration: {
    title: 'Integration tests',
    testsEntry: path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js'),
    prepare(sandbox) {
      const testExtensions = installTestExtensions(sandbox, VERSION);
      const note = testExtensions.names.length > 0 ? `with the test extension ${testExtensions.names.join(', ')}` : undefined;
      return { developmentPath: REPO_ROOT, env: testExtensions.env, note };
    },
  },
  installed: {
    title: 'Multi-Edit installed from its .vsix, seen by another extension',
    testsEntry: path.join(STRANGER_COMPILED, 'index.js'),
    async prepare(sandbox) {
      const vsix = path.join(sandbox.root, 'multi-edit.vsix');
      const packaged = spawnSync('npm', ['run', 'package', '--', '--out', vsix], { cwd: REPO_ROOT, encoding: 'utf8' });
      if (packaged.status !== 0) throw new Error(`npm run package failed:\n${packaged.stdout}${packaged.stderr}`);
      await installExtension(sandbox, VERSION, vsix);
      // The stranger knows nothing of Multi-Edit's files: an empty folder, so nothing activates Multi-Edit before it does.
      fs.rmSync(sandbox.workspace, { recursive: true, force: true });
      fs.mkdirSync(sandbox.workspace);
      fs.copyFileSync(path.join(STRANGER_SOURCE, 'package.json'), path.join(STRANGER_COMPILED, 'package.json'));
      return { developmentPath: STRANGER_COMPILED, env: { MULTI_EDIT_TEST_EXTENSIONS_DIR: sandbox.extensions }, note: `with ${path.basename(vsix)} installed` };
    },
  },
};

const SUITE_NAME = process.argv[2] ?? 'integration';
const SUITE = SUITES[SUITE_NAME];
if (!SUITE) throw new Error(`unknown suite ${SUITE_NAME}; one of ${Object.keys(SUITES).join(', ')}`);
const LOG_DIR = path.join(ARTIFACTS_DIR, `${SUITE_NAME}-${VERSION.vscode}`);
const SUMMARY_FILE = path.join(ARTIFACTS_DIR, 'results', `${SUITE_NAME}-${VERSION.vscode}.json`);
const PROGRESS_INTERVAL_MS = 500;
// The workbench logs this when the test runner path is not a vscode-remote:// URI it can serve.
const NO_TEST_HOST = /No extension host found that can launch the test runner/;

/** The record test/shared/hostSuite.ts keeps in the results file; null until it is written. */
function readRecord(resultsFile) {
  try {
    return JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  } catch {
    return null;
  }
}

/** Prints each finished test once, as the results file grows. */
function createProgressPrinter(resultsFile) {
  let printed = 0;
  return () => {
    const tests = readRecord(resultsFile)?.tests ?? [];
    for (const test of tests.slice(printed)) {
      if (test.state === 'passed') {
        console.log(`  ok    ${test.title} (${test.durationMs} ms)`);
      } else if (test.state === 'skipped') {
        console.log(`  skip  ${test.title}`);
      } else {
        console.log(`  FAIL  ${test.title}`);
        for (const line of String(test.error).split('\n').slice(0, 8)) console.log(`          ${line}`);
      }
    }
    printed = Math.max(printed, tests.length);
  };
}

/** Opens the workbench and resolves with how the test run ended: { exitCode } or { problem }. */
async function runInWorkbench(server, browser, sandbox, developmentPath) {
  const { page, log } = browser;
  let settle;
  const ended = new Promise((resolve) => { settle = resolve; });
  // The workbench calls this when the extension tests end.
  await page.exposeFunction('codeAutomationExit', (exitCode) => settle({ exitCode }));
  page.on('console', (message) => {
    if (NO_TEST_HOST.test(message.text())) settle({ problem: `the workbench could not start the tests: ${message.text()}` });
  });
  page.on('crash', () => settle({ problem: 'the browser page crashed' }));
  const timer = setTimeout(() => settle({ problem: `timed out after ${TIMEOUT_S} s (TEST_TIMEOUT_S)` }), TIMEOUT_S * 1000);
  const url = server.workbenchUrl(sandbox.workspace, [
    ['extensionDevelopmentPath', server.remoteUri(developmentPath)],
    ['extensionTestsPath', server.remoteUri(SUITE.testsEntry)],
  ]);
  log(`[goto] ${url}`);
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  const outcome = await ended;
  clearTimeout(timer);
  return outcome;
}

/** Run-level problems count as failures, so a non-zero exit never closes on "0 failed". */
function tally(outcome, record) {
  const problems = [];
  if (outcome.problem) {
    problems.push(record?.running ? `${outcome.problem}, while running: ${record.running}` : outcome.problem);
  } else if (!record) {
    problems.push('the tests wrote no results file (see the extension host log)');
  } else if (record.passed + record.failed === 0) {
    problems.push('no tests ran');
  } else if (outcome.exitCode !== 0 && record.failed === 0) {
    problems.push(`the extension host test run ended with exit code ${outcome.exitCode}`);
  }
  return { passed: record?.passed ?? 0, failed: (record?.failed ?? 0) + problems.length, skipped: record?.skipped ?? 0, problems };
}

async function main() {
  fs.rmSync(LOG_DIR, { recursive: true, force: true });
  if (!fs.existsSync(SUITE.testsEntry)) {
    throw new Error(`${path.relative(REPO_ROOT, SUITE.testsEntry)} is missing; run \`npm run compile-tests\` first.`);
  }
  const started = Date.now();
  const run = createTempRun(SUITE_NAME);
  const { sandbox } = run;
  const resultsFile = path.join(sandbox.root, 'results.json');

  let outcome;
  const printProgress = createProgressPrinter(resultsFile);
  const progress = setInterval(printProgress, PROGRESS_INTERVAL_MS);
  try {
    console.log(`${SUITE.title} in a VS Code ${VERSION.vscode} extension host (code-server ${VERSION.codeServer} + Chromium, timeout ${TIMEOUT_S} s)`);
    const host = await SUITE.prepare(sandbox);
    if (host.note) console.log(`  ${host.note}`);
    run.server = await startCodeServer(sandbox, VERSION, {
      env: {
        MULTI_EDIT_TEST_RESULTS: resultsFile,
        MULTI_EDIT_TEST_WORKSPACE: sandbox.workspace,
        MULTI_EDIT_TEST_VSCODE: VERSION.vscode,
        // The request history of this run only (removed with the sandbox): never the user's, whose size and records would change what the tests see.
        MULTI_EDIT_HISTORY_DIR: process.env.MULTI_EDIT_HISTORY_DIR ?? path.join(sandbox.root, 'history'),
        ...host.env,
      },
      payload: true,
    });
    run.browser = await openBrowser(sandbox.browserLog);
    outcome = await runInWorkbench(run.server, run.browser, sandbox, host.developmentPath);
  } catch (error) {
    outcome = { problem: `the runner failed: ${error?.stack ?? error}` };
  } finally {
    clearInterval(progress);
  }
  printProgress();

  const { passed, failed, skipped, problems } = tally(outcome, readRecord(resultsFile));
  for (const problem of problems) console.log(`  FAIL  ${problem}`);
  if (failed > 0) {
    await run.browser?.page.screenshot({ path: path.join(LOG_DIR, 'workbench.png') }).catch(() => undefined);
  }
  await run.stop();
  if (failed > 0) {
    saveLogs(sandbox, LOG_DIR);
    if (fs.existsSync(resultsFile)) fs.copyFileSync(resultsFile, path.join(LOG_DIR, 'results.json'));
    console.log(`logs: ${path.relative(REPO_ROOT, LOG_DIR)}/`);
  }
  fs.rmSync(sandbox.root, { recursive: true, force: true });
  console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  finish(passed, failed, skipped);
}

/** Closes the run: the counts for the aggregator, the closing line, the exit code. */
function finish(passed, failed, skipped = 0) {
  fs.mkdirSync(path.dirname(SUMMARY_FILE), { recursive: true });
  fs.writeFileSync(SUMMARY_FILE, `${JSON.stringify({ passed, failed, skipped })}\n`);
  console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  process.exitCode = failed > 0 ? 1 : 0;
}

try {
  await main();
} catch (error) {
  console.error(`  FAIL  ${error?.message ?? error}`);
  finish(0, 1);
}
