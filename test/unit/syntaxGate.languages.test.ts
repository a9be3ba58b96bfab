/**
 * The syntax gate on a realistic file of every language it knows: a typical agent
 * mistake is refused at its line with nothing written, a valid edit applies, and a
 * file that already had an error accepts a valid edit elsewhere but not a second error.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileSyntaxChecker, treeSitterWasmDirectory } from '../../src/shared/syntax/fileSyntaxChecker';
import { runRequest } from '../../src/core/engine/engine';
import type { SyntaxErrorSpan, TextChange } from '../../src/core/index';
import { failureOf, run, successOf } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';
import { syntaxLanguageOf, TREE_SITTER_GRAMMARS } from '../../src/shared/syntax/syntaxLanguages';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'unit', 'fixtures', 'syntax');

type Replacement = readonly [oldString: string, newString: string];

interface LanguageCase {
  /** The fixture's name, which is also the edited file's name. */
  readonly file: string;
  /** The mistake, and the 1-based line of its new text. */
  readonly mistake: Replacement;
  readonly mistakeLine: number;
  /** Where the parser notices the mistake, when that is further down (a missing token is found at the next one). */
  readonly noticedLine?: number;
  readonly valid: Replacement;
  /** An error put into the original, away from both edits. */
  readonly preexisting: Replacement;
}

const CASES: readonly LanguageCase[] = [
  {
    file: 'orders.ts',
    mistake: ['.filter((order) => order.total > threshold)', '.filter((order) => order.total > threshold'],
    mistakeLine: 12,
    noticedLine: 13,
    valid: ['`expected an array in ${path}`', '`no array in ${path}`'],
    preexisting: ['let sum = 0;', 'let sum = ;'],
  },
  {
    file: 'Badge.tsx',
    mistake: ['<li key={label}>', '<li key={label}'],
    mistakeLine: 22,
    valid: ['<ul>', '<ul className="badges">'],
    preexisting: ["const tone = count > 9 ? 'many' : 'few';", "const tone = count > 9 ? 'many' : ;"],
  },
  {
    file: 'cart.js',
    mistake: ['this.items.push({ name, price, quantity });', 'this.items.push({ name, price, quantity );'],
    mistakeLine: 19,
    valid: ['const TAX_RATE = 0.2;', 'const TAX_RATE = 0.25;'],
    preexisting: ['return withTax(subtotal(this.items));', 'return withTax(subtotal(this.items);'],
  },
  {
    file: 'report.py',
    mistake: ['        if line.amount < 0:\n', '        if line.amount < 0\n'],
    mistakeLine: 24,
    valid: ['print("refund:", line.name)', 'print("refund of", line.name)'],
    preexisting: ['print(json.dumps(summarize(lines), indent=2))', 'print(json.dumps(summarize(lines), indent=2)'],
  },
  {
    file: 'server.go',
    mistake: ['return fmt.Sprintf("%s, %s!", g.Prefix, strings.TrimSpace(name))', 'return fmt.Sprintf("%s, %s!, g.Prefix, strings.TrimSpace(name))'],
    mistakeLine: 17,
    valid: ['Greeter{Prefix: "Hello"}', 'Greeter{Prefix: "Hi"}'],
    preexisting: ['\t\tpanic(err)', '\t\tpanic(err'],
  },
  {
    file: 'stack.rs',
    mistake: ['self.items.push(item);', 'self.items.push(item;'],
    mistakeLine: 14,
    valid: ['write!(f, "{} ", item)?;', 'write!(f, "{}, ", item)?;'],
    preexisting: ['#[derive(Debug, Default)]', '#[derive(Debug, Default]'],
  },
  {
    file: 'Inventory.java',
    mistake: ['counts.merge(sku, quantity, Integer::sum);', 'counts.merge(sku, quantity, Integer::sum;'],
    mistakeLine: 13,
    valid: ['"quantity must be positive"', '"quantity must be above zero"'],
    preexisting: ['return counts.getOrDefault(sku, 0);', 'return counts.getOrDefault(sku, 0;'],
  },
  {
    file: 'Temperature.cs',
    mistake: ['readings.Add(new Reading(at, celsius));', 'readings.Add(new Reading(at, celsius);'],
    mistakeLine: 15,
    valid: ['return double.NaN;', 'return 0;'],
    preexisting: ['using System.Linq;', 'using System.Linq'],
  },
  {
    file: 'ring.c',
    mistake: ['    r->size++;\n', '    r->size++\n'],
    mistakeLine: 28,
    valid: ['printf("%d\\n"', 'printf("%d,\\n"'],
    preexisting: ['r->head = 0;', 'r->head = ;'],
  },
  {
    file: 'matrix.cpp',
    mistake: ['sum += data_[i * cols_ + k] * other.data_[k * other.cols_ + j];', 'sum += data_[i * cols_ + k * other.data_[k * other.cols_ + j];'],
    mistakeLine: 18,
    valid: ['double sum = 0.0;', 'double sum = 0;'],
    preexisting: ['{ return data_[row * cols_ + col]; }', '{ return data_[row * cols_ + col] }'],
  },
  {
    file: 'invoice.rb',
    mistake: ["@lines << { description: description, amount: amount }", "@lines << { description: description, amount: amount"],
    mistakeLine: 14,
    valid: ["'amount must be positive'", "'amount must be above zero'"],
    preexisting: ['{ customer: @customer, total: total, lines: @lines }.to_json', '{ customer: @customer, total: total, lines: @lines }.to_json)'],
  },
  {
    file: 'Router.php',
    mistake: ["$this->routes['GET'][$path] = $handler;", "$this->routes['GET'][$path = $handler;"],
    mistakeLine: 11,
    valid: ['"Not found: {$path}"', '"Missing: {$path}"'],
    preexisting: ['http_response_code(404);', 'http_response_code(404;'],
  },
  {
    file: 'deploy.sh',
    mistake: ['  exit 1\nfi\n', '  exit 1\n'],
    mistakeLine: 13,
    valid: ['"deploying to staging"', '"deploying to the staging site"'],
    preexisting: ['  *) log "unknown target $TARGET"; exit 2 ;;', '  *) log "unknown target $TARGET"; exit 2 ;;)'],
  },
  {
    file: 'theme.css',
    mistake: ['filter: brightness(1.1);', 'filter: brightness(1.1;'],
    mistakeLine: 14,
    valid: ['--accent: #1f6feb;', '--accent: #0969da;'],
    preexisting: ['    width: 100%;', '    width: 100%;;}'],
  },
  {
    file: 'package.json',
    mistake: ['"build": "tsc -p .",', '"build": "tsc -p ."'],
    mistakeLine: 6,
    noticedLine: 7,
    valid: ['"version": "1.4.0"', '"version": "1.5.0"'],
    preexisting: ['"zod": "^3.23.8"', '"zod": "^3.23.8",'],
  },
  {
    file: 'tsconfig.json',
    mistake: ['"target": "ES2022",', '"target": "ES2022"'],
    mistakeLine: 4,
    noticedLine: 5,
    valid: ['"outDir": "out", // compiled JavaScript', '"outDir": "build", // compiled JavaScript'],
    preexisting: ['"include": ["src"]', '"include": ["src"'],
  },
];

const checker = fileSyntaxChecker({ wasmDirectory: treeSitterWasmDirectory() });

function fixtureText(name: string): string {
  return readFileSync(join(FIXTURES, `${name}.txt`), 'utf8');
}

function replaceOnce(text: string, [oldString, newString]: Replacement): string {
  assert.equal(text.split(oldString).length, 2, `"${oldString}" occurs once in the fixture`);
  return text.replace(oldString, () => newString);
}

/** A replaced stretch before it is placed in the new text. */
type Stretch = Omit<TextChange['replaced'][number], 'newStart'>;

/** `text` with each replacement made once (a string where it occurs, or a stretch), and the change that says so. */
function replacedAll(text: string, replacements: readonly (Replacement | Stretch)[]): { text: string; change: TextChange } {
  const replaced = replacements
    .map((replacement): Stretch => {
      if (!Array.isArray(replacement)) {
        return replacement as Stretch;
      }
      const [oldString, newString] = replacement as Replacement;
      assert.equal(text.split(oldString).length, 2, `"${oldString}" occurs once in the text`);
      const start = text.indexOf(oldString);
      return { start, end: start + oldString.length, text: newString };
    })
    .sort((a, b) => a.start - b.start);
  let result = '';
  let from = 0;
  const placed = replaced.map((span) => {
    result += text.slice(from, span.start);
    const newStart = result.length;
    result += span.text;
    from = span.end;
    return { ...span, newStart };
  });
  return { text: result + text.slice(from), change: { from: text, replaced: placed } };
}

async function edit(path: string, text: string, [oldString, newString]: Replacement, extra: object = {}) {
  const store = new MemoryStore({ [path]: text });
  const response = await run('multi_edit', { file_path: path, edits: [{ old_string: oldString, new_string: newString }], ...extra }, { store, syntaxChecker: checker });
  return { response, written: store.text(path) };
}

describe('syntax gate: every language it knows', () => {
  it('has a case for every grammar of the list', () => {
    const covered = new Set(CASES.map((languageCase) => syntaxLanguageOf(languageCase.file)).flatMap((language) => (language?.parser === 'tree-sitter' ? [language.grammar] : [])));
    assert.deepEqual(TREE_SITTER_GRAMMARS.filter((grammar) => !covered.has(grammar)), []);
  });

  for (const languageCase of CASES) {
    const path = `/work/project/${languageCase.file}`;
    const original = fixtureText(languageCase.file);

    describe(languageCase.file, () => {
      it('parses the fixture without an error', async () => {
        assert.deepEqual(await checker.errorsIn(path, original), []);
      });

      const { mistakeLine, noticedLine } = languageCase;
      it(`refuses the mistake at line ${mistakeLine}${noticedLine ? ` (noticed at line ${noticedLine})` : ''} and writes nothing`, async () => {
        const { response, written } = await edit(path, original, languageCase.mistake);
        const envelope = failureOf(response);
        assert.equal(envelope.error_code, 'SYNTAX_REGRESSION', envelope.message);
        assert.equal(envelope.edit_index, 0);
        assert.equal(envelope.file_path, path);
        const reported = envelope.context?.syntax_errors?.[0]?.line ?? 0;
        assert.ok(Math.abs(reported - mistakeLine) <= 1, `reported at line ${reported}, within a line of the edit`);
        assert.equal(reported, noticedLine ?? mistakeLine, JSON.stringify(envelope.context?.syntax_errors));
        if (noticedLine !== undefined) {
          assert.match(envelope.message, new RegExp(`its new text is at line ${mistakeLine}\\b`));
        }
        const snippetLines = envelope.context?.snippet?.split('\n') ?? [];
        const startLine = envelope.context?.start_line ?? 0;
        const line = noticedLine ?? mistakeLine;
        assert.ok(startLine <= line && line < startLine + snippetLines.length, 'the snippet holds the error\'s line');
        if (noticedLine === undefined) {
          assert.ok(snippetLines.slice(line - startLine - 1, line - startLine + 1).some((text) => text.includes(languageCase.mistake[1].split('\n')[0].trim())), 'the snippet shows the would-be text');
        }
        assert.equal(written, original);
      });

      it('reports the same refusal for a dry run', async () => {
        const { response } = await edit(path, original, languageCase.mistake, { dry_run: true });
        assert.equal(failureOf(response).error_code, 'SYNTAX_REGRESSION');
      });

      it('applies a valid edit', async () => {
        const { response, written } = await edit(path, original, languageCase.valid);
        assert.equal(successOf(response).warnings, undefined);
        assert.equal(written, replaceOnce(original, languageCase.valid));
      });

      it('finds after an incremental parse exactly what a fresh parse finds', async () => {
        const broken = replaceOnce(original, languageCase.preexisting);
        const texts = [original, replaceOnce(original, languageCase.mistake), broken, replaceOnce(broken, languageCase.valid), original];
        const reused = fileSyntaxChecker({ wasmDirectory: treeSitterWasmDirectory() });
        for (const text of texts) {
          const fresh = fileSyntaxChecker({ wasmDirectory: treeSitterWasmDirectory() });
          assert.deepEqual(await reused.errorsIn(path, text), await fresh.errorsIn(path, text));
        }
      });

      it('finds after a parse told what each edit replaced exactly what a fresh parse finds', async () => {
        const reused = fileSyntaxChecker({ wasmDirectory: treeSitterWasmDirectory() });
        let text = original;
        assert.deepEqual(await reused.errorsIn(path, text), await checker.errorsIn(path, text));
        const undoMistake: Replacement = [languageCase.mistake[1], languageCase.mistake[0]];
        // Blank lines after the first line move every later stretch, so each must be told where it was.
        const blankLines: Stretch = { start: original.indexOf('\n'), end: original.indexOf('\n'), text: '\n'.repeat(200) };
        const steps: (readonly (Replacement | Stretch)[])[] = [[languageCase.valid], [blankLines, languageCase.mistake], [languageCase.preexisting], [undoMistake], [[languageCase.valid[1], languageCase.valid[0]]]];
        for (const replacements of steps) {
          const next = replacedAll(text, replacements);
          const fresh = fileSyntaxChecker({ wasmDirectory: treeSitterWasmDirectory() });
          // The stretches are the same; only their focus needs the edits' places.
          const stretches = (errors: readonly SyntaxErrorSpan[] | undefined) => errors?.map(({ start, end }) => ({ start, end }));
          assert.deepEqual(stretches(await reused.errorsIn(path, next.text, next.change)), stretches(await fresh.errorsIn(path, next.text)));
          text = next.text;
        }
      });

      it('accepts a valid edit away from an error the file already had, and refuses a second error', async () => {
        const broken = replaceOnce(original, languageCase.preexisting);
        assert.notDeepEqual(await checker.errorsIn(path, broken), [], 'the broken original has an error');
        const valid = await edit(path, broken, languageCase.valid);
        successOf(valid.response);
        const second = await edit(path, broken, languageCase.mistake);
        assert.equal(failureOf(second.response).error_code, 'SYNTAX_REGRESSION');
        assert.equal(second.written, broken);
      });
    });
  }
});

describe('syntax gate: where the refused edit is', () => {
  it('gives the refused edit\'s place in the file as read, after an earlier edit that added lines above it', async () => {
    const path = '/work/project/sum.ts';
    const original = 'export function sum(x: number): number {\n  return total(x, 2);\n}\n';
    const breaking = '  return total(x, 2);';
    const store = new MemoryStore({ [path]: original });
    const result = await runRequest('multi_edit', { file_path: path, edits: [
      { old_string: 'export function', new_string: '// one\n// two\nexport function' },
      { old_string: breaking, new_string: '  return total(x, 2;' },
    ] }, { store, syntaxChecker: checker });
    assert.equal(failureOf(result.response).error_code, 'SYNTAX_REGRESSION');
    const start = original.indexOf(breaking);
    assert.deepEqual(result.refusedEdits, [{ fileIndex: 0, editIndex: 1, start, end: start + breaking.length }]);
  });
});

describe('syntax gate: deep nesting', () => {
  it('walks the errors of a text nested 200,000 levels deep without recursion, and refuses the edit that broke it', async function () {
    this.timeout(120_000);
    const depth = 200_000;
    const path = '/work/project/deep.js';
    const original = `const deep = ${'['.repeat(depth)}${']'.repeat(depth)};\n`;
    assert.deepEqual(await checker.errorsIn(path, original), []);
    const store = new MemoryStore({ [path]: original });
    const response = await run('multi_edit', { file_path: path, edits: [{ old_string: ']];', new_string: '];' }] }, { store, syntaxChecker: checker });
    const envelope = failureOf(response);
    assert.equal(envelope.error_code, 'SYNTAX_REGRESSION', envelope.message);
    assert.equal(envelope.context?.syntax_errors?.[0]?.line, 1);
    assert.equal(store.text(path), original);
  });
});
