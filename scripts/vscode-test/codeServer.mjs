// Runs code-server (VS Code in the browser, at a version of versions.json) from the .vscode-test
// cache in a throw-away sandbox: its own HOME/XDG folders, user settings, extensions and workspace,
// and its own process group, so stopping it ends every process it started.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeServerDir, nodeBinary } from './versions.mjs';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CACHE_DIR = path.join(REPO_ROOT, '.vscode-test');
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'test-artifacts');
const DEMO_WORKSPACE = path.join(REPO_ROOT, 'demo', 'workspace');
const STARTUP_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;

// Quiet, deterministic workbench: no telemetry, welcome pages, trust prompts or update checks.
const USER_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'chat.commandCenter.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
};

function codeServerEntry(version) {
  return path.join(codeServerDir(version), 'node_modules/code-server/out/node/entry.js');
}

/** Fails with the command that fixes it when the cache holds no code-server of this version. */
export function assertCodeServerInstalled(version) {
  for (const file of [codeServerEntry(version), nodeBinary(version)]) {
    if (!fs.existsSync(file)) {
      throw new Error(`VS Code ${version.vscode} is not installed in .vscode-test/ (no ${path.relative(REPO_ROOT, file)}); `
        + `run \`MULTI_EDIT_VSCODE=${version.vscode} npm run setup:vscode\` first.`);
    }
  }
}

/**
 * Lays out a sandbox in `root` (emptied first): HOME and XDG folders, user data with quiet settings,
 * an extensions folder, and `workspace`, a fresh copy of demo/workspace (empty when there is none).
 */
export function createSandbox(root) {
  fs.rmSync(root, { recursive: true, force: true });
  const sandbox = {
    root,
    home: path.join(root, 'home'),
    userData: path.join(root, 'user-data'),
    extensions: path.join(root, 'extensions'),
    workspace: path.join(root, 'workspace'),
    codeServerLog: path.join(root, 'code-server.log'),
    browserLog: path.join(root, 'browser-console.log'),
  };
  for (const dir of [sandbox.home, path.join(sandbox.userData, 'User'), sandbox.extensions]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  fs.writeFileSync(path.join(sandbox.userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
  copyDemoWorkspace(sandbox.workspace);
  return sandbox;
}

/** Makes `dest` a fresh copy of demo/workspace (an empty folder when there is none). */
export function copyDemoWorkspace(dest) {
  fs.rmSync(dest, { recursive: true, force: true });
  if (fs.existsSync(DEMO_WORKSPACE)) fs.cpSync(DEMO_WORKSPACE, dest, { recursive: true });
  else fs.mkdirSync(dest, { recursive: true });
}

/** A sandbox in a new temp folder; `label` names the folder. */
export function createTempSandbox(label) {
  return createSandbox(fs.mkdtempSync(path.join(os.tmpdir(), `multi-edit-${label}-`)));
}

/**
 * A run in a new temp sandbox (see createTempSandbox). Set `server` and `browser` as they start;
 * `stop()` closes the browser, then stops code-server. Ctrl+C (or SIGTERM/SIGHUP) stops them and
 * removes the sandbox.
 */
export function createTempRun(label) {
  const run = {
    sandbox: createTempSandbox(label),
    server: undefined,
    browser: undefined,
    async stop() {
      await run.browser?.close();
      await run.server?.stop();
    },
  };
  stopOnSignals(async () => {
    await run.stop();
    fs.rmSync(run.sandbox.root, { recursive: true, force: true });
  });
  return run;
}

/** Copies the sandbox's logs (code-server, browser console, VS Code's own logs) into `dir`. */
export function saveLogs(sandbox, dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (const file of [sandbox.codeServerLog, sandbox.browserLog]) {
    if (fs.existsSync(file)) fs.copyFileSync(file, path.join(dir, path.basename(file)));
  }
  const vscodeLogs = path.join(sandbox.userData, 'logs');
  if (fs.existsSync(vscodeLogs)) fs.cpSync(vscodeLogs, path.join(dir, 'vscode-logs'), { recursive: true });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// A shell inside another VS Code (its terminal sets VSCODE_IPC_HOOK_CLI and friends) would make
// code-server hand the folder to that instance instead of serving its own.
function sandboxEnv(sandbox, extraEnv) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VSCODE_')));
  delete env.ELECTRON_RUN_AS_NODE;
  return {
    ...env,
    HOME: sandbox.home,
    XDG_CONFIG_HOME: path.join(sandbox.home, '.config'),
    XDG_DATA_HOME: path.join(sandbox.home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(sandbox.home, '.cache'),
    XDG_STATE_HOME: path.join(sandbox.home, '.local', 'state'),
    EXTENSIONS_GALLERY: '{}', // no marketplace: it is unreachable and not needed
    ...extraEnv,
  };
}

function isGroupAlive(groupId) {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(groupId, signal) {
  try {
    process.kill(-groupId, signal);
  } catch {
    // the group is already gone
  }
}

async function waitUntil(predicate, timeoutMs, intervalMs = 100) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return false;
}

async function isHealthy(origin) {
  try {
    const response = await fetch(`${origin}/healthz`);
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Starts code-server of `version` (an entry of versions.json) on 127.0.0.1 (`port`, or a free one)
 * with auth off, as the leader of a new process group, and resolves once it answers /healthz.
 * `env` reaches the extension host too. `payload`: the run opens the workbench with a `payload`
 * (an extension under development, extension tests). Newer builds honour it only with the
 * smoke-test driver on, which also hides every notification toast, so runs that check what a
 * person sees install the extension instead (extensions.mjs).
 * @returns {{ host: string, origin: string, groupId: number, exited: Promise<number | null>,
 *   remoteUri(fsPath: string): string, workbenchUrl(folder: string, payload?: [string, string][]): string,
 *   stop(): Promise<void> }}
 */
export async function startCodeServer(sandbox, version, { env = {}, port, payload = false } = {}) {
  assertCodeServerInstalled(version);
  port ??= await freePort();
  const host = `127.0.0.1:${port}`;
  const origin = `http://${host}`;
  const log = fs.openSync(sandbox.codeServerLog, 'a');
  const child = spawn(nodeBinary(version), [
    codeServerEntry(version),
    '--bind-addr', host,
    '--auth', 'none',
    '--config', path.join(sandbox.root, 'code-server.yaml'),
    '--user-data-dir', sandbox.userData,
    '--extensions-dir', sandbox.extensions,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    // Older builds honour the payload without it, and reject --vscode-option.
    ...(payload && version.smokeTestDriverOption ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
  ], {
    cwd: sandbox.root,
    env: sandboxEnv(sandbox, env),
    detached: true, // setsid: the child leads a new process group, so stop() reaches all it spawns
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const groupId = child.pid;
  let exited = false;
  const exitedPromise = new Promise((resolve) => child.once('exit', (code) => {
    exited = true;
    resolve(code);
  }));
  // Last resort when this process ends without calling stop(), e.g. on an uncaught error.
  const killOnExit = () => signalGroup(groupId, 'SIGKILL');
  process.once('exit', killOnExit);

  const server = {
    host,
    origin,
    groupId,
    exited: exitedPromise,
    remoteUri: (fsPath) => `vscode-remote://${host}${fsPath}`,
    workbenchUrl(folder, payload = []) {
      const url = new URL(`${origin}/`);
      url.searchParams.set('folder', folder);
      if (payload.length > 0) url.searchParams.set('payload', JSON.stringify([...payload, ['skipWelcome', 'true']]));
      return url.toString();
    },
    async stop() {
      process.removeListener('exit', killOnExit);
      signalGroup(groupId, 'SIGTERM');
      if (!(await waitUntil(() => !isGroupAlive(groupId), STOP_GRACE_MS))) signalGroup(groupId, 'SIGKILL');
      await waitUntil(() => !isGroupAlive(groupId), STOP_GRACE_MS);
    },
  };

  const healthy = await waitUntil(async () => exited || (await isHealthy(origin)), STARTUP_TIMEOUT_MS);
  if (exited || !healthy) {
    await server.stop();
    const tail = fs.readFileSync(sandbox.codeServerLog, 'utf8').split('\n').slice(-20).join('\n');
    throw new Error(`code-server ${exited ? 'exited during startup' : 'did not start within 60 s'}:\n${tail}`);
  }
  return server;
}

/**
 * Installs a .vsix into the sandbox's extensions folder with code-server's own installer, the way a
 * person runs "Extensions: Install from VSIX...". Resolves once it is installed.
 */
export async function installExtension(sandbox, version, vsixPath) {
  assertCodeServerInstalled(version);
  const log = fs.openSync(sandbox.codeServerLog, 'a');
  const child = spawn(nodeBinary(version), [
    codeServerEntry(version),
    '--user-data-dir', sandbox.userData,
    '--extensions-dir', sandbox.extensions,
    '--install-extension', vsixPath,
  ], { cwd: sandbox.root, env: sandboxEnv(sandbox, {}), stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const exitCode = await new Promise((resolve) => child.once('exit', resolve));
  if (exitCode !== 0) {
    const tail = fs.readFileSync(sandbox.codeServerLog, 'utf8').split('\n').slice(-20).join('\n');
    throw new Error(`installing ${path.basename(vsixPath)} failed (exit code ${exitCode}):\n${tail}`);
  }
}

/** On Ctrl+C (or SIGTERM/SIGHUP) runs `cleanup` once, then exits with 130. */
export function stopOnSignals(cleanup) {
  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping`);
    try {
      await cleanup();
    } finally {
      process.exit(130);
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);
}
