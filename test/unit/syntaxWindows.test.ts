/**
 * The syntax gate's windows: a check by windows accepts only what the full comparison
 * accepts. A seeded generator makes random edits to this repository's source files (and
 * JavaScript from node_modules), many of them breaking the parse, some on files already
 * broken elsewhere, and the gate's verdict with windows must equal its verdict without.
 * MULTI_EDIT_WINDOW_CASES raises the number of cases.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import type { SyntaxChecker } from '../../src/core/syntax/syntaxChecker';
import { syntaxRegressions } from '../../src/core/syntax/syntaxGate';
import { fileSyntaxChecker, treeSitterWasmDirectory } from '../../src/shared/syntax/fileSyntaxChecker';
import { scanStatementStarts } from '../../src/shared/syntax/statementStarts';
import { statementWindows } from '../../src/shared/syntax/syntaxWindows';
import { applied, corpus, generator, grammarOf, hideLines, plannedFile, randomChange, randomReplacement, verdictOf } from './helpers/scriptCorpus';

const CASES = Number(process.env.MULTI_EDIT_WINDOW_CASES ?? 2000);

describe('syntax gate: windows', () => {
  const wasmDirectory = treeSitterWasmDirectory();

  it('gives the verdict of the full comparison on random edits to real source files, breaking ones included', async function () {
    this.timeout(30 * 60 * 1000);
    const files = corpus();
    const windowed = fileSyntaxChecker({ wasmDirectory });
    const fullOnly = fileSyntaxChecker({ wasmDirectory });
    const full: SyntaxChecker = { errorsIn: (path, text, change) => fullOnly.errorsIn(path, text, change) };
    const tally = { cases: 0, acceptedByWindows: 0, acceptedOnBroken: 0, refusedByFull: 0, brokenOriginals: 0, hiddenOriginals: 0, disagreements: [] as string[] };
    for (let index = 0; index < CASES; index++) {
      const random = generator(index + 1);
      const { path, text } = random.pick(files);
      // One case in five edits a file that is already broken somewhere; one in five a file with lines hidden in a comment or a template literal.
      const kind = random.below(10);
      const broken = kind < 2;
      const original = broken ? applied(text, [randomReplacement(text, random)]) : kind < 4 ? hideLines(text, random, kind === 2 ? ['/*', '*/'] : ['const hidden = `', '`;']) : text;
      // A path of its own per case, so that no tree kept from an earlier case stands in for the windows.
      const file = plannedFile(`/case${index}${path}`, original, randomChange(original, random));
      if (file.newText.whole() === original) {
        continue;
      }
      tally.cases++;
      tally.brokenOriginals += broken ? 1 : 0;
      tally.hiddenOriginals += kind === 2 || kind === 3 ? 1 : 0;
      const change = { from: original, replaced: file.spans };
      if (await windowed.addsNoErrorWithoutFullParse?.(file.path, file.newText, change)) {
        tally.acceptedByWindows++;
        tally.acceptedOnBroken += broken ? 1 : 0;
      }
      const withWindows = verdictOf(await syntaxRegressions([{ file, fileIndex: 0 }], windowed, () => false));
      const withoutWindows = verdictOf(await syntaxRegressions([{ file, fileIndex: 0 }], full, () => false));
      tally.refusedByFull += withoutWindows === '[]' ? 0 : 1;
      if (withWindows !== withoutWindows) {
        tally.disagreements.push(`case ${index + 1} (${path}): windows ${withWindows}, full ${withoutWindows}`);
      }
    }
    console.log(`      ${tally.cases} cases over ${files.length} files (${tally.brokenOriginals} on broken originals, ${tally.hiddenOriginals} with lines hidden in a comment or template): ${tally.acceptedByWindows} accepted by windows (${tally.acceptedOnBroken} of them on broken originals), ${tally.refusedByFull} refused by the full comparison, ${tally.disagreements.length} disagreements`);
    assert.deepEqual(tally.disagreements, []);
    assert.ok(tally.acceptedByWindows > tally.cases / 10, 'windows decide a fair share of the cases');
    assert.ok(tally.refusedByFull > tally.cases / 10, 'a fair share of the cases break the parse');
  });

  it('finds only places where tree-sitter starts a top-level statement, in the corpus and in random edits of it that still parse', async function () {
    this.timeout(10 * 60 * 1000);
    await Parser.init({ locateFile: () => join(wasmDirectory, 'tree-sitter.wasm') });
    const parsers = new Map<string, Parser>();
    for (const grammar of ['typescript', 'tsx', 'javascript']) {
      const parser = new Parser();
      parser.setLanguage(await Language.load(readFileSync(join(wasmDirectory, `tree-sitter-${grammar}.wasm`))));
      parsers.set(grammar, parser);
    }
    const misplaced: string[] = [];
    let texts = 0;
    let starts = 0;
    const check = (path: string, text: string): void => {
      const { grammar, dialect } = grammarOf(path);
      const tree = parsers.get(grammar)?.parse(text);
      if (!tree || tree.rootNode.hasError) {
        tree?.delete();
        return;
      }
      const statementStarts = new Set(tree.rootNode.children.map((child) => child?.startIndex));
      tree.delete();
      texts++;
      for (const start of scanStatementStarts(text, dialect).starts) {
        starts++;
        const token = start + (/^\s*/.exec(text.slice(start, start + 200))?.[0].length ?? 0);
        if (!statementStarts.has(token)) {
          misplaced.push(`${path}: line starting at ${start}: ${JSON.stringify(text.slice(token, token + 40))}`);
        }
      }
    };
    const files = corpus();
    files.forEach(({ path, text }) => check(path, text));
    for (let index = 0; index < CASES; index++) {
      const random = generator(1_000_000 + index);
      const { path, text } = random.pick(files);
      const hidden = random.below(2) === 0 ? hideLines(text, random, random.below(2) === 0 ? ['/*', '*/'] : ['const hidden = `', '`;']) : text;
      check(path, applied(hidden, randomChange(hidden, random)));
    }
    console.log(`      ${starts} statement starts in ${texts} texts that parse, ${misplaced.length} not where tree-sitter starts a statement`);
    assert.deepEqual(misplaced.slice(0, 10), []);
  });

  it('leaves the check to the incremental reparse when the checker keeps a tree of the original', async () => {
    const original = 'const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n';
    const at = original.indexOf('2');
    const file = plannedFile('/w/kept.ts', original, [{ start: at, end: at + 1, text: '22' }]);
    const change = { from: original, replaced: file.spans };
    const checker = fileSyntaxChecker({ wasmDirectory });
    assert.equal(await checker.addsNoErrorWithoutFullParse?.('/w/kept.ts', file.newText, change), true);
    assert.deepEqual(await checker.errorsIn('/w/kept.ts', original), []);
    assert.equal(await checker.addsNoErrorWithoutFullParse?.('/w/kept.ts', file.newText, change), false);
  });

  it('does not take a declaration inside a comment for a statement start, so an edit that ends the comment is refused', async () => {
    const original = '/*\nexport const k = 1;\nexport const j = 2;\n*/\nexport const z = 3;\n';
    const replacements = [{ start: original.indexOf('1;'), end: original.indexOf('1;') + 2, text: '2 */ab/;' }];
    const file = plannedFile('/w/a.ts', original, replacements);
    const checker = fileSyntaxChecker({ wasmDirectory });
    assert.deepEqual(scanStatementStarts(original, 'typescript').starts, [original.indexOf('export const z')]);
    assert.equal(await checker.addsNoErrorWithoutFullParse?.('/w/a.ts', file.newText, { from: original, replaced: file.spans }), false);
    assert.equal((await syntaxRegressions([{ file, fileIndex: 0 }], checker, () => false)).length, 1);
  });

  it('finds statement starts only at top level, after `;` or `}`, outside literals', () => {
    const text = [
      'import { a } from "a";',
      'const t = `',
      'export const inTemplate = 1;',
      '`;',
      'function f() {',
      '  const inBlock = 1;',
      '}',
      '  export const indented = /[/]"/.test("x");',
      'const o = {}',
      'export let afterObject = 1',
      'export type Next = 1;',
    ].join('\n');
    const lineStart = (fragment: string): number => text.lastIndexOf('\n', text.indexOf(fragment)) + 1;
    const scan = scanStatementStarts(text, 'typescript');
    assert.deepEqual(scan.starts, [0, lineStart('const t'), lineStart('function f'), lineStart('export const indented'), lineStart('const o'), lineStart('export let afterObject')]);
    assert.equal(scan.readTo, text.length);
    assert.equal(scan.closesStatement, true);
  });

  it('refuses a `#!` line an edit puts at the start of a window further in, which the window alone would read as a file\'s first line', async () => {
    const original = 'const a = 1;\nexport const b = 2;\n';
    const at = original.indexOf('export');
    const file = plannedFile('/w/a.ts', original, [{ start: at, end: at, text: '#!/usr/bin/env node\n' }]);
    const checker = fileSyntaxChecker({ wasmDirectory });
    assert.equal(await checker.addsNoErrorWithoutFullParse?.('/w/a.ts', file.newText, { from: original, replaced: file.spans }), false);
    assert.equal((await syntaxRegressions([{ file, fileIndex: 0 }], checker, () => false)).length, 1);
    const atStart = plannedFile('/w/a.ts', original, [{ start: 0, end: 0, text: '#!/usr/bin/env node\n' }]);
    assert.equal((await syntaxRegressions([{ file: atStart, fileIndex: 0 }], checker, () => false)).length, 0);
  });

  it('reads a pattern at the start of a template literal\'s `${`, where an expression starts', () => {
    const text = "const s = `${/'/.test(a) ? 'y' : 'n'} and '`;\nexport const b = 1;\n";
    const scan = scanStatementStarts(text, 'typescript');
    assert.deepEqual(scan.starts, [0, text.indexOf('export')]);
    assert.equal(scan.readTo, text.length);
  });

  it('stops where it cannot tell a pattern from a division, or where JSX may open', () => {
    const afterBrace = 'const a = 1;\nif (a) {}\n/x"/.test("y");\nconst b = 2;\n';
    assert.equal(scanStatementStarts(afterBrace, 'typescript').readTo, afterBrace.indexOf('/x'));
    const nonNull = 'const a = b! / 2; // see /* here\nexport const c = 1;\nconst d = !/x/.test(a);\n';
    assert.equal(scanStatementStarts(nonNull, 'typescript').readTo, nonNull.indexOf('/ 2'));
    const not = 'const d = !/x"/.test(a);\nexport const c = 1;\n';
    assert.deepEqual(scanStatementStarts(not, 'typescript').starts, [0, not.indexOf('export')]);
    const jsx = 'const a = 1;\nconst e = <div>it\'s</div>;\nconst b = 2;\n';
    assert.equal(scanStatementStarts(jsx, 'jsx').readTo, jsx.indexOf('<div'));
    // Read as TypeScript, the apostrophe of the element's text opens a string that never ends on its line.
    assert.equal(scanStatementStarts(jsx, 'typescript').readTo, jsx.indexOf("'s"));
  });

  it('reads back the token before a `/` or a `(` inside brackets, across blanks, lines and comments', () => {
    const readsAll = (text: string, starts: string[]): void => {
      const scan = scanStatementStarts(text, 'typescript');
      assert.deepEqual(scan.starts, starts.map((fragment) => text.lastIndexOf('\n', text.indexOf(fragment)) + 1), text);
      assert.equal(scan.readTo, text.length, text);
    };
    // Each `"` below opens a string that never ends on its line if the `/` before it is read the wrong way.
    readsAll('const r = [a.return / 2, /"/.test(b)];\nexport const c = 1;\n', ['const r', 'export']);
    readsAll('function f() {\n  if (ok) /"/.test(s);\n  while (x)\n    /"/.test(t);\n}\nexport const c = 1;\n', ['function', 'export']);
    readsAll('function f() {\n  return /* why */ /"/.test(s);\n}\nexport const c = 1;\n', ['function', 'export']);
    readsAll('const q = [f(x) /* half */ / 2, z3.infer / 2, 1.5 / 2, "/"];\nexport const c = 1;\n', ['const q', 'export']);
    readsAll('const p = [...a.map((x) => !/"/.test(x)), `${x}` / 2];\nexport const c = 1;\n', ['const p', 'export']);
    // A statement starts after `;` or `}`, whatever blanks and comments stand between.
    readsAll('const a = 1; // done\n/** doc */\nexport const b = 2;\nconst c = d\nexport const e = 3;\n', ['const a', 'export const b', 'const c']);
    readsAll('const a = 1;\r\nexport const b = 2;\r\n', ['const a', 'export']);
    readsAll('for (let i = 3; i-->0;) {}\nexport const c = 1;\n', ['export']);
  });

  it('stops inside brackets where the token before does not tell, and at what it does not model', () => {
    const stopsAt = (text: string, fragment: string): void => assert.equal(scanStatementStarts(text, 'typescript').readTo, text.indexOf(fragment), text);
    stopsAt('const a = (x++ / 2);\nexport const c = 1;\n', '/ 2');
    stopsAt('const a = [\n--> 1\n];\nexport const c = 1;\n', '-->');
    stopsAt('const a = [1,\r 2];\nexport const c = 1;\n', '\r');
    stopsAt('const a = { b: 1 \\u0062 };\n', '\\u');
    stopsAt('const a = [1,\u00a02];\n', '\u00a0');
  });

  it('makes one window per stretch of statements an edit touches, and none when the window would be the whole file', () => {
    const original = 'const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n';
    const at = original.indexOf('2');
    const windows = statementWindows({ from: original, replaced: [{ start: at, end: at + 1, newStart: at, text: '22' }] }, original.replace('2;', '22;'), 'typescript');
    assert.deepEqual(windows, [{ oldStart: 13, oldEnd: 26, newStart: 13, newEnd: 27 }]);
    const whole = 'function f() {\n  return 2;\n}\n';
    assert.equal(statementWindows({ from: whole, replaced: [{ start: 24, end: 25, newStart: 24, text: '3' }] }, whole.replace('2', '3'), 'typescript'), undefined);
  });
});
