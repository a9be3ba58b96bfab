// Runs the integration suite in desktop VS Code through @vscode/test-electron, for machines that
// can download VS Code (`npm run test:electron`). Offline, scripts/vscode-test/run.sh runs the
// same suite in code-server instead.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

// By default the release code-server 4.100.3 ships, so both runners test the same VS Code; CI picks
// another (a version, or "stable") with MULTI_EDIT_VSCODE_VERSION.
const VSCODE_VERSION = process.env.MULTI_EDIT_VSCODE_VERSION || '1.100.3';
const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** A fresh copy of demo/workspace (or an empty folder), so the tests never edit the checkout. */
function copyDemoWorkspace(): string {
  // realpath: the workspace folder VS Code reports is the resolved path (macOS links /var).
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-electron-')));
  const demo = path.join(REPO_ROOT, 'demo', 'workspace');
  if (fs.existsSync(demo)) fs.cpSync(demo, workspace, { recursive: true });
  return workspace;
}

async function main(): Promise<void> {
  const workspace = copyDemoWorkspace();
  try {
    await runTests({
      version: VSCODE_VERSION,
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js'),
      extensionTestsEnv: { MULTI_EDIT_TEST_WORKSPACE: workspace },
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    });
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error('Integration tests in VS Code (electron) failed:', error);
  process.exit(1);
});
