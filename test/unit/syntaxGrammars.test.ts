/**
 * The syntax gate's grammars have one list, TREE_SITTER_GRAMMARS: the build copies exactly
 * those (with the runtime) to dist/tree-sitter, which every package ships, and the build
 * script names none of them itself.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TREE_SITTER_GRAMMARS } from '../../src/shared/syntax/syntaxLanguages';
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
});
