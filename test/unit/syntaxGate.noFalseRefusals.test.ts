/**
 * No false refusals: a neutral edit (a comment line, or a JSON string's content) on
 * real files of the gate's languages from node_modules must never be SYNTAX_REGRESSION.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { visit } from 'jsonc-parser';
import { fileSyntaxChecker, treeSitterWasmDirectory } from '../../src/shared/syntax/fileSyntaxChecker';
import { syntaxLanguageOf } from '../../src/shared/syntax/syntaxLanguages';
import { run } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';

const REPO = join(__dirname, '..', '..', '..');
/** The project's packages, and those of the VS Code the integration tests run (C, C++, C# and more shell and CSS). */
const CORPUS_ROOTS = [join(REPO, 'node_modules'), ...vscodeTestModules()];

function vscodeTestModules(): string[] {
  const folder = join(REPO, '.vscode-test');
  return existsSync(folder)
    ? readdirSync(folder).filter((name) => name.startsWith('code-server-')).sort().slice(-1).map((name) => join(folder, name, 'node_modules'))
    : [];
}
/** Files taken per extension, spread over the sorted list; every file is taken when there are fewer. */
const PER_EXTENSION: Readonly<Record<string, number>> = {
  '.ts': 90, '.js': 60, '.mjs': 30, '.cjs': 30, '.json': 50, '.css': 20, '.sh': 20, '.py': 10, '.go': 10, '.php': 10, '.rb': 10,
  '.c': 20, '.h': 20, '.cpp': 20, '.cs': 10, '.rs': 10, '.java': 10, '.tsx': 10,
};
const MAX_BYTES = 512 * 1024;
const HASH_COMMENT = new Set(['.py', '.sh', '.rb']);

function collect(directory: string, found: Map<string, string[]>, depth = 0): void {
  if (depth > 12) {
    return;
  }
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith('.')) {
      collect(path, found, depth + 1);
    } else if (entry.isFile() && extname(entry.name) in PER_EXTENSION && syntaxLanguageOf(path)) {
      found.set(extname(entry.name), [...(found.get(extname(entry.name)) ?? []), path]);
    }
  }
}

function sample(): string[] {
  const found = new Map<string, string[]>();
  CORPUS_ROOTS.forEach((root) => collect(root, found));
  return [...found].flatMap(([extension, paths]) => {
    const sorted = paths.filter((path) => statSync(path).size <= MAX_BYTES).sort();
    const wanted = PER_EXTENSION[extension];
    const step = Math.max(1, sorted.length / wanted);
    return Array.from({ length: Math.min(wanted, sorted.length) }, (_, index) => sorted[Math.floor(index * step)]);
  });
}

/** A comment line put before the middle-most line that follows a statement's end, or a JSON string's content changed. */
function neutralEdit(path: string, text: string): { old_string: string; new_string: string } | undefined {
  const extension = extname(path);
  if (extension === '.json') {
    let offset: number | undefined;
    visit(text, { onLiteralValue: (value, at) => { offset ??= typeof value === 'string' && value.length > 0 ? at + 1 : undefined; } });
    return offset === undefined ? undefined : uniqueAround(text, offset, 'zq');
  }
  const lines = text.split('\n');
  const comment = HASH_COMMENT.has(extension) ? '# a neutral comment' : extension === '.css' ? '/* a neutral comment */' : '// a neutral comment';
  const follows = HASH_COMMENT.has(extension) ? /[^\\]$/ : /[;{},]\s*$/;
  const candidates = lines.map((_, index) => index).filter((index) => index > 0 && follows.test(lines[index - 1]) && lines[index].trim() !== '');
  for (const index of [...candidates].sort((a, b) => Math.abs(a - lines.length / 2) - Math.abs(b - lines.length / 2))) {
    const offset = lines.slice(0, index).reduce((sum, line) => sum + line.length + 1, 0);
    const edit = uniqueAround(text, offset, `${comment}\n`);
    if (edit) {
      return edit;
    }
  }
  return undefined;
}

/** An edit inserting `insert` at `offset`, its old_string whole lines around it, grown until it occurs once. */
function uniqueAround(text: string, offset: number, insert: string): { old_string: string; new_string: string } | undefined {
  for (let reach = 8; reach <= 4096; reach *= 2) {
    const start = text.lastIndexOf('\n', Math.max(0, offset - reach)) + 1;
    const lineEnd = text.indexOf('\n', Math.min(text.length, offset + reach));
    const end = lineEnd === -1 ? text.length : lineEnd;
    const old = text.slice(start, end);
    if (old.length > 0 && text.indexOf(old) === text.lastIndexOf(old)) {
      return { old_string: old, new_string: `${text.slice(start, offset)}${insert}${text.slice(offset, end)}` };
    }
  }
  return undefined;
}

describe('syntax gate: no false refusals on real files', function () {
  this.timeout(600_000);
  const checker = fileSyntaxChecker({ wasmDirectory: treeSitterWasmDirectory() });

  it('refuses none of at least 200 neutral edits of files from node_modules', async () => {
    const edited: string[] = [];
    const refused: string[] = [];
    for (const path of sample()) {
      const text = readFileSync(path, 'utf8');
      const edit = neutralEdit(path, text);
      if (!edit) {
        continue;
      }
      // The file under a path of its own: responses never name node_modules.
      const target = `/corpus/${relative(REPO, path).replace(/node_modules/g, 'packages')}`;
      const store = new MemoryStore({ [target]: text });
      const response = await run('multi_edit', { file_path: target, edits: [edit] }, { store, syntaxChecker: checker });
      assert.ok(response.success || response.error_code === 'SYNTAX_REGRESSION', JSON.stringify(response));
      (response.success ? edited : refused).push(path);
    }
    const counts = new Map<string, number>();
    edited.forEach((path) => counts.set(extname(path), (counts.get(extname(path)) ?? 0) + 1));
    const byExtension = [...counts].map(([extension, count]) => `${extension} ${count}`);
    console.log(`      neutral edits: ${edited.length + refused.length} (${byExtension.join(', ')}), refused: ${refused.length}`);
    assert.deepEqual(refused, []);
    assert.ok(edited.length >= 200, `only ${edited.length} files were edited`);
  });
});
