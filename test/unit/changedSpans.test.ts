/**
 * The replacements the VS Code store applies: applied to the old text they give the
 * new one exactly, they do not overlap, and edits far apart stay separate.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { changedSpans } from '../../src/vscode/platform/changedSpans';

function applySpans(before: string, spans: ReturnType<typeof changedSpans>): string {
  let result = '';
  let from = 0;
  for (const span of spans) {
    assert.ok(span.start >= from && span.end >= span.start, 'spans are ordered and do not overlap');
    result += before.slice(from, span.start) + span.text;
    from = span.end;
  }
  return result + before.slice(from);
}

describe('changedSpans (the VS Code store\'s replacements)', () => {
  it('turns the old text into the new one exactly, on generated texts', () => {
    const text = fc.array(fc.constantFrom('a', 'b', '\n', '\r\n', ' ', '\u{1F600}'), { maxLength: 60 }).map((parts) => parts.join(''));
    fc.assert(fc.property(text, text, (before, after) => {
      assert.equal(applySpans(before, changedSpans(before, after)), after);
    }), { numRuns: 2000 });
  });

  it('gives one small replacement per edit when edits are far apart', () => {
    const lines = Array.from({ length: 1000 }, (_, index) => `line ${index}\n`);
    const edited = lines.map((line, index) => (index % 100 === 50 ? line.replace('line', 'LINE') : line));
    const spans = changedSpans(lines.join(''), edited.join(''));
    assert.equal(spans.length, 10);
    assert.ok(spans.every((span) => span.end - span.start < 20));
  });
});
