/**
 * The files a contributor meets first: the GitHub workflows pass a workflow linter (the schema GitHub
 * itself checks them against), test where users are, and run commands this package has.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './helpers/manifest';

interface ValidationReport { readonly errors: readonly { readonly path: string; readonly title: string; readonly detail?: string }[] }
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { validateWorkflow } = require('@action-validator/core') as { validateWorkflow(text: string): ValidationReport };

const WORKFLOWS = join(REPO_ROOT, '.github', 'workflows');
const read = (...parts: string[]) => readFileSync(join(REPO_ROOT, ...parts), 'utf8');
const manifest = JSON.parse(read('package.json')) as { scripts: Record<string, string>; engines: { vscode: string } };

const problemsOf = (text: string) => validateWorkflow(text).errors.map((error) => `${error.path}: ${error.detail ?? error.title}`);

describe('repository: GitHub workflows', () => {
  const files = readdirSync(WORKFLOWS).filter((name) => name.endsWith('.yml'));

  it('has the CI and release workflows', () => {
    assert.deepEqual(files.sort(), ['ci.yml', 'release.yml']);
  });

  for (const file of ['ci.yml', 'release.yml']) {
    it(`${file} passes the workflow linter`, () => {
      assert.deepEqual(problemsOf(read('.github', 'workflows', file)), []);
    });
  }

  it('the linter refuses a workflow with a misspelt key, so the checks above can fail', () => {
    const broken = read('.github', 'workflows', 'ci.yml').replace('runs-on: ${{ matrix.os }}', 'run-on: ${{ matrix.os }}');
    assert.notDeepEqual(problemsOf(broken), []);
  });

  it('CI runs on Linux, Windows and macOS, on the oldest VS Code the manifest allows and on stable', () => {
    const ci = read('.github', 'workflows', 'ci.yml');
    for (const os of ['ubuntu-latest', 'windows-latest', 'macos-latest']) assert.ok(ci.includes(os), os);
    const minimum = /^\^(\d+\.\d+)\./.exec(manifest.engines.vscode)?.[1];
    assert.ok(minimum, manifest.engines.vscode);
    assert.match(ci, new RegExp(`vscode: \\['${minimum.replace('.', '\\.')}\\.\\d+', stable\\]`));
    assert.match(ci, /xvfb-run -a npm run test:electron/);
    // The electron runner reads the version the matrix sets.
    assert.match(read('test', 'electron', 'runTest.ts'), /process\.env\.MULTI_EDIT_VSCODE_VERSION/);
    assert.match(ci, /MULTI_EDIT_VSCODE_VERSION: \$\{\{ matrix\.vscode \}\}/);
  });

  it('every `npm run X` in a workflow names a script of package.json', () => {
    for (const file of files) {
      for (const [, script] of read('.github', 'workflows', file).matchAll(/npm run ([\w:-]+)/g)) {
        assert.ok(manifest.scripts[script], `${file}: npm run ${script}`);
      }
    }
  });

  it('a release packages on a tag and publishes with vsce and ovsx from repository secrets', () => {
    const release = read('.github', 'workflows', 'release.yml');
    assert.match(release, /tags: \['v\*'\]/);
    assert.match(release, /npx vsce publish/);
    assert.match(release, /npx --yes ovsx publish/);
    assert.match(release, /secrets\.VSCE_PAT/);
    assert.match(release, /secrets\.OVSX_PAT/);
  });
});

describe('repository: contributor files', () => {
  it('CONTRIBUTING.md gives the README\'s two set-up commands', () => {
    const readme = read('README.md');
    const contributing = read('CONTRIBUTING.md');
    for (const command of ['npm install && npm run demo', 'npm install && npm test']) {
      assert.ok(readme.includes(command), `README: ${command}`);
      assert.ok(contributing.includes(command), `CONTRIBUTING: ${command}`);
    }
  });

  it('each issue template has a name and an about line', () => {
    const dir = join(REPO_ROOT, '.github', 'ISSUE_TEMPLATE');
    const templates = readdirSync(dir).filter((name) => name.endsWith('.md'));
    assert.ok(templates.length >= 2);
    for (const name of templates) {
      const front = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(join(dir, name), 'utf8'))?.[1] ?? '';
      assert.match(front, /^name: \S/m, name);
      assert.match(front, /^about: \S/m, name);
    }
  });
});
