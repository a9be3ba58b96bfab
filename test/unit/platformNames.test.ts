/**
 * Names and paths as Windows, macOS and every file system read them: the protected
 * globs under every spelling, the names no target may have, drive-relative Windows
 * paths, and the case rule probed from the file system. The tests that need Windows
 * itself (path.win32 behaviour of Node, `--root C:\`) run in the Wine leg
 * (scripts/platform-test/wine.mjs), where this file runs under Node for Windows.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runRequest } from '../../src/core/engine/engine';
import { defaultPathCheck } from '../../src/core/store/paths';
import { portableNameProblem } from '../../src/core/store/portableNames';
import { checkCliPath } from '../../src/node/host/cliPaths';
import { absoluteRoot } from '../../src/node/host/scope';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import { canonicalSpelling, withShortNameAliases } from '../../src/shared/nameSpellings';
import { EXACT_NAME_RULES, nameRulesAt } from '../../src/shared/nameRules';
import { containingFolder, createPathCheck, COMMAND_PROTECTED_GLOBS, matchingProtectedGlob, VCS_PROTECTED_GLOBS, type PathPolicyConfig } from '../../src/shared/pathPolicy';

const root = path.resolve('/work/proj');

function mcpConfig(): PathPolicyConfig {
  return { folders: [{ name: 'proj', path: root }], protectedGlobs: COMMAND_PROTECTED_GLOBS, allowOutsideWorkspace: false };
}

describe('platform names: protected globs hold under every spelling', () => {
  const spellings = [
    '.GIT/config', '.Git/HEAD', '.ENV', '.Env.local', '.git./hooks/post-checkout', '.git /config', '.git::$DATA/config', '.git:stream/config',
    'GIT~1/config', 'git~2/HEAD', 'GI7A3F~1/config', 'ENV~1', 'ENVLOC~1.LOC', '.g\u200cit/config', '.git\ufeff/config', '\u200d.env', 'sub/.HG/store', 'sub/.sVn/entries',
  ];
  for (const spelling of spellings) {
    it(`refuses ${JSON.stringify(spelling)} inside the root`, () => {
      assert.notEqual(matchingProtectedGlob(path.join(root, ...spelling.split('/')), mcpConfig()), undefined);
    });
  }

  for (const allowed of ['src/git.ts', 'src/.gitignore', 'docs/environment.md', 'github/x.ts', 'env.ts', 'src/a.ts']) {
    it(`lets ${allowed} through`, () => {
      assert.equal(matchingProtectedGlob(path.join(root, ...allowed.split('/')), mcpConfig()), undefined);
    });
  }

  it('spells a path canonically: ignorables out, streams and trailing dots or spaces cut, lower case, the drive kept', () => {
    assert.equal(canonicalSpelling('C:/Proj/.Git. /HEAD::$DATA'), 'c:/proj/.git/head');
    assert.equal(canonicalSpelling('/a/.e\u200dnv'), '/a/.env');
    assert.equal(canonicalSpelling('/a/e\u0301.ts'), '/a/\u00e9.ts');
    assert.equal(canonicalSpelling('/a/./..'), '/a/./..');
  });

  it('gives a glob the 8.3 names its literal names could have, and leaves plain 8.3 names alone', () => {
    assert.equal(withShortNameAliases('**/.git/**'), '**/{.git,git~*,gi????~*}/**');
    assert.equal(withShortNameAliases('**/.env*'), '**/{.env*,env*~*,en????~*}');
    assert.equal(withShortNameAliases('src/main.ts'), 'src/main.ts');
  });
});

describe('platform names: names no target may have', () => {
  for (const name of ['NUL', 'con.ts', 'Aux.json', 'com1', 'LPT9.txt', 'con .ts', 'lpt\u00b9']) {
    it(`refuses the device name ${JSON.stringify(name)}`, () => {
      assert.match(portableNameProblem(name) ?? '', /Windows device name/);
    });
  }
  it('refuses a stream suffix and a trailing dot or space', () => {
    assert.match(portableNameProblem('a.ts:stream') ?? '', /alternate data stream/);
    assert.match(portableNameProblem('a.ts::$DATA') ?? '', /alternate data stream/);
    assert.match(portableNameProblem('a.ts.') ?? '', /ends with a dot/);
    assert.match(portableNameProblem('a.ts ') ?? '', /ends with a space/);
  });
  it('lets ordinary names through', () => {
    for (const name of ['console.ts', 'null.ts', 'com10', 'auxiliary.md', '.env', 'a.b.c', '.']) {
      assert.equal(portableNameProblem(name), undefined, name);
    }
  });

  it('a request naming such a file is VALIDATION_FAILED naming the rule, on every surface (the engine checks)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-names-'));
    try {
      for (const name of ['con.ts', 'a.ts:stream', 'trailing.ts.']) {
        const { response } = await runRequest('multi_edit', { file_path: path.join(dir, name), edits: [{ old_string: 'a', new_string: 'b' }] }, { store: new NodeFileStore(), checkPath: checkCliPath });
        assert.ok(!response.success && response.error_code === 'VALIDATION_FAILED', JSON.stringify(response));
        assert.match(response.message, /refused on every system/);
      }
      const patch = '*** Begin Patch\n*** Add File: sub/nul/x.ts\n+x\n*** End Patch\n';
      const { response } = await runRequest('multi_edit_patch', { patch }, { store: new NodeFileStore(), root: dir, checkPath: checkCliPath });
      assert.ok(!response.success && response.error_code === 'VALIDATION_FAILED', JSON.stringify(response));
      assert.deepEqual(fs.readdirSync(dir), []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('platform names: Windows paths', () => {
  it('\\x, /x and C:x are not absolute where Windows paths are read; C:\\x and UNC paths are', () => {
    for (const drive of ['/src/x.ts', '\\src\\x.ts', 'C:x.ts', 'C:src\\x.ts']) {
      const result = defaultPathCheck(drive, true);
      assert.ok(!result.ok && result.code === 'RELATIVE_PATH', drive);
      assert.match(result.detail, /drive-relative/);
    }
    for (const absolute of ['C:\\src\\x.ts', 'c:/src/x.ts', '\\\\server\\share\\x.ts']) {
      assert.ok(defaultPathCheck(absolute, true).ok, absolute);
    }
  });

  it('reads a \\\\?\\ path as the plain path, and refuses the device namespace \\\\.\\', () => {
    assert.deepEqual(defaultPathCheck('\\\\?\\C:\\src\\x.ts', true), { ok: true, path: 'C:\\src\\x.ts' });
    assert.deepEqual(defaultPathCheck('\\\\?\\UNC\\server\\share\\x.ts', true), { ok: true, path: '\\\\server\\share\\x.ts' });
    const device = defaultPathCheck('\\\\.\\PhysicalDrive0', true);
    assert.ok(!device.ok && device.code === 'NOT_REGULAR_FILE');
  });

  it('the CLI refuses /src/x.ts on Windows and accepts it on POSIX', () => {
    const result = checkCliPath('/src/x.ts');
    assert.equal(result.ok, process.platform !== 'win32', JSON.stringify(result));
  });

  it('--root at a drive or system root stays that root', () => {
    if (process.platform === 'win32') {
      assert.equal(absoluteRoot('C:\\', 'D:\\work'), 'C:\\');
      assert.equal(absoluteRoot('C:\\proj\\', 'D:\\work'), 'C:\\proj');
      assert.equal(absoluteRoot('\\\\server\\share\\', 'D:\\work'), '\\\\server\\share\\');
    } else {
      assert.equal(absoluteRoot('/', '/work'), '/');
      assert.equal(absoluteRoot('/proj/', '/work'), '/proj');
    }
  });
});

describe('platform names: the case rule comes from the file system', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-case-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('probes the folder: on this file system, Foo.ts and foo.ts are one file exactly when the probe says so', () => {
    fs.writeFileSync(path.join(dir, 'Probe.ts'), '');
    const sameFile = fs.existsSync(path.join(dir, 'PROBE.TS'));
    assert.equal(nameRulesAt(dir).ignoresCase, sameFile);
  });

  it('a folder on a case-sensitive file system does not contain /proj/PROJ/x, whatever the platform', function () {
    if (process.platform === 'win32') {
      this.skip(); // Node's path.relative compares Windows paths ignoring case; a case-sensitive Windows folder is compared so too.
    }
    const folders = [{ name: 'proj', path: '/proj/proj', nameRules: EXACT_NAME_RULES }];
    assert.equal(containingFolder('/proj/PROJ/x', folders, true), undefined);
    assert.notEqual(containingFolder('/proj/proj/x', folders, true), undefined);
    const ignoring = [{ name: 'proj', path: '/proj/proj', nameRules: { ignoresCase: true, normalisesUnicode: false } }];
    assert.notEqual(containingFolder('/proj/PROJ/x', ignoring, false), undefined);
  });

  it('a path check over a probed folder refuses .GIT there and everywhere', async () => {
    const check = createPathCheck({ folders: [{ name: 'd', path: dir }], protectedGlobs: VCS_PROTECTED_GLOBS, allowOutsideWorkspace: false });
    const result = await check(path.join(dir, '.GIT', 'config'));
    assert.ok(!result.ok && result.code === 'FORBIDDEN_PATH', JSON.stringify(result));
  });
});
