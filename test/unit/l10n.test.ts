/**
 * Every string a person reads in VS Code goes through vscode.l10n.t (or package.nls.json), and
 * l10n/bundle.l10n.json holds every message: scripts/l10n-strings.mjs finds both with the
 * TypeScript parser. The planted files show that the check fails on a string that bypasses it.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..', '..');
const SCRIPT = join(REPO_ROOT, 'scripts', 'l10n-strings.mjs');

interface CheckResult {
  readonly stale: boolean;
  readonly messages: number;
  readonly bypassing: readonly { file: string; line: number; text: string }[];
}

function check(root: string): { status: number | null; result: CheckResult } {
  const run = spawnSync(process.execPath, [SCRIPT, '--check', root], { encoding: 'utf8' });
  return { status: run.status, result: JSON.parse(run.stdout) as CheckResult };
}

describe('localisation: every user-facing string goes through vscode.l10n.t', () => {
  it('finds no string in src/vscode that bypasses it, and l10n/bundle.l10n.json is current (npm run l10n)', () => {
    const { status, result } = check(REPO_ROOT);
    assert.deepEqual(result.bypassing, []);
    assert.equal(result.stale, false, 'l10n/bundle.l10n.json differs from the messages in the sources: run npm run l10n');
    assert.ok(result.messages > 100, `${result.messages} messages`);
    assert.equal(status, 0);
  });

  it('the manifest names the l10n folder, and every "%key%" resolves from package.nls.json', () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { l10n?: string };
    assert.equal(manifest.l10n, './l10n');
    const strings = JSON.parse(readFileSync(join(REPO_ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const keys = [...readFileSync(join(REPO_ROOT, 'package.json'), 'utf8').matchAll(/"%([^"%]+)%"/g)].map((match) => match[1]);
    assert.deepEqual(keys.filter((key) => strings[key] === undefined), []);
  });

  describe('fails on planted files', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'multi-edit-l10n-'));
      mkdirSync(join(root, 'src', 'vscode', 'commands'), { recursive: true });
      mkdirSync(join(root, 'l10n'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    const plant = (source: string, bundle: Record<string, string>): { status: number | null; result: CheckResult } => {
      writeFileSync(join(root, 'src', 'vscode', 'commands', 'planted.ts'), source);
      writeFileSync(join(root, 'l10n', 'bundle.l10n.json'), `${JSON.stringify(bundle, null, 2)}\n`);
      return check(root);
    };

    it('a notification, a quick-fix title and a chat line written without it', () => {
      const { status, result } = plant([
        "import * as vscode from 'vscode';",
        "void vscode.window.showInformationMessage('Multi-Edit: copied the envelope.');",
        "const fix = { title: `Retry edit ${1} with replace_all`, command: 'x' };",
        "stream.markdown('No request has failed yet.');",
        "log.info('a line for the log, not for people');",
        "if (choice === 'Show Diff') {}",
      ].join('\n'), {});
      assert.equal(status, 1);
      assert.deepEqual(result.bypassing.map((entry) => [entry.line, entry.text]), [
        [2, 'Multi-Edit: copied the envelope.'],
        [3, 'Retry edit {} with replace_all'],
        [4, 'No request has failed yet.'],
      ]);
    });

    it('passes the same strings through vscode.l10n.t, with a current bundle; a stale bundle fails', () => {
      const source = "import * as vscode from 'vscode';\nvoid vscode.window.showInformationMessage(vscode.l10n.t('Multi-Edit: copied the {0} envelope.', code));\n";
      assert.equal(plant(source, { 'Multi-Edit: copied the {0} envelope.': 'Multi-Edit: copied the {0} envelope.' }).status, 0);
      assert.equal(plant(source, {}).result.stale, true);
    });
  });
});
