/**
 * The line blocks a patch's hunks are planned on give the answers of the text held as
 * one string: every hunk placed, refused or applied alike, checked over random texts
 * (CRLF, lone CR, empty lines, no final newline) and random hunks and placements.
 */
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { checkEdits, type EditToCheck } from '../../src/core/matching/match';
import { LineBlocks } from '../../src/core/matching/lineBlocks';
import { textSite } from '../../src/core/matching/placement';
import type { Placement } from '../../src/core/matching/placement';
import { comparableOutcome } from './helpers/matchOutcome';

const lineText = fc.constantFrom('', 'a', 'b', 'a b', ' a', 'a\r', 'c\r', '}', '  x = 1;');
const lineBreak = fc.constantFrom('\n', '\n', '\n', '\r\n');
const textOf = (lines: readonly string[], breaks: readonly string[], finalBreak: boolean): string =>
  lines.map((line, index) => (index < lines.length - 1 || finalBreak ? `${line}${breaks[index % breaks.length]}` : line)).join('');
const randomText = fc.tuple(fc.array(lineText, { maxLength: 40 }), fc.array(lineBreak, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([lines, breaks, finalBreak]) => textOf(lines, breaks, finalBreak));

const placement: fc.Arbitrary<Placement> = fc.record({
  nearLine: fc.option(fc.nat(45), { nil: undefined }),
  afterLines: fc.option(fc.array(lineText, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  atStart: fc.option(fc.boolean(), { nil: undefined }),
  atEnd: fc.option(fc.boolean(), { nil: undefined }),
  finalNewlineOptional: fc.option(fc.boolean(), { nil: undefined }),
}, { requiredKeys: [] });

/** A hunk cut from the text at a line start (so that it often matches), or made of random lines. */
const hunkFor = (text: string): fc.Arbitrary<EditToCheck> => fc.record({
  cut: fc.tuple(fc.nat(), fc.nat(3), fc.boolean()),
  random: fc.tuple(fc.array(lineText, { maxLength: 3 }), fc.boolean()),
  fromText: fc.boolean(),
  newString: fc.tuple(fc.array(lineText, { maxLength: 3 }), fc.boolean()).map(([lines, finalBreak]) => textOf(lines, ['\n'], finalBreak)),
  placement,
}).map(({ cut, random, fromText, newString, placement }) => {
  const starts = [0, ...[...text.matchAll(/\n/g)].map((match) => (match.index ?? 0) + 1)];
  const start = starts[cut[0] % starts.length];
  let end = start;
  for (let line = 0; line < cut[1] + 1 && end < text.length; line++) {
    const next = text.indexOf('\n', end);
    end = next === -1 ? text.length : next + 1;
  }
  const oldString = fromText ? text.slice(start, cut[2] ? end : Math.max(start, end - 1)) : textOf(random[0], ['\n'], random[1]);
  return { oldString, newString, replaceAll: false, placement };
});

describe('line blocks: a patch planned on indexed lines', () => {
  it('places and applies every hunk as the plain text does', async () => {
    const cases = randomText.chain((text) => fc.tuple(fc.constant(text), fc.array(hunkFor(text), { minLength: 1, maxLength: 8 })));
    let applied = 0;
    await fc.assert(fc.asyncProperty(cases, async ([text, hunks]) => {
      const plain = await checkEdits(text, hunks, { maxLocations: 3, strategy: 'plain' });
      const blocks = await checkEdits(text, hunks, { maxLocations: 3, strategy: 'pieces' });
      assert.deepEqual(comparableOutcome(blocks), comparableOutcome(plain));
      applied += plain.applied.length;
    }), { numRuns: 3000 });
    assert.ok(applied > 1000, `only ${applied} hunks applied`);
  });

  it('answers every question of placement as the text and its line index do', () => {
    fc.assert(fc.property(randomText, fc.array(fc.tuple(fc.nat(), fc.nat(), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 6 }), lineText, (text, edits, wanted) => {
      const blocks = new LineBlocks(text);
      let current = text;
      for (const [at, length, replacement] of edits) {
        const start = at % (current.length + 1);
        const cut = Math.min(length % 5, current.length - start);
        blocks.replace([start], cut, replacement);
        current = current.slice(0, start) + replacement + current.slice(start + cut);
        const plain = textSite(current);
        assert.equal(blocks.text(), current);
        assert.equal(blocks.length, plain.length);
        assert.equal(blocks.lineCount, plain.lineCount);
        for (let offset = 0; offset <= current.length; offset += 3) {
          assert.equal(blocks.lineOfOffset(offset), plain.lineOfOffset(offset), `lineOfOffset(${offset})`);
          assert.equal(blocks.lineAtOrAfter(offset, wanted), plain.lineAtOrAfter(offset, wanted));
        }
        for (let line = 0; line <= plain.lineCount; line++) {
          assert.equal(blocks.lineStart(line), plain.lineStart(line));
        }
        for (const pattern of [wanted, `${wanted}\n`, `a\n${wanted}`, '\n'].filter((candidate) => candidate !== '')) {
          assert.deepEqual(blocks.lineStartOccurrences(pattern), plain.lineStartOccurrences(pattern), JSON.stringify(pattern));
        }
      }
    }), { numRuns: 1500 });
  });

  it('indexes a large text in slices that give the event loop turns, with the same answers, and stops when told', async () => {
    const text = Array.from({ length: 60_000 }, (_, index) => `line ${index % 977} of ${index}\n`).join('');
    let asked = 0;
    const sliced = await LineBlocks.indexing(text, () => {
      asked++;
      return new Promise<boolean>((resolve) => setImmediate(() => resolve(true)));
    });
    assert.ok(sliced);
    assert.ok(asked >= 3, `asked ${asked} times`);
    const whole = new LineBlocks(text);
    for (const pattern of ['line 5 of 5\n', 'line 976 of', 'of 59999\n', 'line 12 of 12\nline 13']) {
      assert.deepEqual(sliced.lineStartOccurrences(pattern), whole.lineStartOccurrences(pattern), pattern);
    }
    assert.equal(sliced.lineCount, whole.lineCount);
    assert.equal(await LineBlocks.indexing(text, () => false), undefined);
  });

  it('keeps its answers across many blocks: thousands of lines, hunks all over them', async () => {
    const lines = Array.from({ length: 5000 }, (_, index) => `line ${index % 1200}: ${index % 7 === 0 ? '}' : `value ${index}`}\n`);
    const text = lines.join('');
    const hunks: EditToCheck[] = Array.from({ length: 400 }, (_, index) => {
      const at = (index * 97) % 4990;
      return { oldString: lines.slice(at, at + 3).join(''), newString: `inserted ${index}\n${lines.slice(at, at + 3).join('')}`, replaceAll: false, placement: index % 3 === 0 ? { nearLine: at } : { afterLines: [lines[at].trim()] } };
    });
    const plain = await checkEdits(text, hunks, { maxLocations: 3, strategy: 'plain' });
    const blocks = await checkEdits(text, hunks, { maxLocations: 3, strategy: 'pieces' });
    assert.deepEqual(comparableOutcome(blocks), comparableOutcome(plain));
    assert.ok(plain.applied.length > 100, `${plain.applied.length} applied`);
  });
});
