/**
 * The envelope explains every typical agent mistake: the diagnosis kinds added for
 * recovery in one retry, their precedence, the fields that say where the near match
 * stands and how often it occurs, and the raw, unclipped snippet.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { diagnoseMissAt } from '../../src/core/nearMiss/diagnosis';
import { isElisionMarker } from '../../src/core/nearMiss/blockAlign';
import { explainMiss } from '../../src/core/nearMiss/explain';
import { LineIndex } from '../../src/core/text/lineIndex';
import type { Diagnosis } from '../../src/core/contract/schemas';
import { CRLF_FILE, TAB_INDENTED, numberedLines } from './fixtures/explain/texts';

function diagnose(text: string, needle: string, newString = 'replacement that is nowhere', sentNeedle?: string): Diagnosis | undefined {
  return diagnoseMissAt({ text, index: LineIndex.of(text), needle, newString, ...(sentNeedle !== undefined ? { sentNeedle } : {}) })?.diagnosis;
}

function expectKind(diagnosis: Diagnosis | undefined, kind: Diagnosis['kind'], ...detailParts: string[]): Diagnosis {
  assert.ok(diagnosis, 'expected a diagnosis');
  assert.equal(diagnosis.kind, kind, diagnosis.detail);
  for (const part of detailParts) {
    assert.ok(diagnosis.detail.includes(part), `detail "${diagnosis.detail}" should mention "${part}"`);
  }
  return diagnosis;
}

/** The file text a diagnosis's near_match covers. */
function nearText(text: string, diagnosis: Diagnosis): string {
  const range = diagnosis.near_match;
  assert.ok(range, 'expected near_match');
  const index = LineIndex.of(text);
  const start = index.lineStart(range.start_line - 1) + range.start_column - 1;
  const end = index.lineStart(range.end_line - 1) + range.end_column - 1;
  return text.slice(start, end);
}

const PYTHON = [
  'def load(path):',
  '    with open(path) as handle:',
  '        data = handle.read()',
  '    return data',
  '',
  '',
  'def save(path, data):',
  '    with open(path, "w") as handle:',
  '        handle.write(data)',
  '',
].join('\n');

describe('recovery diagnoses', () => {
  describe('LINE_NUMBER_PREFIX', () => {
    it('names a cat -n gutter on every line and says where the text stands without it', () => {
      const needle = '     2\t    with open(path) as handle:\n     3\t        data = handle.read()';
      const diagnosis = expectKind(diagnose(PYTHON, needle), 'LINE_NUMBER_PREFIX', 'line number', 'line 2');
      assert.equal(nearText(PYTHON, diagnosis), '    with open(path) as handle:\n        data = handle.read()');
    });

    it('names the "12→" and "12: " gutters, and the gutter in a CRLF file', () => {
      expectKind(diagnose(PYTHON, '     7→def save(path, data):\n     8→    with open(path, "w") as handle:'), 'LINE_NUMBER_PREFIX', 'line 7');
      expectKind(diagnose(PYTHON, '7: def save(path, data):\n8:     with open(path, "w") as handle:'), 'LINE_NUMBER_PREFIX');
      expectKind(diagnose(CRLF_FILE, '2\tif (ready) {\r\n3\t    start();'), 'LINE_NUMBER_PREFIX', 'line 2');
    });

    it('leaves numbers alone unless they count up line by line', () => {
      const diagnosis = diagnose(PYTHON, '2\tdef save(path, data):\n9\t    with open(path, "w") as handle:');
      assert.notEqual(diagnosis?.kind, 'LINE_NUMBER_PREFIX');
    });

    it('finds any block of a text again from its numbered copy (property)', () => {
      fc.assert(fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 6 }), (first, count) => {
        const text = numberedLines(80);
        const lines = text.split('\n').slice(first - 1, first - 1 + count);
        const needle = lines.map((line, at) => `${String(first + at).padStart(6)}\t${line}`).join('\n');
        const diagnosis = expectKind(diagnose(text, needle), 'LINE_NUMBER_PREFIX');
        assert.equal(diagnosis.line, first);
        assert.equal(nearText(text, diagnosis), lines.join('\n'));
      }), { numRuns: 200 });
    });
  });

  describe('ESCAPED_TEXT and ESCAPED_NEWLINES', () => {
    const js = 'function formatTable(rows) {\n  const header = "name\\tqty\\tprice\\n";\n  return header;\n}\n';

    it('names a JSON-escaped old_string whose text holds an escaped \\n of its own', () => {
      const needle = JSON.stringify('function formatTable(rows) {\n  const header = "name\\tqty\\tprice\\n";').slice(1, -1);
      const diagnosis = expectKind(diagnose(js, needle), 'ESCAPED_TEXT', 'JSON-escaped', 'line 1');
      assert.equal(nearText(js, diagnosis), 'function formatTable(rows) {\n  const header = "name\\tqty\\tprice\\n";');
    });

    it('names quotes sent as \\" and HTML entities', () => {
      expectKind(diagnose('  "test": "node --test",\n', '\\"test\\": \\"node --test\\"'), 'ESCAPED_TEXT', 'JSON');
      expectKind(diagnose('if (a < b && c > d) {\n', 'if (a &lt; b &amp;&amp; c &gt; d) {'), 'ESCAPED_TEXT', 'HTML', 'line 1');
    });

    it('reads decoded line breaks in the file\'s CRLF endings', () => {
      expectKind(diagnose(CRLF_FILE, 'if (ready) {\\r\\n    start();'), 'ESCAPED_NEWLINES');
      expectKind(diagnose(CRLF_FILE, JSON.stringify('if (ready) {\n    start();').slice(1, -1).replace('ready', '\\u0072eady')), 'ESCAPED_TEXT', 'line 2');
    });
  });

  describe('UNICODE_NORMALIZATION', () => {
    const nfc = 'GREETING = "Bienvenue au caf\u00e9"\n';
    it('names composed accents against a decomposed file, and the other way round', () => {
      expectKind(diagnose(nfc.normalize('NFD'), 'GREETING = "Bienvenue au caf\u00e9"'), 'UNICODE_NORMALIZATION', 'NFC', 'line 1');
      expectKind(diagnose(nfc, 'GREETING = "Bienvenue au cafe\u0301"'), 'UNICODE_NORMALIZATION', 'NFD', 'line 1');
    });
  });

  describe('BLANK_LINES', () => {
    it('names a blank line collapsed, with the file lines that hold them', () => {
      const diagnosis = expectKind(diagnose(PYTHON, '    return data\n\ndef save(path, data):'), 'BLANK_LINES', '1 blank line', '2 blank lines', 'lines 5-6');
      assert.equal(nearText(PYTHON, diagnosis), '    return data\n\n\ndef save(path, data):');
    });

    it('names a blank line doubled in a CRLF file', () => {
      const text = 'a();\r\n\r\nb();\r\nc();\r\n';
      expectKind(diagnose(text, 'a();\r\n\r\n\r\nb();\r\nc();'), 'BLANK_LINES', '2 blank lines', '1 blank line');
    });
  });

  describe('ELIDED_CONTENT', () => {
    it('names the marker line and the file lines it stands for, and covers head and tail', () => {
      const diagnosis = expectKind(diagnose(PYTHON, 'def load(path):\n    # ... existing code ...\n    return data'), 'ELIDED_CONTENT', 'line 2 of old_string', 'file lines 2-3');
      assert.equal(diagnosis.old_string_line, 2);
      assert.equal(nearText(PYTHON, diagnosis), 'def load(path):\n    with open(path) as handle:\n        data = handle.read()\n    return data');
    });

    it('finds a bare "..." in a tab-indented file', () => {
      expectKind(diagnose(TAB_INDENTED, 'export function greet(name: string): string {\n\t...\n}'), 'ELIDED_CONTENT', 'file lines 4-5');
    });

    it('knows a marker from code that happens to hold dots', () => {
      for (const marker of ['...', '// ...', '# ... existing code ...', '/* rest of the file */', '<!-- ... -->', '// existing code unchanged', '…']) {
        assert.ok(isElisionMarker(marker), marker);
      }
      for (const code of ['...args', "print('...')", 'return [...items];', 'x = 1', '// TODO: handle errors']) {
        assert.ok(!isElisionMarker(code), code);
      }
    });
  });

  describe('CONTENT_MISMATCH', () => {
    const text = numberedLines(200);
    const block = text.split('\n').slice(99, 119);

    it('says which line of a 20-line old_string differs from which file line', () => {
      const sent = [...block];
      sent[12] = 'line 00112 value=0;';
      const diagnosis = expectKind(diagnose(text, sent.join('\n')), 'CONTENT_MISMATCH', 'line 13 of old_string differs from file line 112', '1 line differs');
      assert.deepEqual([diagnosis.line, diagnosis.old_string_line], [112, 13]);
      assert.equal(nearText(text, diagnosis), block.join('\n'));
    });

    it('shows the whole block in the snippet, head and tail, not only the lines around the difference', () => {
      const sent = [...block];
      sent[3] = 'changed by someone else';
      const explained = explainMiss(text, LineIndex.of(text), sent.join('\n'), 'x', { contextLines: 3, maxSnippetLineChars: 240 });
      assert.equal(explained.diagnosis?.kind, 'CONTENT_MISMATCH');
      assert.ok(explained.context.snippet.includes(block[0]) && explained.context.snippet.includes(block[19]), 'head and tail');
      assert.equal(explained.context.start_line, 100 - 3);
    });

    it('names a line someone inserted into the block', () => {
      const withInsert = text.replace('line 00105 value=105;\n', 'line 00105 value=105;\ninserted();\n');
      const diagnosis = expectKind(diagnose(withInsert, block.slice(0, 10).join('\n')), 'CONTENT_MISMATCH', 'file line 106 is not in old_string');
      assert.deepEqual(diagnosis.file_only_lines, [106]);
    });
  });

  describe('precedence and positions', () => {
    const yaml = '  test:\n    node-version: ${{ matrix.node }}\n  lint:\n    node-version: 20\n    cache: npm\n';

    it('puts a whitespace near miss before ALREADY_APPLIED when new_string happens to occur elsewhere', () => {
      const diagnosis = expectKind(diagnose(yaml, '    node-version: 20 \n    cache: npm', '    node-version: ${{ matrix.node }}'), 'WHITESPACE_ONLY', 'ends with a space');
      assert.deepEqual([diagnosis.line, diagnosis.old_string_line], [4, 1]);
    });

    it('puts a look-alike near miss before ALREADY_APPLIED', () => {
      expectKind(diagnose('say("it\u2019s");\nsay("hi there");\n', 'say("it\'s");', 'say("hi there");'), 'UNICODE_LOOKALIKE');
    });

    it('is ALREADY_APPLIED, pointing at new_string, when the near miss is new_string itself', () => {
      const text = 'value = compute()\n';
      const diagnosis = expectKind(diagnose(text, '    value = compute()\n', 'value = compute()\n'), 'ALREADY_APPLIED', 'line 1, column 1');
      assert.deepEqual(diagnosis.near_match, { start_line: 1, start_column: 1, end_line: 2, end_column: 1 });
    });

    it('puts ALREADY_APPLIED before a block that merely resembles old_string', () => {
      const text = numberedLines(30);
      const lines = text.split('\n').slice(9, 15);
      const newString = lines.join('\n');
      const stale = [...lines];
      stale[2] = 'line 00012 value=old;';
      const diagnosis = expectKind(diagnose(text, stale.join('\n'), newString), 'ALREADY_APPLIED', 'line 10');
      assert.equal(diagnosis.line, 10);
    });

    it('counts the places the near-match text occurs, so a corrected old_string that would be ambiguous shows up', () => {
      const text = 'x = 1\ny = 2\n\nx = 1\ny = 2\n';
      const diagnosis = expectKind(diagnose(text, 'x = 1 \ny = 2'), 'WHITESPACE_ONLY', 'occurs 2 times', 'lines 1, 4');
      assert.equal(diagnosis.occurrences, 2);
      assert.deepEqual(diagnosis.occurrence_lines, [1, 4]);
    });

    it('starts the near match at the line when it would start inside the indentation', () => {
      const text = '        if ready:\n            go()\n';
      const diagnosis = expectKind(diagnose(text, '    if ready:\n        go()'), 'INDENTATION');
      assert.equal(nearText(text, diagnosis), text.trimEnd());
    });

    it('names the line break old_string was sent with, not the one it was converted to', () => {
      const text = 'one\ntwo\r\nthree\nfour\n';
      expectKind(diagnose(text, 'two\nthree\nfour', 'x', 'two\r\nthree\r\nfour'), 'EOL_MISMATCH', 'line 3 ends with LF where old_string has CRLF');
      expectKind(diagnose(text, 'two\nthree', 'x'), 'EOL_MISMATCH', 'ends with CRLF where old_string has LF');
    });

    it('never throws, and every near_match lies inside the text (property)', () => {
      const pieces = fc.constantFrom('a', 'b c', '  ', '\t', '\n', '\r\n', '...', '// ...', '12\t', '&lt;', '\\n', '\\"', 'e\u0301', '\u00e9', '\u2019');
      const str = fc.array(pieces, { maxLength: 30 }).map((parts) => parts.join(''));
      fc.assert(fc.property(str, str.filter((s) => s.length > 0), str, (text, needle, newString) => {
        const diagnosis = diagnose(text, needle, newString);
        if (diagnosis?.near_match) {
          const index = LineIndex.of(text);
          assert.ok(diagnosis.near_match.end_line <= index.lineCount);
          assert.ok(nearText(text, diagnosis).length <= text.length);
        }
      }), { numRuns: 1000 });
    });
  });
});
