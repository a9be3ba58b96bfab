/**
 * The syntax gate's check by words: a change that only respells words is accepted without a
 * parse, and only when the full comparison accepts it too. For each language it serves, random
 * renames of words in real sources (whole words, parts of words, every occurrence of a word; to
 * fresh names, to reserved words, to words the grammars' look-ahead reads, to numbers, to
 * nothing), some on files already broken elsewhere, are checked against tree-sitter's verdict:
 * an accepted rename is one the full comparison accepts, or, on a file already broken, one that
 * leaves no more errors than it found (the recovery then moved an old error across a line).
 * MULTI_EDIT_RENAME_CASES raises the number of cases.
 */
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import type { SyntaxChecker } from '../../src/core/syntax/syntaxChecker';
import { syntaxRegressions } from '../../src/core/syntax/syntaxGate';
import { fileSyntaxChecker, treeSitterWasmDirectory } from '../../src/shared/syntax/fileSyntaxChecker';
import { PYTHON_GRAMMAR_WORDS, SCRIPT_GRAMMAR_WORDS } from '../../src/shared/syntax/grammarWords';
import { onlyRenamesWords, PYTHON_WORD_RULES, SCRIPT_WORD_RULES, type WordRules } from '../../src/shared/syntax/wordRenames';
import { applied, corpus, generator, plannedFile, pythonCorpus, randomReplacement, verdictOf, type Random, type Replacement } from './helpers/scriptCorpus';

const CASES = Number(process.env.MULTI_EDIT_RENAME_CASES ?? 1500);

interface Declined {
  readonly why: string;
  readonly path: string;
  readonly text: string;
  readonly old: string;
  readonly by: string;
  /** Whether the rename does break the parse (the others are only out of the check's reach). */
  readonly breaks: boolean;
}

interface LanguageUnderTest {
  readonly name: string;
  readonly grammars: readonly string[];
  readonly rules: WordRules;
  /** The grammars' words as grammarWords.ts keeps them. */
  readonly grammarWords: ReadonlySet<string>;
  /** Which words of the grammars' node names the list keeps. */
  readonly keptWord: RegExp;
  readonly files: () => { path: string; text: string }[];
  readonly cases: number;
  readonly seed: number;
  /** Words the grammars' look-ahead or a neighbour reads, and odd ones. */
  readonly trickyWords: readonly string[];
  /** The keywords of the language's specification, reserved and soft. */
  readonly specified: readonly string[];
  /** Places where a name `x` stands, one file each, with the extension to read them as. */
  readonly places: readonly string[];
  readonly extensions: readonly string[];
  readonly declined: readonly Declined[];
}

const LANGUAGES: readonly LanguageUnderTest[] = [
  {
    name: 'JavaScript, TypeScript and TSX',
    grammars: ['typescript', 'tsx', 'javascript'],
    rules: SCRIPT_WORD_RULES,
    grammarWords: SCRIPT_GRAMMAR_WORDS,
    keptWord: /^[A-Za-z$][A-Za-z0-9$]*$/,
    files: corpus,
    cases: CASES,
    seed: 7_000_000,
    trickyWords: ['in', 'inner', 'in_x', 'in0', 'in$', 'is', 'isReady', 'is_a', 'instanceof', 'instanceofX', 'instanceof_', 'index', 'i', 'item',
      'a$', '$', '_', '1x', '0', '9_9', 'e5', 'u0041', 'x0', 'caf\u00e9', '\u00e9t\u00e9', 'gi', 'amp', 'n'],
    specified: [
      'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export',
      'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch',
      'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield', 'let', 'static', 'implements', 'interface',
      'package', 'private', 'protected', 'public', 'as', 'async', 'from', 'get', 'meta', 'of', 'set', 'target', 'accessor', 'abstract',
      'any', 'asserts', 'bigint', 'boolean', 'constructor', 'declare', 'global', 'infer', 'intrinsic', 'is', 'keyof', 'module',
      'namespace', 'never', 'number', 'object', 'out', 'override', 'readonly', 'require', 'satisfies', 'string', 'symbol', 'type',
      'undefined', 'unique', 'unknown', 'using',
    ],
    places: [
      'const x = 1;\n', 'x();\n', 'let y = x + 1;\n', 'function f(x) { return x; }\n', 'class A { x() {} }\n', 'type T = x;\n', 'obj.x = 1;\n',
      'a = b\nx\n(1)\n', 'let t: x<number> = z;\n', 'import { x } from "m";\n', 'export const x = 1;\n', 'for (const x of y) {}\n',
      'const o = { x, y: 1 };\n', 'interface I { x: number }\n', 'function g(): x { return 1 }\n', 'x\n++y\n', 'f(x => 1);\n',
      'enum E { x }\n', 'declare function h(a: string): x\nfoo()\n', 'const e = <p x="1">{x}</p>;\n',
    ],
    extensions: ['ts', 'tsx', 'js'],
    declined: [
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
    ],
  },
  {
    name: 'Python',
    grammars: ['python'],
    rules: PYTHON_WORD_RULES,
    grammarWords: PYTHON_GRAMMAR_WORDS,
    keptWord: /^([A-Za-z]+|_+|__[A-Za-z]+__)$/,
    files: pythonCorpus,
    cases: Math.round(CASES / 2),
    seed: 8_000_000,
    trickyWords: ['f', 'rb', 'u', 'F', 'b', 'r', 'True', 'None', 'False', '_', '__future__', 'a$', '$', 'match', 'case', 'print', 'exec', '1x', '0', 'e5', 'j', 'x0', 'caf\u00e9', 'in', 'is'],
    specified: [
      'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except',
      'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try',
      'while', 'with', 'yield', '_', 'case', 'match', 'type', 'print', 'exec', '__debug__', '__future__', 'self', 'cls',
    ],
    places: [
      'x = 1\n', 'x()\n', 'y = x + 1\n', 'def f(x):\n    return x\n', 'class A:\n    def x(self):\n        pass\n', 'obj.x = 1\n',
      'import x\n', 'from m import x\n', 'for x in y:\n    pass\n', 'f(x=1)\n', 'z = [x for x in y]\n', 'z = f"{x}"\n', 'g = lambda x: x\n',
      'with a as x:\n    pass\n', 'x: int = 1\n', '@x\ndef g():\n    pass\n', 'match y:\n    case x:\n        pass\n', 'a = b\nx\n',
    ],
    extensions: ['py'],
    declined: [
      { why: 'a string\'s prefix', path: 'a.py', text: "x = f'a'\n", old: 'f', by: 'g', breaks: true },
      { why: 'a `$`, which is no word character in Python', path: 'a.py', text: 'x = ab\n', old: 'ab', by: 'a$', breaks: true },
      { why: 'an f-string\'s conversion', path: 'a.py', text: 'x = f"{a!r}"\n', old: 'r', by: 'rr', breaks: true },
      { why: 'a literal the grammar names in lower case', path: 'a.py', text: 'y = 1\n', old: 'y', by: 'True', breaks: true },
      { why: 'a keyword', path: 'a.py', text: 'y = 1\n', old: 'y', by: 'lambda', breaks: true },
      { why: 'a word made a number', path: 'a.py', text: 'y = 1\n', old: 'y', by: '1y', breaks: true },
    ],
  },
];

/** The word of `text` at or after `at` (by the language's word characters), or undefined past the last. */
function wordFrom(text: string, at: number, rules: WordRules): { start: number; end: number } | undefined {
  let start = at;
  while (start < text.length && !rules.isWordChar(text.charCodeAt(start))) {
    start++;
  }
  let end = start;
  while (end < text.length && rules.isWordChar(text.charCodeAt(end))) {
    end++;
  }
  return end > start ? { start, end } : undefined;
}

function replacementWord(random: Random, old: string, language: LanguageUnderTest): string {
  switch (random.below(8)) {
    case 0:
    case 1:
      return `renamed${random.below(100)}`;
    case 2:
      return random.pick([...language.grammarWords]);
    case 3:
    case 4:
      return random.pick(language.trickyWords);
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
function randomRenames(text: string, random: Random, language: LanguageUnderTest): Replacement[] {
  const { rules } = language;
  const first = wordFrom(text, random.below(text.length), rules);
  if (!first) {
    return [];
  }
  if (random.below(5) === 0) {
    const word = text.slice(first.start, first.end);
    const by = replacementWord(random, word, language);
    const every: Replacement[] = [];
    for (let at = text.indexOf(word); at !== -1 && every.length < 500; at = text.indexOf(word, at + word.length)) {
      if (!rules.isWordChar(text.charCodeAt(at - 1)) && !rules.isWordChar(text.charCodeAt(at + word.length))) {
        every.push({ start: at, end: at + word.length, text: by });
      }
    }
    return every;
  }
  const chosen: Replacement[] = [];
  for (let count = 1 + random.below(3); count > 0; count--) {
    const found = count === 1 && chosen.length === 0 ? first : wordFrom(text, random.below(text.length), rules);
    if (found) {
      // Sometimes only part of the word, as an edit's old_string cut inside a name is.
      const start = random.below(4) === 0 ? found.start + random.below(found.end - found.start) : found.start;
      chosen.push({ start, end: found.end, text: replacementWord(random, text.slice(start, found.end), language) });
    }
  }
  chosen.sort((a, b) => a.start - b.start);
  return chosen.filter((replacement, index) => index === 0 || replacement.start > chosen[index - 1].end);
}

const changeOf = (original: string, file: ReturnType<typeof plannedFile>): { from: string; replaced: typeof file.spans } => ({ from: original, replaced: file.spans });

describe('syntax gate: renamed words', () => {
  const wasmDirectory = treeSitterWasmDirectory();

  for (const language of LANGUAGES) {
    describe(language.name, () => {
      it('knows every word of the grammars\' node names', async () => {
        await Parser.init({ locateFile: () => join(wasmDirectory, 'tree-sitter.wasm') });
        const names = new Set<string>();
        for (const grammar of language.grammars) {
          const loaded = await Language.load(join(wasmDirectory, `tree-sitter-${grammar}.wasm`));
          for (let id = 0; id < loaded.nodeTypeCount; id++) {
            // A keyword pair is one token named by both words (`unique symbol`, `not in`).
            for (const word of loaded.nodeTypeForId(id)?.split(' ') ?? []) {
              if (language.keptWord.test(word)) {
                names.add(word);
              }
            }
          }
        }
        assert.deepEqual([...language.grammarWords].sort(), [...names].sort());
      });

      it('reads as a plain name every keyword of the specification that it does not reserve, wherever a name stands', async () => {
        const checker = fileSyntaxChecker({ wasmDirectory });
        const broken: string[] = [];
        for (const extension of language.extensions) {
          for (const text of language.places) {
            const path = `/w/a.${extension}`;
            if ((await checker.errorsIn(path, text))?.length !== 0) {
              continue;
            }
            for (const word of language.specified.filter((candidate) => !language.rules.reserved.has(candidate))) {
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
        const files = language.files();
        assert.ok(files.length >= 10, `a corpus to try (${files.length} files)`);
        const fullOnly = fileSyntaxChecker({ wasmDirectory });
        const full: SyntaxChecker = { errorsIn: (path, text, change) => fullOnly.errorsIn(path, text, change) };
        const tally = { cases: 0, accepted: 0, acceptedOnBroken: 0, refusedByFull: 0, brokenOriginals: 0, spans: 0, movedOnBroken: 0, disagreements: [] as string[] };
        for (let index = 0; index < language.cases; index++) {
          const random = generator(language.seed + index);
          const { path, text } = random.pick(files);
          const broken = random.below(5) === 0;
          const original = broken ? applied(text, [randomReplacement(text, random)]) : text;
          const file = plannedFile(`/rename${index}${path}`, original, randomRenames(original, random, language));
          if (file.newText.whole() === original) {
            continue;
          }
          tally.cases++;
          tally.spans += file.spans.length;
          tally.brokenOriginals += broken ? 1 : 0;
          const accepted = onlyRenamesWords(changeOf(original, file), file.newText, language.rules);
          const verdict = verdictOf(await syntaxRegressions([{ file, fileIndex: 0 }], full, () => false));
          tally.refusedByFull += verdict === '[]' ? 0 : 1;
          if (!accepted) {
            continue;
          }
          tally.accepted++;
          tally.acceptedOnBroken += broken ? 1 : 0;
          if (verdict !== '[]') {
            // On a file already broken, tree-sitter's recovery weighs skipped characters, so a rename can move an old error
            // across a line break, where the full comparison takes it for a new one; a rename must still add no error.
            const extension = path.slice(path.lastIndexOf('.'));
            const oldCount = (await fullOnly.errorsIn(`/old${index}${extension}`, original))?.length ?? 0;
            const newCount = (await fullOnly.errorsIn(`/new${index}${extension}`, file.newText.whole()))?.length ?? 0;
            if (broken && newCount <= oldCount) {
              tally.movedOnBroken++;
            } else {
              const first = file.spans[0];
              tally.disagreements.push(`case ${index + 1} (${path}): ${JSON.stringify(original.slice(first.start - 20, first.end + 20))} -> ${JSON.stringify(first.text)}: ${verdict}`);
            }
          }
        }
        console.log(`      ${tally.cases} cases, ${tally.spans} renamed stretches, over ${files.length} files (${tally.brokenOriginals} on broken originals): ${tally.accepted} accepted by their words (${tally.acceptedOnBroken} on broken originals, of which ${tally.movedOnBroken} moved an old error where the full comparison saw a new one), ${tally.refusedByFull} refused by the full comparison, ${tally.disagreements.length} accepted that add an error`);
        assert.deepEqual(tally.disagreements.slice(0, 10), []);
        assert.ok(tally.movedOnBroken <= tally.acceptedOnBroken / 100, 'moved errors stay rare');
        assert.ok(tally.accepted > tally.cases / 4, 'the words decide a fair share of the cases');
        assert.ok(tally.refusedByFull > tally.cases / 10, 'a fair share of the renames break the parse');
      });

      for (const { why, path, text, old, by, breaks } of language.declined) {
        it(`leaves to the parser a rename it cannot read: ${why}`, async () => {
          const start = text.indexOf(old);
          const file = plannedFile(`/w/${path}`, text, [{ start, end: start + old.length, text: by }]);
          assert.equal(onlyRenamesWords(changeOf(text, file), file.newText, language.rules), false);
          const regressions = await syntaxRegressions([{ file, fileIndex: 0 }], fileSyntaxChecker({ wasmDirectory }), () => false);
          assert.equal(regressions.length > 0, breaks);
        });
      }
    });
  }

  it('accepts renames in code, strings, comments, templates and JSX without loading a parser', async () => {
    const text = 'import { load } from "load"; // load it\nexport const view = <Load title={`load ${load()}`} data-load="load" />;\nfunction reload(x: Load): Load { return x.load ?? load; }\n';
    const starts = [...text.matchAll(/load/gi)].map((match) => match.index);
    const file = plannedFile('/w/view.tsx', text, starts.map((start) => ({ start, end: start + 4, text: text[start] === 'L' ? 'Fetch' : 'fetch' })));
    let unavailable = 0;
    const checker = fileSyntaxChecker({ wasmDirectory: '/nowhere', onUnavailable: () => unavailable++ });
    assert.equal(await checker.addsNoErrorWithoutFullParse?.('/w/view.tsx', file.newText, changeOf(text, file)), true);
    assert.equal(unavailable, 0, 'no parser was loaded');
    const broken = plannedFile('/w/view.tsx', text, [{ start: text.indexOf('{ load }'), end: text.indexOf('{ load }') + 1, text: '' }]);
    assert.equal(await checker.addsNoErrorWithoutFullParse?.('/w/view.tsx', broken.newText, changeOf(text, broken)), false);
    assert.equal(await checker.errorsIn('/w/view.tsx', broken.newText.whole()), undefined, 'an edit that is not a rename needs the parser, which is not there');
    assert.equal(unavailable, 1);
  });

  it('accepts a Python rename in code, strings, f-strings and comments without loading a parser', async () => {
    const text = 'from load import load  # load it\n\ndef reload(x: "Load") -> str:\n    return f"{load(x)!r} {x.load}" + load.__name__\n';
    const starts = [...text.matchAll(/load/g)].map((match) => match.index);
    const file = plannedFile('/w/view.py', text, starts.map((start) => ({ start, end: start + 4, text: 'fetch' })));
    let unavailable = 0;
    const checker = fileSyntaxChecker({ wasmDirectory: '/nowhere', onUnavailable: () => unavailable++ });
    assert.equal(await checker.addsNoErrorWithoutFullParse?.('/w/view.py', file.newText, changeOf(text, file)), true);
    assert.equal(unavailable, 0, 'no parser was loaded');
  });
});
