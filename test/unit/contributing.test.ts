/**
 * CONTRIBUTING.md walks a newcomer through four kinds of change, each naming the files to touch.
 * The files it names exist, and each file the error-code walk names for the codes (all but the
 * l10n bundle, which holds the guidance's texts) mentions every code of the table: a walk that
 * goes stale fails here.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES } from '../../src/core/contract/errorCodes';
import { REPO_ROOT } from './helpers/manifest';

const TOP_LEVEL_FILES = ['README.md', 'CHANGELOG.md', 'package.json', 'package.nls.json', 'eslint.config.mjs', 'esbuild.mjs', '.npmignore'];

/** The text of a `## ` or `### ` section, up to the next heading of the same level or above. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start !== -1, `CONTRIBUTING.md has the section "${heading}"`);
  const level = heading.split(' ')[0];
  const rest = text.slice(start + heading.length + 2);
  const next = rest.search(new RegExp(`^#{2,${level.length}} `, 'm'));
  return next === -1 ? rest : rest.slice(0, next);
}

/** The repository paths a text names in backticks (placeholders such as `<file>` left out). */
function namedPaths(text: string): string[] {
  const quoted = [...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]);
  return [...new Set(quoted.filter((word) => !word.includes('<') && (/^(src|test|docs|l10n|schemas)\//.test(word) || TOP_LEVEL_FILES.includes(word))))];
}

/** A Record keyed by ErrorCode, written so that this file does not match itself. */
const CODE_TABLE = new RegExp(['Record<', 'ErrorCode\\b'].join(''));

/** Every .ts file under a folder of the repository, as repository paths. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts')).map((name) => `${folder}/${name.replace(/\\/g, '/')}`);
}

describe('CONTRIBUTING.md: the four walks', () => {
  const contributing = readFileSync(join(REPO_ROOT, 'CONTRIBUTING.md'), 'utf8');
  const walks = section(contributing, '## Four walks');

  it('names only files and folders that exist', () => {
    const named = namedPaths(walks);
    assert.ok(named.length > 30, named.join(', '));
    assert.deepEqual(named.filter((file) => !existsSync(join(REPO_ROOT, file.replace(/\/$/, '')))), []);
  });

  for (const heading of ['### Adding an error code', '### Adding a language to the syntax gate', '### Adding a patch format', '### Adding a surface']) {
    it(`has the walk "${heading.slice(4)}"`, () => {
      assert.ok(namedPaths(section(contributing, heading)).length >= 4);
    });
  }

  it('names, for an error code, files that each mention every code of the table (the l10n bundle aside)', () => {
    const files = namedPaths(section(contributing, '### Adding an error code')).filter((file) => !file.startsWith('l10n/') && !file.startsWith('test/unit/helpers/'));
    assert.deepEqual(files.sort(), ['docs/errors.md', 'src/core/contract/errorCodes.ts', 'src/vscode/problems/guidance.ts', 'test/unit/engine.codes.test.ts']);
    for (const file of files) {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      assert.deepEqual(Object.keys(ERROR_CODES).filter((code) => !text.includes(code)), [], file);
    }
  });

  it('names, for an error code, every file with a table keyed by every code (one the compiler holds to the codes)', () => {
    const named = namedPaths(section(contributing, '### Adding an error code'));
    const tables = [...sourceFiles('src'), ...sourceFiles('test')].filter((file) => CODE_TABLE.test(readFileSync(join(REPO_ROOT, file), 'utf8')));
    assert.ok(tables.length >= 2, tables.join(', '));
    assert.deepEqual(tables.filter((file) => !named.includes(file)), []);
  });
});
