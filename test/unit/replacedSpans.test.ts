import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkEdits, type EditToCheck } from '../../src/core/matching/match';
import { followIntoNewText, replacedSpans, type ReplacedSpan } from '../../src/core/matching/replacedSpans';

function applySpans(original: string, spans: readonly ReplacedSpan[]): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += original.slice(at, span.start) + span.text;
    at = span.end;
  }
  return out + original.slice(at);
}

async function spansOf(text: string, edits: readonly EditToCheck[]): Promise<{ spans: ReplacedSpan[]; newText: string } | undefined> {
  const outcome = await checkEdits(text, edits, { maxLocations: 5, insideIndentation: 'warn' });
  return outcome.text === undefined ? undefined : { spans: replacedSpans(outcome.applied, outcome.text), newText: outcome.text.whole() };
}

const edit = (oldString: string, newString: string, replaceAll = false): EditToCheck => ({ oldString, newString, replaceAll });

describe('replaced spans: where each edit landed in the original text', () => {
  it('gives one span per separate edit, in text order, with its edit index', async () => {
    const result = await spansOf('one two three\n', [edit('three', '3'), edit('one', '1')]);
    assert.deepEqual(result?.spans, [
      { start: 0, end: 3, newStart: 0, text: '1', edits: [1] },
      { start: 8, end: 13, newStart: 6, text: '3', edits: [0] },
    ]);
  });

  it('merges an edit that rewrites text an earlier edit wrote, and names both', async () => {
    const result = await spansOf('let a = 1;\n', [edit('a = 1', 'b = 2'), edit('b', 'c')]);
    assert.deepEqual(result?.spans, [{ start: 4, end: 9, newStart: 4, text: 'c = 2', edits: [0, 1] }]);
  });

  it('gives each match of replace_all its own span', async () => {
    const result = await spansOf('x-x-x', [edit('x', 'yy', true)]);
    assert.deepEqual(result?.spans.map((span) => [span.start, span.end, span.text]), [[0, 1, 'yy'], [2, 3, 'yy'], [4, 5, 'yy']]);
  });

  it('joins the touching matches of one replace_all into one span', async () => {
    const result = await spansOf('ababxab', [edit('ab', 'c', true)]);
    assert.deepEqual(result?.spans, [
      { start: 0, end: 4, newStart: 0, text: 'cc', edits: [0] },
      { start: 5, end: 7, newStart: 3, text: 'c', edits: [0] },
    ]);
  });

  it('rebuilds the new text from the original for any sequence of edits that applies', async () => {
    const alphabet = fc.constantFrom('a', 'b', 'c', '\n', ' ');
    const word = fc.string({ unit: alphabet, minLength: 1, maxLength: 3 });
    await fc.assert(fc.asyncProperty(
      fc.string({ unit: alphabet, maxLength: 60 }),
      fc.array(fc.record({ oldString: word, newString: fc.string({ unit: alphabet, maxLength: 4 }), replaceAll: fc.boolean() }), { minLength: 1, maxLength: 6 }),
      async (text, edits) => {
        const result = await spansOf(text, edits);
        if (result === undefined) {
          return;
        }
        assert.equal(applySpans(text, result.spans), result.newText);
        result.spans.forEach((span, index) => {
          assert.ok(span.start <= span.end && (index === 0 || result.spans[index - 1].end < span.start), 'spans are ordered and apart');
          assert.equal(result.newText.slice(span.newStart, span.newStart + span.text.length), span.text);
        });
      },
    ), { numRuns: 3000 });
  });

  it('folds many unique edits in any order, and a replace_all over more than a thousand earlier spans', async () => {
    const lines = Array.from({ length: 3000 }, (_, index) => `line ${index};`);
    const text = `${lines.join('\n')}\n`;
    await fc.assert(fc.asyncProperty(
      fc.shuffledSubarray(lines, { minLength: 1, maxLength: 1500 }),
      async (picked) => {
        const edits = [...picked.map((line) => edit(line, `${line} // x`)), edit(';', '!', true)];
        const result = await spansOf(text, edits);
        assert.ok(result);
        assert.equal(applySpans(text, result.spans), result.newText);
        assert.equal(result.spans.length, lines.length);
        assert.deepEqual(result.spans.map((span) => span.edits.length === 2 ? 'both' : 'all').filter((kind) => kind === 'both').length, picked.length);
      },
    ), { numRuns: 20 });
  });

  it('follows a stretch of the original into the new text: text apart from the edits stays itself, a stretch an edit overlaps widens to its replacement', async () => {
    const alphabet = fc.constantFrom('a', 'b', 'c', '\n', ' ');
    const word = fc.string({ unit: alphabet, minLength: 1, maxLength: 3 });
    await fc.assert(fc.asyncProperty(
      fc.string({ unit: alphabet, minLength: 1, maxLength: 60 }),
      fc.array(fc.record({ oldString: word, newString: fc.string({ unit: alphabet, maxLength: 4 }), replaceAll: fc.boolean() }), { minLength: 1, maxLength: 6 }),
      fc.nat(), fc.nat(),
      async (text, edits, a, b) => {
        const result = await spansOf(text, edits);
        if (result === undefined) {
          return;
        }
        const [start, end] = [a % (text.length + 1), b % (text.length + 1)].sort((x, y) => x - y);
        const followed = followIntoNewText(result.spans, start, end);
        if (!result.spans.some((span) => span.start <= end && start <= span.end)) {
          assert.equal(result.newText.slice(followed.start, followed.end), text.slice(start, end), 'a stretch apart from every edit is the same text');
        }
        for (const span of result.spans.filter((overlapping) => overlapping.start < end && start < overlapping.end)) {
          assert.ok(followed.start <= span.newStart && span.newStart + span.text.length <= followed.end, 'a touched stretch covers the replacement');
        }
      },
    ), { numRuns: 3000 });
  });
});
