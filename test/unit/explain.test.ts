import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { hintsForDiagnosis } from '../../src/core/nearMiss/diagnosis';
import { explainMiss } from '../../src/core/nearMiss/explain';
import { LineIndex } from '../../src/core/text/lineIndex';
import { MIXED_EOL, TAB_INDENTED, numberedLines } from './fixtures/explain/texts';

const LIMITS = { contextLines: 2, maxSnippetLineChars: 240 };

function explain(text: string, needle: string, newString = 'nothing like this', limits = LIMITS) {
  return explainMiss(text, LineIndex.of(text), needle, newString, limits);
}

describe('explainMiss', () => {
  const numbered = numberedLines(5000);

  it('centres the snippet on the line that differs least', () => {
    const { context, diagnosis } = explain(numbered, 'line 04321 valeu=4321;');
    assert.equal(diagnosis, undefined);
    assert.equal(context.start_line, 4319);
    assert.deepEqual(context.snippet.split('\n'), ['line 04319 value=4319;', 'line 04320 value=4320;', 'line 04321 value=4321;', 'line 04322 value=4322;', 'line 04323 value=4323;']);
  });

  it('shows the first lines of the file when nothing resembles old_string', () => {
    const result = explain(numbered, 'zzzz qqqq');
    assert.equal(result.context.start_line, 1);
    assert.equal(result.context.snippet.split('\n').length, 5);
    assert.ok(result.context.snippet.startsWith('line 00001 value=1;'));
    assert.equal(result.closest, undefined);
    assert.deepEqual(result.hints, []);
  });

  it('fills the snippet with 2n+1 lines when the miss is near the start or the end of the file', () => {
    const top = explain(numbered, 'line 00002 value=2; // changed');
    assert.equal(top.context.start_line, 1);
    assert.equal(top.context.snippet.split('\n').length, 5);
    const bottom = explain(numbered, 'line 04999 value=4999; // changed');
    // The text ends with a newline, so its last line (5001) is empty.
    assert.equal(bottom.context.start_line, 4997);
    assert.ok(bottom.context.snippet.endsWith('line 05000 value=5000;\n'));
  });

  it('returns the diagnosis, its hints, and the near miss as the closest match', () => {
    const needle = 'export function greet(name: string): string {\n    const message';
    const result = explain(TAB_INDENTED, needle);
    assert.equal(result.diagnosis?.kind, 'INDENTATION');
    assert.deepEqual(result.hints, hintsForDiagnosis('INDENTATION'));
    assert.ok(result.closest);
    const covered = TAB_INDENTED.slice(result.closest.offset, result.closest.offset + result.closest.length);
    assert.equal(covered, 'export function greet(name: string): string {\n\tconst message');
    // The snippet is raw file text, so the real indentation can be copied from it.
    assert.ok(result.context.snippet.includes('\n\tconst message = '));
  });

  it('points at new_string when the edit is already applied', () => {
    const result = explain(numbered, 'line 03000 value=old;', 'line 03000 value=3000;');
    assert.equal(result.diagnosis?.kind, 'ALREADY_APPLIED');
    assert.deepEqual(result.hints, hintsForDiagnosis('ALREADY_APPLIED'));
    assert.equal(result.context.start_line, 2998);
    assert.ok(result.closest);
    assert.equal(numbered.slice(result.closest.offset, result.closest.offset + result.closest.length), 'line 03000 value=3000;');
  });

  it('shows the whole near miss when it fits, even when the line that differs is its last', () => {
    const needle = 'line 00100 value=100;\nline 00101 value=101;\nline 00102 value=102;\nline 00103 value=103;\nline 00104 value=104; // new';
    const { context } = explain(numbered, needle);
    const shown = context.snippet.split('\n');
    assert.equal(shown.length, 5);
    assert.equal(context.start_line, 100);
    assert.equal(shown[4], 'line 00104 value=104;');
  });

  it('keeps the line that differs least when old_string is longer than the snippet', () => {
    const lines = Array.from({ length: 12 }, (_, i) => `line ${String(200 + i).padStart(5, '0')} value=${200 + i};`);
    lines[0] += ' // changed';
    const { context } = explain(numbered, lines.join('\n'));
    assert.ok(context.snippet.includes('line 00201 value=201;'), context.snippet);
    assert.ok(context.start_line <= 201 && context.start_line + 4 >= 201);
  });

  it('explains a lone CR in a mixed-ending file', () => {
    const result = explain(MIXED_EOL, 'delta\nepsilon');
    assert.equal(result.diagnosis?.kind, 'EOL_MISMATCH');
    assert.ok(result.context.snippet.includes('delta\repsilon'));
  });

  it('clips a very long line around the miss far above the usual limit, and says it clipped it', () => {
    const text = Array.from({ length: 20000 }, (_, i) => `var a${i}=f(${i});`).join('');
    const result = explain(text, 'var a15000 = f(15000);', 'nothing like this', { contextLines: 6, maxSnippetLineChars: 80 });
    assert.equal(result.diagnosis?.kind, 'WHITESPACE_ONLY');
    assert.equal(result.context.start_line, 1);
    assert.ok(result.context.snippet.length <= 16 * 1024);
    assert.deepEqual(result.context.clipped_lines, [1]);
    assert.ok(result.context.snippet.includes('var a15000=f(15000);'), result.context.snippet);
  });

  it('keeps a 480-character line of the near match whole, and clips only the lines around it, naming each', () => {
    const long = `const banner = "${'x'.repeat(460)}";`;
    const text = `${'y'.repeat(300)}\nfunction a() {\n  ${long}\n}\n`;
    const result = explain(text, `function a() {\n    ${long}\n}`, 'nothing like this', { contextLines: 2, maxSnippetLineChars: 240 });
    assert.equal(result.diagnosis?.kind, 'INDENTATION');
    assert.ok(result.context.snippet.includes(`  ${long}\n`), 'the near-match line is whole');
    assert.deepEqual(result.context.clipped_lines, [1]);
  });

  it('never throws, and its snippet overlaps the closest match', () => {
    const pieces = fc.constantFrom('a', 'b', 'c d', ' ', '\t', '\n', '\r', '\r\n', '\\n', '\u2019', '\u00a0', 'word', '\u{1F600}');
    const str = fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(fc.property(str, str.filter((s) => s.length > 0), str, fc.integer({ min: 0, max: 3 }), (text, needle, newString, contextLines) => {
      const index = LineIndex.of(text);
      const result = explainMiss(text, index, needle, newString, { contextLines, maxSnippetLineChars: 40 });
      const shown = result.context.snippet.split('\n').length;
      const first = result.closest ? index.position(result.closest.offset).line : 1;
      const last = result.closest ? index.position(result.closest.offset + result.closest.length).line : 1;
      // 2n+1 lines, or the whole near match with n lines either side when it is longer.
      assert.ok(result.context.start_line >= 1 && shown <= Math.max(2 * contextLines + 1, last - first + 1 + 2 * contextLines));
      if (result.closest) {
        assert.ok(result.context.start_line <= last && first <= result.context.start_line + shown - 1);
      }
    }), { numRuns: 1000 });
  });
});
