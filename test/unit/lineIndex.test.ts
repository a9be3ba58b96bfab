import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineIndex } from '../../src/core/text/lineIndex';
import { CRLF_FILE, MIXED_EOL, NO_FINAL_NEWLINE, UNICODE_COLUMNS, numberedLines } from './fixtures/explain/texts';

/** The obvious, slow way: count '\n' before the offset. */
function naivePosition(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = 0; at < offset; at++) {
    if (text[at] === '\n') {
      line++;
      lineStart = at + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

describe('LineIndex', () => {
  it('gives an empty text one empty line', () => {
    const index = LineIndex.of('');
    assert.equal(index.lineCount, 1);
    assert.deepEqual(index.position(0), { line: 1, column: 1 });
    assert.equal(index.lineStart(0), 0);
    assert.equal(index.lineEnd(0), 0);
  });

  it('counts a final newline as the start of an empty last line', () => {
    const index = LineIndex.of('a\nb\n');
    assert.equal(index.lineCount, 3);
    assert.equal(index.lineStart(2), 4);
    assert.equal(index.lineEnd(2), 4);
  });

  it('ends the last line at the end of a text with no final newline', () => {
    const index = LineIndex.of(NO_FINAL_NEWLINE);
    assert.equal(index.lineCount, 3);
    assert.equal(index.lineText(2), 'three');
    assert.equal(index.lineEnd(2), NO_FINAL_NEWLINE.length);
  });

  it('ends CRLF lines before the "\\r\\n"', () => {
    const index = LineIndex.of(CRLF_FILE);
    assert.equal(index.lineCount, 6);
    assert.equal(index.lineText(1), 'if (ready) {');
    assert.equal(CRLF_FILE.slice(index.lineEnd(1), index.lineStart(2)), '\r\n');
    // The '\r' belongs to the line it ends, not the next one.
    assert.equal(index.lineOfOffset(index.lineEnd(1)), 1);
  });

  it('does not break lines at a lone CR', () => {
    const index = LineIndex.of(MIXED_EOL);
    assert.equal(index.lineCount, 6);
    assert.equal(index.lineText(3), 'delta\repsilon');
    assert.equal(index.lineText(1), 'beta');
  });

  it('puts the offset of a newline on the line it ends', () => {
    const index = LineIndex.of('ab\ncd');
    assert.deepEqual(index.position(2), { line: 1, column: 3 });
    assert.deepEqual(index.position(3), { line: 2, column: 1 });
  });

  it('counts columns in UTF-16 code units, astral characters as two and combining marks as one', () => {
    const index = LineIndex.of(UNICODE_COLUMNS);
    assert.deepEqual(index.position(UNICODE_COLUMNS.indexOf('grin')), { line: 2, column: 6 });
    assert.deepEqual(index.position(UNICODE_COLUMNS.indexOf('cole')), { line: 3, column: 3 });
  });

  it('clamps offsets and lines outside the text', () => {
    const index = LineIndex.of('ab\ncd');
    assert.deepEqual(index.position(-4), { line: 1, column: 1 });
    assert.deepEqual(index.position(99), { line: 2, column: 3 });
    assert.equal(index.lineStart(7), 3);
    assert.equal(index.lineEnd(-1), 2);
  });

  it('maps every line start of a 5,000-line text back to its line', () => {
    const text = numberedLines(5000);
    const index = LineIndex.of(text);
    assert.equal(index.lineCount, 5001);
    for (let line0 = 0; line0 < 5000; line0 += 1) {
      const start = index.lineStart(line0);
      assert.equal(index.lineOfOffset(start), line0);
      assert.equal(index.lineText(line0), `line ${String(line0 + 1).padStart(5, '0')} value=${line0 + 1};`);
    }
  });

  it('agrees with a naive count of newlines on random texts', () => {
    const pieces = fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r', '\r\n', '\u{1F600}', 'e\u0301', '\u00a0');
    fc.assert(fc.property(fc.array(pieces, { maxLength: 60 }).map((parts) => parts.join('')), fc.nat(), (text, seed) => {
      const index = LineIndex.of(text);
      const offset = text.length === 0 ? 0 : seed % (text.length + 1);
      assert.deepEqual(index.position(offset), naivePosition(text, offset));
      assert.equal(index.lineCount, text.split('\n').length);
      const line0 = index.lineOfOffset(offset);
      assert.ok(index.lineStart(line0) <= offset && offset <= index.lineStart(line0) + text.split('\n')[line0].length);
    }), { numRuns: 500 });
  });
});
