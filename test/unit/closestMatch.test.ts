import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { findClosestMatch, locateClosestMatch, longestPrefixMatch } from '../../src/core/nearMiss/closestMatch';
import { comparableKey } from '../../src/core/nearMiss/lookalikes';
import { LineIndex } from '../../src/core/text/lineIndex';
import { TAB_INDENTED, numberedLines } from './fixtures/explain/texts';

function closestLine(text: string, needle: string): number | undefined {
  const index = LineIndex.of(text);
  const closest = findClosestMatch(text, index, needle);
  return closest && index.position(closest.offset).line;
}

describe('longestPrefixMatch', () => {
  it('finds the first occurrence of the longest prefix that occurs', () => {
    const text = 'abc abd abx abd';
    assert.deepEqual(longestPrefixMatch(text, 'abdz'), { offset: 4, length: 3 });
  });

  it('finds the whole needle when it occurs', () => {
    assert.deepEqual(longestPrefixMatch('xx hello xx', 'hello'), { offset: 3, length: 5 });
  });

  it('finds nothing when not even the first character occurs', () => {
    assert.equal(longestPrefixMatch('abc', 'zzz'), undefined);
  });

  it('agrees with a brute-force search on random texts', () => {
    const alphabet = fc.constantFrom('a', 'b', 'c', '\n');
    const str = fc.array(alphabet, { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(fc.property(str, str.filter((s) => s.length > 0), (text, needle) => {
      let length = 0;
      while (length < needle.length && text.includes(needle.slice(0, length + 1))) {
        length++;
      }
      const found = longestPrefixMatch(text, needle);
      assert.deepEqual(found, length === 0 ? undefined : { offset: text.indexOf(needle.slice(0, length)), length });
    }), { numRuns: 500 });
  });
});

describe('comparableKey', () => {
  it('collapses whitespace, folds look-alikes and trims', () => {
    assert.equal(comparableKey('\t const  x\u00a0=\u2018a\u2019;  '), "const x ='a';");
  });
});

describe('findClosestMatch', () => {
  it('returns the occurrence itself when the needle occurs', () => {
    const text = 'one\ntwo\nthree';
    assert.deepEqual(findClosestMatch(text, LineIndex.of(text), 'two'), { offset: 4, length: 3 });
  });

  it('returns undefined when nothing resembles the needle', () => {
    assert.equal(closestLine(TAB_INDENTED, 'zzzz qqqq'), undefined);
    assert.equal(closestLine('', 'anything'), undefined);
    assert.equal(closestLine('text', ''), undefined);
  });

  it('falls back to the longest prefix when no line resembles the needle', () => {
    const text = 'xyz\nhello world\n';
    assert.equal(findClosestMatch(text, LineIndex.of(text), 'hq')?.offset, text.indexOf('hello'));
  });

  it('finds a line with a typo deep in a 5,000-line text', () => {
    const text = numberedLines(5000);
    assert.equal(closestLine(text, 'line 04321 valeu=4321;'), 4321);
  });

  it('finds a multi-line needle whose first lines are common but whose later lines are distinctive', () => {
    const text = numberedLines(3000);
    // The first line, "line 0", is a prefix of every line; line 2 of the needle only fits at 2718-2719.
    assert.equal(closestLine(text, 'line 0\nline 02718 value=2718;\nline 02719 value=2719; // changed'), 2717);
  });

  it('places the needle at the line that differs only in indentation', () => {
    assert.equal(closestLine(TAB_INDENTED, '    return message;\n}'), 5);
  });

  it('places the needle at the line that differs only by a look-alike character', () => {
    assert.equal(closestLine(TAB_INDENTED, 'const message = \'it\'s \' + name;'), 4);
    const index = LineIndex.of(TAB_INDENTED);
    const closest = findClosestMatch(TAB_INDENTED, index, 'export const range = "1-5";');
    assert.ok(closest);
    assert.equal(TAB_INDENTED.slice(closest.offset, closest.offset + closest.length), 'export const range = "1\u20135";');
  });

  it('places a needle with literal \\n escapes where the file has the real line breaks', () => {
    assert.equal(closestLine(TAB_INDENTED, '\\treturn message;\\n}\\n\\nexport const range'), 5);
  });

  it('finds the right place on one very long line', () => {
    const text = Array.from({ length: 20000 }, (_, i) => `var a${i}=f(${i});`).join('');
    const index = LineIndex.of(text);
    const closest = locateClosestMatch(text, index, 'var a15000 = f(15000);');
    assert.ok(closest);
    const target = text.indexOf('var a15000=');
    assert.ok(Math.abs(closest.offset - target) < 20, `offset ${closest.offset}, expected near ${target}`);
  });

  it('names the line that differs least as its focus', () => {
    const text = 'header\nalpha beta gamma\ndelta epsilon\nzeta eta theta\n';
    const index = LineIndex.of(text);
    const closest = locateClosestMatch(text, index, 'alpha beta gamma!\ndelta epsilon\nzeta eta');
    assert.ok(closest);
    assert.equal(index.position(closest.offset).line, 2);
    assert.equal(index.position(closest.focus).line, 3);
  });

  it('never throws and stays inside the text on random input', () => {
    const pieces = fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r', '\\n', '\u2019', '\u00a0', 'xyz', '\u{1F600}');
    const str = fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(fc.property(str, str, (text, needle) => {
      const index = LineIndex.of(text);
      const closest = locateClosestMatch(text, index, needle);
      if (closest) {
        assert.ok(closest.offset >= 0 && closest.length >= 0 && closest.offset + closest.length <= text.length);
        assert.ok(closest.focus >= 0 && closest.focus <= text.length);
      }
    }), { numRuns: 1000 });
  });
});
