import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PathCheckResult } from '../../src/core/store/paths';
import {
  containingFolder, createPathCheck, globToRegExp, leadsOutsideWorkspace, matchingProtectedGlob, refusalForRealPath, RELATIVE_PATH_RESOLVED, resolveRequestedPath,
  type PathPolicyConfig, type WorkspaceFolderInfo,
} from '../../src/shared/pathPolicy';
import { directLookups, pooledLookups, realTarget } from '../../src/shared/realPaths';
import { DEFAULT_PROTECTED_GLOBS } from '../../src/vscode/platform/settings';
import { useTempDir } from './helpers/tempDir';

const ws = path.resolve('/work/ws');
const other = path.resolve('/work/other');
const one: WorkspaceFolderInfo[] = [{ name: 'ws', path: ws }];
const two: WorkspaceFolderInfo[] = [...one, { name: 'other', path: other }];

function config(overrides: Partial<PathPolicyConfig> = {}): PathPolicyConfig {
  return { folders: one, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowOutsideWorkspace: false, ...overrides };
}

function check(requested: string, overrides: Partial<PathPolicyConfig> = {}): Promise<PathCheckResult> {
  return Promise.resolve(createPathCheck(config(overrides))(requested));
}

function codeOf(result: PathCheckResult): string {
  return result.ok ? 'ok' : result.code;
}

describe('pathPolicy: resolving the requested path', () => {
  it('keeps an absolute path inside the workspace, without a warning', async () => {
    const result = await check(path.join(ws, 'src', 'a.ts'));
    assert.deepEqual(result, { ok: true, path: path.join(ws, 'src', 'a.ts'), realPath: path.join(ws, 'src', 'a.ts') });
  });

  it('resolves a relative path against the only folder and warns', async () => {
    const result = resolveRequestedPath('src/a.ts', one);
    assert.ok(result.ok);
    assert.equal(result.path, path.join(ws, 'src', 'a.ts'));
    assert.equal(result.warning?.code, RELATIVE_PATH_RESOLVED);
    assert.match(result.warning?.message ?? '', /absolute/);
  });

  it('refuses a relative path with several folders and lists them in a hint', async () => {
    const result = resolveRequestedPath('src/a.ts', two);
    assert.ok(!result.ok);
    assert.equal(result.code, 'RELATIVE_PATH');
    assert.ok(result.hints?.some((hint) => hint.includes(ws) && hint.includes(other)));
  });

  it('refuses a relative path, and an empty one, when no folder is open', async () => {
    assert.equal(codeOf(resolveRequestedPath('a.ts', [])), 'RELATIVE_PATH');
    assert.equal(codeOf(resolveRequestedPath('', one)), 'RELATIVE_PATH');
  });

  it('calls any ".." segment PATH_TRAVERSAL, even in an absolute path that stays inside', async () => {
    assert.equal(codeOf(await check(`${ws}/src/../a.ts`)), 'PATH_TRAVERSAL');
    assert.equal(codeOf(await check('../ws/a.ts')), 'PATH_TRAVERSAL');
    assert.equal(codeOf(await check('src\\..\\a.ts')), 'PATH_TRAVERSAL');
    assert.equal(codeOf(await check(path.join(ws, '..a.ts'))), 'ok', 'a name that merely starts with dots is fine');
  });

  it('accepts a file URI', async () => {
    const result = await check(`file://${path.join(ws, 'a.ts').replace(/\\/g, '/')}`);
    assert.ok(result.ok);
    assert.equal(result.path, path.join(ws, 'a.ts'));
  });
});

describe('pathPolicy: workspace scope', () => {
  it('refuses a target outside every folder, naming the folders', async () => {
    const result = await check(path.join(other, 'b.ts'));
    assert.ok(!result.ok);
    assert.equal(result.code, 'OUTSIDE_WORKSPACE');
    assert.ok(result.hints?.some((hint) => hint.includes(ws)));
  });

  it('allows it when the setting or the user allows it', async () => {
    assert.equal(codeOf(await check(path.join(other, 'b.ts'), { allowOutsideWorkspace: true })), 'ok');
  });

  it('does not mistake a sibling folder with a common prefix for the workspace', async () => {
    assert.equal(containingFolder(`${ws}-copy/a.ts`, one), undefined);
    assert.equal(containingFolder(path.join(ws, 'a.ts'), one)?.name, 'ws');
  });

  it('compares case-insensitively only when asked to', async () => {
    const upper = path.join(ws.toUpperCase(), 'a.ts');
    assert.equal(containingFolder(upper, one, false), undefined);
    assert.equal(containingFolder(upper, one, true)?.name, 'ws');
  });
});

describe('pathPolicy: protected globs', () => {
  it('protects .git internals by default, inside or outside the workspace', async () => {
    assert.equal(codeOf(await check(path.join(ws, '.git', 'config'))), 'FORBIDDEN_PATH');
    assert.equal(codeOf(await check(path.join(ws, 'sub', '.git', 'hooks', 'pre-commit'))), 'FORBIDDEN_PATH');
    assert.equal(codeOf(await check(path.join(other, '.git', 'config'), { allowOutsideWorkspace: true })), 'FORBIDDEN_PATH');
    assert.equal(codeOf(await check(path.join(ws, '.gitignore'))), 'ok');
    assert.equal(codeOf(await check(path.join(ws, 'docs', 'git', 'a.md'))), 'ok');
  });

  it('names the matching glob and the setting', async () => {
    const result = await check(path.join(ws, '.git', 'HEAD'));
    assert.ok(!result.ok);
    assert.match(result.detail, /\*\*\/\.git\/\*\*/);
    assert.ok(result.hints?.some((hint) => hint.includes('multiEdit.protectedGlobs')));
  });

  it('matches workspace-relative globs against the path inside the folder', async () => {
    const globs = ['secrets/**', '*.lock'];
    assert.equal(matchingProtectedGlob(path.join(ws, 'secrets', 'key.txt'), config({ protectedGlobs: globs })), 'secrets/**');
    assert.equal(matchingProtectedGlob(path.join(ws, 'yarn.lock'), config({ protectedGlobs: globs })), '*.lock');
    assert.equal(matchingProtectedGlob(path.join(ws, 'src', 'yarn.lock'), config({ protectedGlobs: globs })), undefined);
  });

  it('globToRegExp: ** spans folders, * and ? stay in one, braces and classes work, specials are literal', async () => {
    const cases: [string, string, boolean][] = [
      ['**/.git/**', '/a/b/.git/config', true],
      ['**/.git/**', '.git/config', true],
      ['**/.git/**', '/a/.github/x', false],
      ['src/*.ts', 'src/a.ts', true],
      ['src/*.ts', 'src/sub/a.ts', false],
      ['src/**/*.ts', 'src/a.ts', true],
      ['src/**/*.ts', 'src/x/y/a.ts', true],
      ['file?.txt', 'file1.txt', true],
      ['file?.txt', 'file/.txt', false],
      ['**/*.{pem,key}', 'certs/server.key', true],
      ['**/*.{pem,key}', 'certs/server.crt', false],
      ['[!a]b', 'cb', true],
      ['[!a]b', 'ab', false],
      ['[a-c].md', 'b.md', true],
      ['a+b(c).txt', 'a+b(c).txt', true],
      ['a+b(c).txt', 'aab(c).txt', false],
    ];
    for (const [glob, candidate, expected] of cases) {
      assert.equal(globToRegExp(glob).test(candidate), expected, `${glob} against ${candidate}`);
    }
    assert.equal(globToRegExp('**/.GIT/**', true).test('/a/.git/config'), true);
  });
});

// Windows needs a privilege to create symbolic links.
(process.platform === 'win32' ? describe.skip : describe)('pathPolicy: where a path leads, every symbolic link followed', () => {
  const base = useTempDir('policy');
  let root: string;
  let outside: string;
  const linkedConfig = (folders: WorkspaceFolderInfo[], overrides: Partial<PathPolicyConfig> = {}): PathPolicyConfig => ({
    folders, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowOutsideWorkspace: false, ...overrides,
  });
  const checkIn = async (requested: string, config: PathPolicyConfig): Promise<PathCheckResult> => createPathCheck(config)(requested);

  beforeEach(() => {
    root = path.join(base(), 'root');
    outside = path.join(base(), 'outside');
    fs.mkdirSync(path.join(root, '.git'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 's.txt'), 'secret\n');
    fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
  });

  it('a link that leads out is OUTSIDE_WORKSPACE naming the link, and asks for confirmation; allowed once confirmed', async () => {
    fs.symlinkSync(path.join(outside, 's.txt'), path.join(root, 'link'));
    const config = linkedConfig([{ name: 'root', path: root }]);
    const refused = await checkIn(path.join(root, 'link'), config);
    assert.equal(codeOf(refused), 'OUTSIDE_WORKSPACE');
    assert.ok(!refused.ok && refused.detail.includes(`symbolic link ${path.join(root, 'link')} to ${path.join(outside, 's.txt')}`), JSON.stringify(refused));
    assert.equal(await leadsOutsideWorkspace(path.join(root, 'link'), config), true);
    assert.equal(await leadsOutsideWorkspace(path.join(root, 'a.txt'), config), false);
    assert.equal(codeOf(await checkIn(path.join(root, 'link'), { ...config, allowOutsideWorkspace: true })), 'ok');
  });

  it('a link to .git is FORBIDDEN_PATH even when outside targets are allowed; a new file resolves through its parent', async () => {
    fs.symlinkSync(path.join(root, '.git'), path.join(root, 'repo'));
    const config = linkedConfig([{ name: 'root', path: root }], { allowOutsideWorkspace: true });
    assert.equal(codeOf(await checkIn(path.join(root, 'repo', 'config'), config)), 'FORBIDDEN_PATH');
    assert.equal(codeOf(await checkIn(path.join(root, 'repo', 'new-hook'), config)), 'FORBIDDEN_PATH');
  });

  it('a root that is a link: paths named through the link or through its real path are inside; the real rule refuses what lies outside', async () => {
    const linkedRoot = path.join(base(), 'linked');
    fs.symlinkSync(root, linkedRoot);
    const config = linkedConfig([{ name: 'linked', path: linkedRoot }]);
    assert.equal(codeOf(await checkIn(path.join(linkedRoot, 'a.txt'), config)), 'ok');
    assert.equal(codeOf(await checkIn(path.join(root, 'a.txt'), config)), 'ok');
    const resolved = { ...config, realFolders: [{ name: 'linked', path: root }] };
    assert.equal(refusalForRealPath(path.join(root, 'a.txt'), resolved), undefined);
    assert.equal(refusalForRealPath(path.join(outside, 's.txt'), resolved)?.code, 'OUTSIDE_WORKSPACE');
    assert.equal(refusalForRealPath(path.join(root, '.git', 'config'), resolved)?.code, 'FORBIDDEN_PATH');
  });

  it('a chain of links and a dangling link name where they finally lead', async () => {
    fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling'));
    fs.symlinkSync(path.join(root, 'dangling'), path.join(root, 'chain'));
    const target = await realTarget(path.join(root, 'chain'));
    assert.equal(target.real, path.join(outside, 'not-yet.txt'));
    assert.deepEqual(target.links.map((step) => step.link), [path.join(root, 'chain')]);
    assert.equal(codeOf(await checkIn(path.join(root, 'chain'), linkedConfig([{ name: 'root', path: root }]))), 'OUTSIDE_WORKSPACE');
  });

  it('links followed on the calling thread lead where the thread pool\'s look-ups lead, and the path check answers alike', async () => {
    fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling'));
    fs.symlinkSync(path.join(root, 'dangling'), path.join(root, 'chain'));
    fs.symlinkSync(path.join(root, '.git'), path.join(root, 'repo'));
    fs.symlinkSync(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
    fs.symlinkSync(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
    fs.symlinkSync(outside, path.join(root, 'out'));
    const named = ['a.txt', 'chain', 'dangling', 'repo/config', 'repo/new-hook', 'loop-a', 'out/s.txt', 'missing/deeper/file.txt'].map((name) => path.join(root, name));
    const config = linkedConfig([{ name: 'root', path: root }]);
    for (const target of named) {
      assert.deepEqual(await realTarget(target, directLookups), await realTarget(target, pooledLookups), target);
      assert.deepEqual(await createPathCheck(config, directLookups)(target), await createPathCheck(config, pooledLookups)(target), target);
    }
    assert.deepEqual(await Promise.all(named.map(async (target) => codeOf(await createPathCheck(config, directLookups)(target)))),
      ['ok', 'OUTSIDE_WORKSPACE', 'OUTSIDE_WORKSPACE', 'FORBIDDEN_PATH', 'FORBIDDEN_PATH', 'ok', 'OUTSIDE_WORKSPACE', 'ok']);
  });
});
