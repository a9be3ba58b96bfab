/**
 * The syntax gate's grammars have one list, TREE_SITTER_GRAMMARS: the build copies exactly
 * those (with the runtime) to dist/tree-sitter, which every package ships, and the build
 * script names none of them itself. The texts that name the checked languages for people (the
 * CLI's help, the setting's description, the README, docs/errors.md) say what the list says.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkedLanguagesText, GRAMMAR_LANGUAGES, SYNTAX_FILE_NAMES, TREE_SITTER_GRAMMARS } from '../../src/shared/syntax/syntaxLanguages';
import { REPO_ROOT } from './helpers/manifest';

describe('syntax gate: the grammar list', () => {
  it('is what the build ships: the runtime and one file per listed grammar, nothing else', () => {
    const shipped = readdirSync(join(REPO_ROOT, 'dist', 'tree-sitter')).sort();
    assert.deepEqual(shipped, ['tree-sitter.wasm', ...TREE_SITTER_GRAMMARS.map((grammar) => `tree-sitter-${grammar}.wasm`)].sort());
  });

  it('is kept nowhere else: the build script quotes no grammar name', () => {
    const script = readFileSync(join(REPO_ROOT, 'esbuild.mjs'), 'utf8');
    const quoted = TREE_SITTER_GRAMMARS.filter((grammar) => new RegExp(`['"\`]${grammar}['"\`]`).test(script));
    assert.deepEqual(quoted, []);
  });

  const read = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');

  it('names the same languages in the CLI\'s help and in the syntaxCheck setting\'s description', () => {
    const sentence = `Checked: ${checkedLanguagesText()} files`;
    assert.ok(read('src/node/cli/cliHelp.ts').includes(`const SYNTAX_LANGUAGES = '${checkedLanguagesText()}';`));
    const strings = JSON.parse(read('package.nls.json')) as Record<string, string>;
    assert.ok(strings['configuration.syntaxCheck.description'].includes(sentence), strings['configuration.syntaxCheck.description']);
  });

  it('names every language in the README\'s paragraph on the syntax check', () => {
    const paragraph = /^It knows [^]*?\n\n/m.exec(read('README.md'))?.[0] ?? '';
    const missing = Object.values(GRAMMAR_LANGUAGES).flat().filter((name) => !new RegExp(`(^|[\\s,(])${name.replace(/[+#]/g, '\\$&')}([\\s,)]|$)`, 'i').test(paragraph));
    assert.deepEqual(missing, [], paragraph);
  });

  it('lists every file extension and name it parses in docs/errors.md\'s table of languages', () => {
    const table = /^\| Languages \| Files \| Parser \|\n(?:\|.*\n)+/m.exec(read('docs/errors.md'))?.[0] ?? '';
    const words = new Set(table.split(/[\s`,|]+/));
    const missing = [
      ...SYNTAX_FILE_NAMES.extensions.filter((extension) => !words.has(`.${extension}`)),
      ...SYNTAX_FILE_NAMES.names.filter((name) => !words.has(name)),
    ];
    assert.deepEqual(missing, []);
  });
});
