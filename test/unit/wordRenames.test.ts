/**
 * The syntax gate's check by words: a change that only respells words is accepted without a
 * parse, and only when the full comparison accepts it too. Random renames of words in this
 * repository's sources (whole words, parts of words, every occurrence of a word; to fresh
 * names, to keywords, to words the grammars' look-ahead reads, to numbers, to nothing), some
 * on files already broken elsewhere, are checked against tree-sitter's verdict: an accepted
 * rename is one the full comparison accepts, or, on a file already broken, one that leaves
 * no more errors than it found (the recovery then moved an old error across a line).
 * MULTI_EDIT_RENAME_CASES raises the number of cases.
 */
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import type { SyntaxChecker } from '../../src/core/syntax/syntaxChecker';
import { syntaxRegressions } from '../../src/core/syntax/syntaxGate';
import { fileSyntaxChecker, treeSitterWasmDirectory } from '../../src/shared/syntax/fileSyntaxChecker';
import { SCRIPT_GRAMMAR_WORDS } from '../../src/shared/syntax/scriptGrammarWords';
import { onlyRenamesWords } from '../../src/shared/syntax/wordRenames';
import { applied, corpus, generator, plannedFile, randomReplacement, verdictOf, type Random, type Replacement } from './helpers/scriptCorpus';

const CASES = Number(process.env.MULTI_EDIT_RENAME_CASES ?? 1500);
const WORD = /[A-Za-z0-9_$]+/g;
/** Words that start as the grammars' look-ahead reads `in`, `instanceof` and `is`, and others near them. */
const LOOK_AHEAD_WORDS = ['in', 'inner', 'in_x', 'in0', 'in$', 'is', 'isReady', 'is_a', 'instanceof', 'instanceofX', 'instanceof_', 'index', 'i', 'item'];
const ODD_WORDS = ['a$', '$', '_', '1x', '0', '9_9', 'e5', 'u0041', 'x0', 'caf\u00e9', '\u00e9t\u00e9', 'gi', 'amp', 'n'];

/** The word of `text` at or after `at`, or undefined past the last. */
function wordFrom(text: string, at: number): { start: number; end: number } | undefined {
  WORD.lastIndex = at;
  const found = WORD.exec(text);
  return found ? { start: found.index, end: found.index + found[0].length } : undefined;
}

function replacementWord(random: Random, old: string): string {
  switch (random.below(8)) {
    case 0:
    case 1:
      return `renamed${random.below(100)}`;
    case 2:
      return random.pick([...SCRIPT_GRAMMAR_WORDS]);
    case 3:
      return random.pick(LOOK_AHEAD_WORDS);
    case 4:
      return random.pick(ODD_WORDS);
    case 5:
      return '';
    default: {
      // A few characters of the word respelled, as a typo fix or a suffix change does.
      const at = random.below(old.length + 1);
      const cut = Math.min(old.length, at + random.below(3));
      return old.slice(0, at) + random.pick(['x', 'Y', '_', '$', '2', 'ed', 'In', 's', '']) + old.slice(cut);
    }
  }
}

/** One to three word renames apart from each other, or every whole occurrence of one word (as replace_all does). */
function randomRenames(text: string, random: Random): Replacement[] {
  const first = wordFrom(text, random.below(text.length));
  if (!first) {
    return [];
  }
  if (random.below(5) === 0) {
    const word = text.slice(first.start, first.end);
    const by = replacementWord(random, word);
    const every: Replacement[] = [];
    for (let at = text.indexOf(word); at !== -1 && every.length < 500; at = text.indexOf(word, at + word.length)) {
      const whole = !/[A-Za-z0-9_$]/.test(text[at - 1] ?? ' ') && !/[A-Za-z0-9_$]/.test(text[at + word.length] ?? ' ');
      if (whole) {
        every.push({ start: at, end: at + word.length, text: by });
      }
    }
    return every;
  }
  const chosen: Replacement[] = [];
  for (let count = 1 + random.below(3); count > 0; count--) {
    const found = count === 1 && chosen.length === 0 ? first : wordFrom(text, random.below(text.length));
    if (found) {
      // Sometimes only part of the word, as an edit's old_string cut inside a name is.
      const start = random.below(4) === 0 ? found.start + random.below(found.end - found.start) : found.start;
      chosen.push({ start, end: found.end, text: replacementWord(random, text.slice(start, found.end)) });
    }
  }
  chosen.sort((a, b) => a.start - b.start);
  return chosen.filter((replacement, index) => index === 0 || replacement.start > chosen[index - 1].end);
}

describe('syntax gate: renamed words', () => {
  const wasmDirectory = treeSitterWasmDirectory();

  it('knows every word of the node names of the JavaScript, TypeScript and TSX grammars', async () => {
    await Parser.init({ locateFile: () => join(wasmDirectory, 'tree-sitter.wasm') });
    const names = new Set<string>();
    for (const grammar of ['typescript', 'tsx', 'javascript']) {
      const language = await Language.load(join(wasmDirectory, `tree-sitter-${grammar}.wasm`));
      for (let id = 0; id < language.nodeTypeCount; id++) {
        // A keyword pair is one token named by both words (`unique symbol`, `static get`).
        for (const word of language.nodeTypeForId(id)?.split(' ') ?? []) {
          if (/^[A-Za-z$][A-Za-z0-9$]*$/.test(word)) {
            names.add(word);
          }
        }
      }
    }
    assert.deepEqual([...SCRIPT_GRAMMAR_WORDS].sort(), [...names].sort());
  });

  it('reads as a plain name every keyword of the language specifications that the grammars do not list, wherever a name stands', async () => {
    // ECMAScript's reserved and contextual words, and TypeScript's: a check on the grammars' node names that does not rest on them.
    const specified = [
      'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export',
      'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch',
      'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield', 'let', 'static', 'implements', 'interface',
      'package', 'private', 'protected', 'public', 'as', 'async', 'from', 'get', 'meta', 'of', 'set', 'target', 'accessor', 'abstract',
      'any', 'asserts', 'bigint', 'boolean', 'constructor', 'declare', 'global', 'infer', 'intrinsic', 'is', 'keyof', 'module',
      'namespace', 'never', 'number', 'object', 'out', 'override', 'readonly', 'require', 'satisfies', 'string', 'symbol', 'type',
      'undefined', 'unique', 'unknown', 'using',
    ];
    const places = [
      'const x = 1;\n', 'x();\n', 'let y = x + 1;\n', 'function f(x) { return x; }\n', 'class A { x() {} }\n', 'type T = x;\n', 'obj.x = 1;\n',
      'a = b\nx\n(1)\n', 'let t: x<number> = z;\n', 'import { x } from "m";\n', 'export const x = 1;\n', 'for (const x of y) {}\n',
      'const o = { x, y: 1 };\n', 'interface I { x: number }\n', 'function g(): x { return 1 }\n', 'x\n++y\n', 'f(x => 1);\n',
      'enum E { x }\n', 'declare function h(a: string): x\nfoo()\n', 'const e = <p x="1">{x}</p>;\n',
    ];
    const checker = fileSyntaxChecker({ wasmDirectory });
    const broken: string[] = [];
    for (const path of ['/w/a.ts', '/w/a.tsx', '/w/a.js']) {
      for (const text of places) {
        if ((await checker.errorsIn(path, text))?.length !== 0) {
          continue;
        }
        for (const word of specified.filter((candidate) => !SCRIPT_GRAMMAR_WORDS.has(candidate))) {
          const renamed = text.replace(/\bx\b/g, word);
          if (((await checker.errorsIn(path, renamed)) ?? []).length > 0) {
            broken.push(`${path}: ${JSON.stringify(renamed)}`);
          }
        }
      }
    }
    assert.deepEqual(broken, []);
  });

  it('accepts only renames the full comparison accepts, on random renames in real source files', async function () {
    this.timeout(30 * 60 * 1000);
    const files = corpus();
    const fullOnly = fileSyntaxChecker({ wasmDirectory });
    const full: SyntaxChecker = { errorsIn: (path, text, change) => fullOnly.errorsIn(path, text, change) };
    const tally = { cases: 0, accepted: 0, acceptedOnBroken: 0, refusedByFull: 0, brokenOriginals: 0, spans: 0, movedOnBroken: 0, disagreements: [] as string[] };
    for (let index = 0; index < CASES; index++) {
      const random = generator(7_000_000 + index);
      const { path, text } = random.pick(files);
      const broken = random.below(5) === 0;
      const original = broken ? applied(text, [randomReplacement(text, random)]) : text;
      const file = plannedFile(`/rename${index}${path}`, original, randomRenames(original, random));
      if (file.newText === original) {
        continue;
      }
      tally.cases++;
      tally.spans += file.spans.length;
      tally.brokenOriginals += broken ? 1 : 0;
      const accepted = onlyRenamesWords({ from: original, replaced: file.spans }, file.newText);
      const verdict = verdictOf(await syntaxRegressions([{ file, fileIndex: 0 }], full, () => false));
      tally.refusedByFull += verdict === '[]' ? 0 : 1;
      if (accepted) {
        tally.accepted++;
        tally.acceptedOnBroken += broken ? 1 : 0;
        if (verdict !== '[]') {
          // On a file already broken, tree-sitter's recovery weighs skipped characters, so a rename can move an old error
          // across a line break, where the full comparison takes it for a new one; a rename must still add no error.
          const extension = path.slice(path.lastIndexOf('.'));
          const oldCount = (await fullOnly.errorsIn(`/old${index}${extension}`, original))?.length ?? 0;
          const newCount = (await fullOnly.errorsIn(`/new${index}${extension}`, file.newText))?.length ?? 0;
          if (broken && newCount <= oldCount) {
            tally.movedOnBroken++;
          } else {
            const first = file.spans[0];
            tally.disagreements.push(`case ${index + 1} (${path}): ${JSON.stringify(original.slice(first.start - 20, first.end + 20))} -> ${JSON.stringify(first.text)}: ${verdict}`);
          }
        }
      }
    }
    console.log(`      ${tally.cases} cases, ${tally.spans} renamed stretches, over ${files.length} files (${tally.brokenOriginals} on broken originals): ${tally.accepted} accepted by their words (${tally.acceptedOnBroken} on broken originals, of which ${tally.movedOnBroken} moved an old error where the full comparison saw a new one), ${tally.refusedByFull} refused by the full comparison, ${tally.disagreements.length} accepted that add an error`);
    assert.deepEqual(tally.disagreements.slice(0, 10), []);
    assert.ok(tally.movedOnBroken <= tally.acceptedOnBroken / 100, 'moved errors stay rare');
    assert.ok(tally.accepted > tally.cases / 4, 'the words decide a fair share of the cases');
    assert.ok(tally.refusedByFull > tally.cases / 10, 'a fair share of the renames break the parse');
  });

  const declined: readonly { readonly why: string; readonly path: string; readonly text: string; readonly old: string; readonly by: string; readonly breaks: boolean }[] = [
    { why: 'a line that now starts with `in` continues the one before', path: 'a.js', text: 'let a = b\nxn_x()\n', old: 'xn_x', by: 'in_x', breaks: true },
    { why: 'a keyword', path: 'a.ts', text: 'const c = klass;\n', old: 'klass', by: 'class', breaks: true },
    { why: 'a word made a number', path: 'a.ts', text: 'let a = 1;\n', old: 'a', by: '1a', breaks: true },
    { why: 'a word emptied', path: 'a.ts', text: 'const a = 1;\n', old: 'a', by: '', breaks: true },
    { why: 'a template\'s `${` respelled (text now, which parses)', path: 'a.ts', text: 'const s = `a${b}`;\n', old: 'a$', by: 'ax', breaks: false },
    { why: 'the exponent of `1.e5`', path: 'a.ts', text: 'const n = 1.e5;\n', old: 'e5', by: 'x5', breaks: true },
    { why: 'an escape', path: 'a.ts', text: 'const s = "\\u0041";\n', old: 'u0041', by: 'uZZZZ', breaks: true },
    { why: 'a pattern\'s flags', path: 'a.ts', text: 'const r = /ab/gi;\n', old: 'gi', by: 'gx', breaks: false },
    { why: 'a character reference in JSX', path: 'a.tsx', text: 'const p = <p>&amp;</p>;\n', old: 'amp', by: 'a_b', breaks: true },
    { why: 'a word that goes on past ASCII', path: 'a.ts', text: 'let caf\u00e9 = 1;\n', old: 'caf', by: 'class', breaks: false },
  ];
  for (const { why, path, text, old, by, breaks } of declined) {
    it(`leaves to the parser a rename it cannot read: ${why}`, async () => {
      const start = text.indexOf(old);
      const file = plannedFile(`/w/${path}`, text, [{ start, end: start + old.length, text: by }]);
      assert.equal(onlyRenamesWords({ from: text, replaced: file.spans }, file.newText), false);
      const regressions = await syntaxRegressions([{ file, fileIndex: 0 }], fileSyntaxChecker({ wasmDirectory }), () => false);
      assert.equal(regressions.length > 0, breaks);
    });
  }

  it('accepts renames in code, strings, comments, templates and JSX without loading a parser', async () => {
    const text = 'import { load } from "load"; // load it\nexport const view = <Load title={`load ${load()}`} data-load="load" />;\nfunction reload(x: Load): Load { return x.load ?? load; }\n';
    const starts = [...text.matchAll(/load/gi)].map((match) => match.index);
    const file = plannedFile('/w/view.tsx', text, starts.map((start) => ({ start, end: start + 4, text: text[start] === 'L' ? 'Fetch' : 'fetch' })));
    let unavailable = 0;
    const checker = fileSyntaxChecker({ wasmDirectory: '/nowhere', onUnavailable: () => unavailable++ });
    assert.equal(await checker.addsNoErrorWithoutFullParse?.('/w/view.tsx', file.newText, { from: text, replaced: file.spans }), true);
    assert.equal(unavailable, 0, 'no parser was loaded');
    const broken = plannedFile('/w/view.tsx', text, [{ start: text.indexOf('{ load }'), end: text.indexOf('{ load }') + 1, text: '' }]);
    assert.equal(await checker.addsNoErrorWithoutFullParse?.('/w/view.tsx', broken.newText, { from: text, replaced: broken.spans }), false);
    assert.equal(await checker.errorsIn('/w/view.tsx', broken.newText), undefined, 'an edit that is not a rename needs the parser, which is not there');
    assert.equal(unavailable, 1);
  });
});
