/**
 * The shared search of a not-found explanation answers every question exactly as a
 * plain scan of the text would (differential properties over small alphabets, where
 * prefixes repeat and the bounds are tested hardest), while reading less of the text.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextSearch } from '../../src/core/nearMiss/textSearch';

/** The longest prefix of needle that occurs, at its first place, by brute force. */
function bruteLongestPrefix(text: string, needle: string): { offset: number; length: number } | undefined {
  for (let length = needle.length; length > 0; length--) {
    const at = text.indexOf(needle.slice(0, length));
    if (at !== -1) {
      return { offset: at, length };
    }
  }
  return undefined;
}

const small = (max: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom('a', 'b', 'c', '\n', ' '), maxLength: max });

describe('the shared search of a not-found explanation', () => {
  it('finds the same longest prefix as a brute-force search (property)', () => {
    fc.assert(fc.property(small(60), small(12), (text, needle) => {
      assert.deepEqual(new TextSearch(text, needle).longestPrefix(), bruteLongestPrefix(text, needle));
    }), { numRuns: 400 });
  });

  it('answers indexOf exactly as the text does, for prefixes of the needle, patterns sharing part of it and others (property)', () => {
    fc.assert(fc.property(small(80), small(10), fc.array(fc.tuple(fc.integer({ min: 0, max: 10 }), small(6), fc.integer({ min: 0, max: 90 })), { maxLength: 12 }), (text, needle, asks) => {
      const search = new TextSearch(text, needle);
      for (const [cut, tail, from] of asks) {
        const pattern = needle.slice(0, cut) + tail;
        if (pattern !== '') {
          assert.equal(search.indexOf(pattern, from), text.indexOf(pattern, from), JSON.stringify({ text, needle, pattern, from }));
          assert.equal(search.indexOf(pattern, from), text.indexOf(pattern, from), 'remembered answer');
        }
      }
    }), { numRuns: 400 });
  });

  it('finds the first match of a pattern that starts with a literal head as the pattern itself does (property)', () => {
    fc.assert(fc.property(small(80), small(10), fc.integer({ min: 1, max: 10 }), (text, needle, cut) => {
      const head = needle.slice(0, cut);
      fc.pre(head !== '');
      const pattern = new RegExp(`${head.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*[ab]`);
      const found = new TextSearch(text, needle).firstMatch(pattern, head);
      const expected = pattern.exec(text);
      assert.deepEqual(found && [found.index, found[0]], expected && [expected.index, expected[0]]);
    }), { numRuns: 400 });
  });

  it('reads none of a 4 MB text for a pattern that starts with more of the needle than occurs', () => {
    const text = `${'x = compute(1);\n'.repeat(250_000)}tail\n`;
    const search = new TextSearch(text, 'x = compute(2);');
    assert.deepEqual(search.longestPrefix(), { offset: 0, length: 12 });
    assert.equal(search.indexOf('x = compute(2); // and more'), -1);
    assert.equal(search.indexOf('x = compute(1);\ntail'), text.indexOf('x = compute(1);\ntail'));
  });
});
