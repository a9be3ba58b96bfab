// Runs the UI scenarios (test/ui/*.ui.mjs) in real Chromium against the VS Code workbench served
// by code-server, with this extension loaded on a fresh copy of demo/workspace.
//
// MULTI_EDIT_VSCODE picks the VS Code version (scripts/vscode-test/versions.mjs; default: the
// newest). Multi-Edit is installed from this checkout, with the test extensions that version
// supports (scripted model: 1.104 and later).
//
// A scenario module exports `name`, `run(context)` and optionally `needs(context)`, which returns
// why the scenario does not apply to this run (it is then skipped), or undefined. The context:
// `page` (playwright), `workspace` (the folder's path on disk), `ui` (the helpers of
// workbench.mjs), `artifacts` (test-artifacts/ui-<version>), `vscodeVersion`, `scriptFile` (where
// the scripted model reads its script) and `pickModelKey` (the key that opens the chat with it
// picked); the last two are undefined without the scripted model. Arguments filter scenarios by
// file name. Prints each scenario, then `N passed, N failed`; exits non-zero on a failure or when
// no scenario ran. UI_SCENARIO_TIMEOUT_S (default 120) bounds each scenario.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBrowser, waitForWorkbench } from '../../../scripts/vscode-test/browser.mjs';
import { ARTIFACTS_DIR, REPO_ROOT, createTempRun, saveLogs, startCodeServer } from '../../../scripts/vscode-test/codeServer.mjs';
import { installMultiEdit, installTestExtensions } from '../../../scripts/vscode-test/extensions.mjs';
import { selectVersion } from '../../../scripts/vscode-test/versions.mjs';
import { createWorkbenchUi } from './workbench.mjs';

const VERSION = selectVersion();
const SCENARIO_DIR = path.join(REPO_ROOT, 'test', 'ui');
const UI_ARTIFACTS = path.join(ARTIFACTS_DIR, `ui-${VERSION.vscode}`);
const SUMMARY_FILE = path.join(ARTIFACTS_DIR, 'results', `ui-${VERSION.vscode}.json`);
const SCENARIO_TIMEOUT_S = Number(process.env.UI_SCENARIO_TIMEOUT_S || 120);

function findScenarios(filters) {
  return fs.readdirSync(SCENARIO_DIR)
    .filter((file) => file.endsWith('.ui.mjs'))
    .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
    .sort()
    .map((file) => path.join(SCENARIO_DIR, file));
}

async function loadScenario(file) {
  const module = await import(pathToFileURL(file).href);
  const scenario = module.default ?? module;
  if (typeof scenario.name !== 'string' || typeof scenario.run !== 'function') {
    throw new Error(`${path.relative(REPO_ROOT, file)} must export \`name\` and \`run\``);
  }
  return scenario;
}

function withTimeout(promise, seconds, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** Runs one scenario file; returns 'passed', 'failed' or 'skipped'. Failures leave a screenshot. */
async function runScenario(file, context) {
  const started = Date.now();
  let title = path.basename(file);
  try {
    const scenario = await loadScenario(file);
    title = scenario.name;
    const missing = scenario.needs?.(context);
    if (missing) {
      console.log(`  skip  ${title}: ${missing}`);
      return 'skipped';
    }
    await context.ui.dismissTransientUi();
    await withTimeout(scenario.run(context), SCENARIO_TIMEOUT_S, `"${title}"`);
    console.log(`  ok    ${title} (${Date.now() - started} ms)`);
    return 'passed';
  } catch (error) {
    console.log(`  FAIL  ${title}`);
    for (const line of String(error?.stack ?? error).split('\n').slice(0, 8)) console.log(`          ${line}`);
    await context.ui.screenshot(`failed-${slug(title)}`).catch(() => undefined);
    return 'failed';
  }
}

async function runAll(scenarioFiles) {
  const run = createTempRun('ui');
  const { sandbox } = run;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    // Installed, not loaded through the payload, so the workbench behaves as a person's does.
    installMultiEdit(sandbox);
    const testExtensions = installTestExtensions(sandbox, VERSION);
    run.server = await startCodeServer(sandbox, VERSION, { env: testExtensions.env });
    run.browser = await openBrowser(sandbox.browserLog);
    const { page } = run.browser;
    const url = run.server.workbenchUrl(sandbox.workspace);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await waitForWorkbench(page);
    const context = {
      page,
      workspace: sandbox.workspace,
      ui: createWorkbenchUi(page, UI_ARTIFACTS),
      artifacts: UI_ARTIFACTS,
      vscodeVersion: VERSION.vscode,
      scriptFile: testExtensions.scriptFile,
      pickModelKey: testExtensions.pickModelKey,
    };
    for (const file of scenarioFiles) {
      counts[await runScenario(file, context)]++;
    }
  } catch (error) {
    console.log(`  FAIL  opening the workbench: ${error?.stack ?? error}`);
    counts.failed++;
  }
  await run.stop();
  if (counts.failed > 0) {
    saveLogs(sandbox, UI_ARTIFACTS);
    console.log(`logs and screenshots: ${path.relative(REPO_ROOT, UI_ARTIFACTS)}/`);
  }
  fs.rmSync(sandbox.root, { recursive: true, force: true });
  return counts;
}

async function main() {
  fs.rmSync(UI_ARTIFACTS, { recursive: true, force: true });
  fs.mkdirSync(UI_ARTIFACTS, { recursive: true });
  const scenarioFiles = findScenarios(process.argv.slice(2));
  console.log(`UI tests in the VS Code ${VERSION.vscode} workbench (code-server ${VERSION.codeServer} + Chromium): ${scenarioFiles.length} scenario(s)`);
  const started = Date.now();
  let counts = { passed: 0, failed: 1, skipped: 0 };
  if (scenarioFiles.length === 0) console.log('  FAIL  no UI scenarios (test/ui/*.ui.mjs) to run');
  else counts = await runAll(scenarioFiles);
  const { passed, failed, skipped } = counts;
  fs.mkdirSync(path.dirname(SUMMARY_FILE), { recursive: true });
  fs.writeFileSync(SUMMARY_FILE, `${JSON.stringify({ passed, failed, skipped })}\n`);
  console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  process.exitCode = failed > 0 ? 1 : 0;
}

await main();
