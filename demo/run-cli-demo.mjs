// Runs each demo request through the CLI (dist/cli.js) with --format text, each on a
// fresh copy of demo/workspace, and shows the output, the exit code and what changed.
// The requests use workspace-relative paths (as the VS Code surfaces accept); the CLI
// has no workspace, so this script rewrites them to absolute paths in the copy.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const demoDir = dirname(fileURLToPath(import.meta.url));
const cliPath = join(demoDir, '..', 'dist', 'cli.js');

const DEMOS = [
  { request: '01-rename-total.multiedit.json', expectedExit: 0,
    story: 'Three edits to one file, applied in order; include_diff shows the change.' },
  { request: '02-crlf-multiline.multiedit.json', expectedExit: 0,
    story: 'A multi-line old_string written with \\n, applied to a file with CRLF line endings.' },
  { request: '03-whitespace-near-miss.multiedit.json', expectedExit: 1,
    story: 'old_string indented with spaces, but the file uses tabs: a near miss, explained, never applied.' },
  { request: '04-ambiguous-match.multiedit.json', expectedExit: 1,
    story: 'old_string occurs twice: every location is listed.' },
  { request: '05-multi-file-second-fails.multiedit.json', expectedExit: 1,
    story: 'Two files; the second edit fails, so the first file is not touched either.' },
];

if (!existsSync(cliPath)) {
  console.error('dist/cli.js is missing: run "npm run build" first.');
  process.exit(1);
}

/** Every file under a directory: relative path -> bytes. */
function snapshot(dir) {
  const files = new Map();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const full = join(entry.parentPath, entry.name);
      files.set(relative(dir, full), readFileSync(full));
    }
  }
  return files;
}

function changedFiles(before, after) {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => {
    const was = before.get(name);
    const is = after.get(name);
    return was === undefined || is === undefined || !was.equals(is);
  }).sort();
}

function withAbsolutePaths(request, workspace) {
  const absolute = (entry) => ({ ...entry, file_path: join(workspace, entry.file_path) });
  return request.files ? { ...request, files: request.files.map(absolute) } : absolute(request);
}

function runDemo({ request, expectedExit, story }) {
  const scratch = mkdtempSync(join(tmpdir(), 'multi-edit-demo-'));
  try {
    const workspace = join(scratch, 'workspace');
    cpSync(join(demoDir, 'workspace'), workspace, { recursive: true });
    const requestPath = join(scratch, request);
    const original = JSON.parse(readFileSync(join(demoDir, 'requests', request), 'utf8'));
    writeFileSync(requestPath, JSON.stringify(withAbsolutePaths(original, workspace), null, 2));

    const before = snapshot(workspace);
    const run = spawnSync(process.execPath, [cliPath, 'apply', '--format', 'text', requestPath], { cwd: workspace, encoding: 'utf8' });
    const changed = changedFiles(before, snapshot(workspace));

    console.log(`\n=== ${request}`);
    console.log(story);
    console.log(`$ multi-edit apply --format text ${requestPath}`);
    process.stdout.write(run.stdout);
    process.stderr.write(run.stderr);
    console.log(`--- exit code ${run.status}; ${changed.length === 0 ? 'no file changed' : `changed: ${changed.join(', ')}`}`);
    return run.status === expectedExit;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const surprises = DEMOS.filter((demo) => !runDemo(demo)).map((demo) => demo.request);
console.log(`\nThe requests are in demo/requests/. Try your own: node dist/cli.js apply --format text <request.json>`);
console.log('(paths must be absolute; "node dist/cli.js --help" shows every option).');
if (surprises.length > 0) {
  console.error(`Unexpected exit code for: ${surprises.join(', ')}`);
  process.exit(1);
}
