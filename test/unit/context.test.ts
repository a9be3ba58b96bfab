import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { matchLocations, snippetAround } from '../../src/core/nearMiss/context';
import { LineIndex } from '../../src/core/text/lineIndex';
import { CRLF_FILE, MIXED_EOL, numberedLines } from './fixtures/explain/texts';

const WIDE = { contextLines: 2, maxSnippetLineChars: 1000 };

function lineName(line: number): string {
  return `line ${String(line).padStart(5, '0')} value=${line};`;
}

describe('snippetAround', () => {
  const text = numberedLines(5000);
  const index = LineIndex.of(text);

  it('gives n lines before and after the line holding the offset', () => {
    const offset = index.lineStart(2999) + 4;
    const { snippet, start_line } = snippetAround(text, index, offset, WIDE);
    assert.equal(start_line, 2998);
    assert.deepEqual(snippet.split('\n'), [2998, 2999, 3000, 3001, 3002].map(lineName));
  });

  it('gives fewer lines at the start and the end of the text', () => {
    const top = snippetAround(text, index, 0, WIDE);
    assert.equal(top.start_line, 1);
    assert.deepEqual(top.snippet.split('\n'), [1, 2, 3].map(lineName));
    const bottom = snippetAround(text, index, text.length, WIDE);
    assert.equal(bottom.start_line, 4999);
    // The text ends with a newline, so its last line is empty.
    assert.deepEqual(bottom.snippet.split('\n'), [lineName(4999), lineName(5000), '']);
  });

  it('keeps the CRLF endings of a CRLF file, so the snippet is the raw text', () => {
    const crlf = LineIndex.of(CRLF_FILE);
    const { snippet } = snippetAround(CRLF_FILE, crlf, CRLF_FILE.indexOf('start'), { contextLines: 1, maxSnippetLineChars: 100 });
    assert.equal(snippet, 'if (ready) {\r\n    start();\r\n}');
    assert.ok(CRLF_FILE.includes(snippet));
  });

  it('keeps each line\'s own ending where a CRLF block sits in an LF file', () => {
    const text = 'one\ntwo\r\nthree\r\nfour\n';
    const { snippet } = snippetAround(text, LineIndex.of(text), text.indexOf('three'), { contextLines: 2, maxSnippetLineChars: 100 });
    assert.equal(snippet, 'one\ntwo\r\nthree\r\nfour\n');
  });

  it('lists every line it clipped in clipped_lines, and only those', () => {
    const text = `short\n${'z'.repeat(300)}\nend\n${'w'.repeat(50)}`;
    const result = snippetAround(text, LineIndex.of(text), text.indexOf('end'), { contextLines: 2, maxSnippetLineChars: 40 });
    assert.deepEqual(result.clipped_lines, [2, 4]);
    const whole = snippetAround(text, LineIndex.of(text), 0, { contextLines: 0, maxSnippetLineChars: 40 });
    assert.equal(whole.clipped_lines, undefined);
  });

  it('keeps a lone CR inside a line as raw text', () => {
    const mixed = LineIndex.of(MIXED_EOL);
    const { snippet } = snippetAround(MIXED_EOL, mixed, MIXED_EOL.indexOf('delta'), { contextLines: 0, maxSnippetLineChars: 100 });
    assert.equal(snippet, 'delta\repsilon');
  });

  it('clips long lines and marks the clip', () => {
    const long = `${'x'.repeat(50)}\nshort\n${'y'.repeat(50)}`;
    const { snippet } = snippetAround(long, LineIndex.of(long), long.indexOf('short'), { contextLines: 1, maxSnippetLineChars: 10 });
    assert.deepEqual(snippet.split('\n'), [`${'x'.repeat(9)}…`, 'short', `${'y'.repeat(9)}…`]);
  });

  it('clips the offset\'s own line around the offset, so the text there stays visible', () => {
    const long = `${'a'.repeat(500)}NEEDLE${'b'.repeat(500)}`;
    const { snippet } = snippetAround(long, LineIndex.of(long), 500, { contextLines: 0, maxSnippetLineChars: 40 });
    assert.ok(snippet.includes('NEEDLE'), snippet);
    assert.ok(snippet.startsWith('…') && snippet.endsWith('…'));
    assert.equal(snippet.length, 40);
  });

  it('never cuts a surrogate pair when clipping', () => {
    const long = '\u{1F600}'.repeat(30);
    const { snippet } = snippetAround(long, LineIndex.of(long), 0, { contextLines: 0, maxSnippetLineChars: 10 });
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])/.test(snippet), 'no lone high surrogate');
    assert.equal(snippet, `${'\u{1F600}'.repeat(4)}…`);
  });

  it('always contains the line holding the offset (clipped around it)', () => {
    const pieces = fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r\n', '\r', '\u{1F600}', 'xxxxxxxxxxxxxxx');
    fc.assert(fc.property(
      fc.array(pieces, { maxLength: 80 }).map((parts) => parts.join('')),
      fc.nat(), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 3, max: 30 }),
      (text, seed, contextLines, maxSnippetLineChars) => {
        const lines = LineIndex.of(text);
        const offset = text.length === 0 ? 0 : seed % (text.length + 1);
        const { snippet, start_line } = snippetAround(text, lines, offset, { contextLines, maxSnippetLineChars });
        const line0 = lines.lineOfOffset(offset);
        // A line's CRLF ending stays in the snippet: its CR ends the line's text here.
        const shown = snippet.split('\n').map((line, at, all) => (at < all.length - 1 && line.endsWith('\r') ? line.slice(0, -1) : line));
        assert.ok(start_line <= line0 + 1 && line0 + 1 < start_line + shown.length);
        assert.ok(shown.length <= 2 * contextLines + 1);
        const own = shown[line0 + 1 - start_line];
        const full = lines.lineText(line0);
        if (full.length <= maxSnippetLineChars) {
          assert.equal(own, full);
        } else {
          assert.ok(own.length <= maxSnippetLineChars && own.includes('…'));
          const column = offset - lines.lineStart(line0);
          if (column < full.length && !/[\ud800-\udfff]/.test(full[column])) {
            assert.ok(own.includes(full[column]));
          }
        }
      },
    ), { numRuns: 500 });
  });
});

describe('matchLocations', () => {
  const text = numberedLines(100);
  const index = LineIndex.of(text);

  it('gives 1-based line and column and three lines either side of each offset', () => {
    const offsets = [index.lineStart(49) + 5, index.lineStart(0)];
    const [middle, top] = matchLocations(text, index, offsets, { maxSnippetLineChars: 240 });
    assert.equal(middle.line, 50);
    assert.equal(middle.column, 6);
    assert.deepEqual(middle.snippet.split('\n'), [47, 48, 49, 50, 51, 52, 53].map(lineName));
    assert.deepEqual({ line: top.line, column: top.column }, { line: 1, column: 1 });
    assert.deepEqual(top.snippet.split('\n'), [1, 2, 3, 4].map(lineName));
  });

  it('returns one location per offset given, in order', () => {
    const offsets = [index.lineStart(9), index.lineStart(3), index.lineStart(70)];
    assert.deepEqual(matchLocations(text, index, offsets, { maxSnippetLineChars: 240 }).map((l) => l.line), [10, 4, 71]);
  });

  it('clips snippet lines to the limit', () => {
    const long = `short\n${'z'.repeat(300)}\nend`;
    const [location] = matchLocations(long, LineIndex.of(long), [long.indexOf('end')], { maxSnippetLineChars: 20 });
    assert.deepEqual(location.snippet.split('\n'), ['short', `${'z'.repeat(19)}…`, 'end']);
  });
});
