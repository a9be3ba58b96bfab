/**
 * The packages people install: `npm run package` builds the .vsix that VS Code installs, and
 * `npm pack` the tarball that puts `multi-edit` on PATH. Each is built here and opened to check
 * what it holds, what it must not hold, and that it works as installed.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, filesNamedBy, localize, readJsonFile, type Manifest } from './helpers/manifest';
import { readZipEntries, type ZipEntry } from './helpers/zip';

const MAX_VSIX_BYTES = 1024 * 1024;
/** The syntax gate's tree-sitter runtime and grammars, compressed in the .vsix (about 1.9 MB when measured). */
const MAX_TREE_SITTER_BYTES = 2 * 1024 * 1024;

/** The syntax gate's WebAssembly files, as they ship under `folder`: the runtime and one grammar per language. */
function treeSitterFiles(folder: string): string[] {
  return readdirSync(join(REPO_ROOT, 'dist', 'tree-sitter')).map((name) => `${folder}/${name}`);
}
const BUILD_TIMEOUT_MS = 180_000;
/** Sizes in the documents are in megabytes as the tools print them: npm's of 1,000,000 bytes, vsce's of 1,048,576. */
const MB = 1_000_000;
const MIB = 1024 * 1024;

/** A stated size holds while it is within 10 % of the built one (so a small change to the code does not make the documents wrong). */
function assertNear(stated: number, built: number, what: string): void {
  assert.ok(Math.abs(stated - built) <= built * 0.1, `${what} is ${built} bytes; the documents say about ${stated}`);
}

/** Runs an npm script in the repository and fails with its output when it fails. */
function npm(args: string[], cwd = REPO_ROOT): string {
  const run = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS });
  assert.equal(run.status, 0, `npm ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

describe('the .vsix (npm run package)', function () {
  this.timeout(BUILD_TIMEOUT_MS);
  let folder: string;
  let vsix: Buffer;
  let entries: ZipEntry[];
  let names: string[];
  const entry = (name: string): ZipEntry => {
    const found = entries.find((candidate) => candidate.name === name);
    assert.ok(found, `the .vsix holds ${name}`);
    return found;
  };

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'multi-edit-vsix-'));
    npm(['run', 'package', '--', '--out', join(folder, 'multi-edit.vsix')]);
    vsix = readFileSync(join(folder, 'multi-edit.vsix'));
    entries = readZipEntries(vsix);
    names = entries.map((candidate) => candidate.name);
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it(`is under 1 MB (${MAX_VSIX_BYTES} bytes) besides the syntax gate's grammars, which stay under ${MAX_TREE_SITTER_BYTES} bytes`, () => {
    const grammars = entries.filter((candidate) => candidate.name.startsWith('extension/dist/tree-sitter/'));
    assert.deepEqual(grammars.map((grammar) => grammar.name).sort(), treeSitterFiles('extension/dist/tree-sitter').sort());
    const grammarBytes = grammars.reduce((sum, grammar) => sum + grammar.compressedSize, 0);
    assert.ok(grammarBytes < MAX_TREE_SITTER_BYTES, `${grammarBytes} bytes of grammars`);
    assert.ok(vsix.length - grammarBytes < MAX_VSIX_BYTES, `${vsix.length} bytes in ${entries.length} files, ${grammarBytes} of them grammars`);
  });

  it('is the size the README states, with as many grammars', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const stated = /multi-edit-[\d.]+\.vsix \(about ([\d.]+) MB\)/.exec(readme);
    assert.ok(stated, 'the README states the .vsix size');
    assertNear(Number(stated[1]) * MIB, vsix.length, 'the .vsix');
    assert.ok(readme.includes(`its ${treeSitterFiles('').length - 1} grammars`), 'the README counts the grammars');
  });

  it('holds the manifest, its strings, the bundle, README, CHANGELOG and LICENSE', () => {
    for (const name of ['extension.vsixmanifest', 'extension/package.json', 'extension/package.nls.json', 'extension/l10n/bundle.l10n.json', 'extension/dist/extension.js',
      'extension/readme.md', 'extension/changelog.md', 'extension/LICENSE.txt']) {
      entry(name);
    }
  });

  it('holds every file its manifest names: the bundle, the icon, the walkthrough media and the request schema', () => {
    const manifest = JSON.parse(entry('extension/package.json').read().toString('utf8')) as Manifest;
    const named = filesNamedBy(manifest);
    assert.ok(named.length >= 6, named.join(', '));
    for (const file of named) entry(`extension/${file}`);
  });

  it('resolves every "%key%" of its manifest from the packaged package.nls.json', () => {
    const strings = JSON.parse(entry('extension/package.nls.json').read().toString('utf8'));
    const missing: string[] = [];
    localize(JSON.parse(entry('extension/package.json').read().toString('utf8')), strings, missing);
    assert.deepEqual(missing, []);
  });

  it('holds no sources, tests, maps, dependencies, CLI bundle, demo or build configuration', () => {
    const forbidden = names.filter((name) => /^extension\/(src|test|out|bench|demo|docs|scripts|node_modules|\.vscode|\.vscode-test|test-artifacts|\.ci)\//.test(name)
      || /\.(ts|map|mjs|vsix|log)$/.test(name)
      || /^extension\/(dist\/cli\.js|tsconfig.*\.json|esbuild\.mjs|eslint\.config\.mjs|package-lock\.json|\.gitignore|\.npmignore)$/.test(name));
    assert.deepEqual(forbidden, []);
  });

  it('ships a minified bundle that loads nothing but vscode and Node built-ins', () => {
    const bundle = entry('extension/dist/extension.js').read().toString('utf8');
    assert.ok(!bundle.includes('sourceMappingURL'), 'no source map reference');
    const averageLineLength = bundle.length / bundle.split('\n').length;
    assert.ok(averageLineLength > 1000, `minified (lines average ${Math.round(averageLineLength)} characters)`);
    const required = new Set([...bundle.matchAll(/\brequire\("([^"]+)"\)/g)].map((match) => match[1]));
    const allowed = new Set(['vscode', ...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
    assert.ok(required.has('vscode'));
    assert.deepEqual([...required].filter((name) => !allowed.has(name)), []);
  });

  it('has a README whose images are HTTPS URLs, as the Marketplace and VS Code require', () => {
    const readme = entry('extension/readme.md').read().toString('utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map((match) => match[1]);
    assert.ok(images.length > 0);
    assert.deepEqual(images.filter((image) => !image.startsWith('https://')), []);
  });

  it('describes itself with a repository, issue tracker, homepage, license and banner', () => {
    const manifest = entry('extension.vsixmanifest').read().toString('utf8');
    for (const expected of ['Microsoft.VisualStudio.Services.Links.Source', 'Microsoft.VisualStudio.Services.Links.Support',
      'Microsoft.VisualStudio.Services.Links.Learn', 'Microsoft.VisualStudio.Services.Branding.Color', 'Microsoft.VisualStudio.Services.Content.License']) {
      assert.ok(manifest.includes(expected), expected);
    }
  });
});

describe('the npm package (npm pack): the multi-edit command line', function () {
  this.timeout(BUILD_TIMEOUT_MS);
  let folder: string;
  let tarball: string;

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'multi-edit-npm-'));
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', folder])) as { filename: string }[];
    tarball = join(folder, packed[0].filename);
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('holds the CLI and MCP bundles, the request schema and the documents, and nothing else', () => {
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    const docs = readdirSync(join(REPO_ROOT, 'docs')).map((name) => `package/docs/${name}`);
    assert.deepEqual(listed, [
      'package/CHANGELOG.md', 'package/LICENSE', 'package/README.md',
      'package/dist/cli.js', 'package/dist/mcp.js', 'package/dist/schemaProblem.js',
      'package/dist/treeSitterErrors.js', 'package/dist/jsonSyntaxErrors.js', 'package/dist/notebookSyntaxErrors.js', 'package/dist/planNotebook.js',
      'package/dist/textCodecs.js', 'package/dist/historyRecord.js', ...treeSitterFiles('package/dist/tree-sitter'),
      ...docs, 'package/package.json', 'package/schemas/multiedit-request.schema.json',
    ].sort());
  });

  it('holds as many files, of the size, as docs/cli.md states', () => {
    const cliDoc = readFileSync(join(REPO_ROOT, 'docs', 'cli.md'), 'utf8');
    const stated = /multi-edit-[\d.]+\.tgz \((\d+) files, about ([\d.]+) MB\)/.exec(cliDoc);
    assert.ok(stated, 'docs/cli.md states what npm pack writes');
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
    assert.equal(Number(stated[1]), listed.length);
    assertNear(Number(stated[2]) * MB, statSync(tarball).size, 'the npm package');
    assert.ok(cliDoc.includes(`${treeSitterFiles('').length - 1} grammars`), 'docs/cli.md counts the grammars');
  });

  it('has no run-time dependencies, since the bundles carry their libraries', () => {
    assert.equal((readJsonFile('package.json') as { dependencies?: unknown }).dependencies, undefined);
  });

  it('installs with npm install -g and puts a working multi-edit on PATH', () => {
    const prefix = join(folder, 'prefix');
    npm(['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--offline', tarball], folder);
    const target = join(folder, 'greeting.txt');
    writeFileSync(target, 'hello world\n');
    const request = join(folder, 'request.json');
    writeFileSync(request, JSON.stringify({ file_path: target, edits: [{ old_string: 'world', new_string: 'there' }] }));
    const output = execFileSync(join(prefix, 'bin', 'multi-edit'), ['apply', request], { encoding: 'utf8' });
    assert.equal(JSON.parse(output).success, true, output);
    assert.equal(readFileSync(target, 'utf8'), 'hello there\n');
    // An invalid request loads the schema explanation, a module of its own in the package.
    writeFileSync(request, JSON.stringify({ file_path: target, edits: [{ old: 'there' }] }));
    const invalid = spawnSync(join(prefix, 'bin', 'multi-edit'), ['apply', request], { encoding: 'utf8' });
    assert.equal(invalid.status, 1, invalid.stderr);
    assert.equal(JSON.parse(invalid.stdout).error_code, 'VALIDATION_FAILED');
    // An edit that breaks a TypeScript file loads the parser and its grammar from the package.
    const source = join(folder, 'sum.ts');
    writeFileSync(source, 'const total = sum(1, 2);\n');
    writeFileSync(request, JSON.stringify({ file_path: source, edits: [{ old_string: 'sum(1, 2)', new_string: 'sum(1, 2' }] }));
    const broken = spawnSync(join(prefix, 'bin', 'multi-edit'), ['apply', request], { encoding: 'utf8' });
    assert.equal(JSON.parse(broken.stdout).error_code, 'SYNTAX_REGRESSION', broken.stderr);
    assert.equal(broken.stderr, '');
  });
});
