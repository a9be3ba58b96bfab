import * as assert from 'node:assert/strict';
import { occurrencesOf, occurrencesOfAll } from '../../src/core/matching/multiSearch';

describe('multi-pattern search', () => {
  it('finds every occurrence past the size of one gathering array, in order', () => {
    const text = 'ab'.repeat(40_000);
    assert.deepEqual(Array.from(occurrencesOf(text, 'a')), Array.from({ length: 40_000 }, (_, index) => 2 * index));
    assert.deepEqual(Array.from(occurrencesOf('a'.repeat(40_000), 'aa')), Array.from({ length: 39_999 }, (_, index) => index));
  });

  it('finds the same occurrences with small tables (a small text) as with indexOf', () => {
    const lines = Array.from({ length: 300 }, (_, index) => `  const value${index % 50} = compute(${index});`);
    const text = `${lines.join('\n')}\n`;
    const patterns = lines.slice(0, 40).map((line) => line.slice(2, 30));
    const found = occurrencesOfAll(text, patterns);
    for (const pattern of patterns) {
      assert.deepEqual(Array.from(found.get(pattern) ?? []), Array.from(occurrencesOf(text, pattern)), pattern);
    }
  });

  it('finds what indexOf finds in texts of every table size, one after another (the tables are kept and refilled)', () => {
    const lineOf = (index: number): string => `  const value${index % 97} = compute(${index}, "item-${index % 13}");`;
    // 2^12 to 2^18 entries and back: a smaller text's scan reads the first entries of the larger tables.
    for (const count of [40, 3_000, 30_000, 200, 30_000, 40]) {
      const lines = Array.from({ length: count }, (_, index) => lineOf(index));
      const text = `${lines.join('\n')}\n`;
      const patterns = Array.from({ length: 20 }, (_, index) => lines[Math.floor((index * count) / 20)].slice(2, 24 + (index % 7)));
      const found = occurrencesOfAll(text, patterns);
      for (const pattern of patterns) {
        assert.deepEqual(Array.from(found.get(pattern) ?? []), Array.from(occurrencesOf(text, pattern)), `${count} lines: ${pattern}`);
      }
    }
  });
});
