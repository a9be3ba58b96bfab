import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyPatch } from 'diff';
import { unifiedDiff } from '../../src/core/report/diff';
import { lineRuns, splitLinesKeepingEnds } from '../../src/core/report/lineDiff';

/** Texts built from few distinct lines, so repeated lines and spurious resyncs are common. */
const textArb = fc.array(fc.constantFrom('a', 'b', 'c', '', '}', 'x = 1;', 'a\r'), { maxLength: 40 })
  .chain((lines) => fc.boolean().map((finalNewline) => lines.join('\n') + (finalNewline && lines.length > 0 ? '\n' : '')));

describe('line diff', () => {
  it('keeps line terminators, so a missing final newline is a difference', () => {
    assert.deepEqual(splitLinesKeepingEnds('a\nb'), ['a\n', 'b']);
    assert.deepEqual(splitLinesKeepingEnds('a\r\nb\n'), ['a\r\n', 'b\n']);
    assert.deepEqual(splitLinesKeepingEnds(''), []);
  });

  it('finds one changed line among unchanged ones', () => {
    assert.deepEqual(lineRuns(['a\n', 'b\n', 'c\n'], ['a\n', 'B\n', 'c\n']), [
      { same: true, oldLines: 1, newLines: 1 },
      { same: false, oldLines: 1, newLines: 1 },
      { same: true, oldLines: 1, newLines: 1 },
    ]);
  });

  it('every diff applies: patching the old text gives exactly the new text', () => {
    let changed = 0;
    fc.assert(fc.property(textArb, textArb, (before, after) => {
      const diff = unifiedDiff('f.ts', before, after);
      if (before === after) {
        assert.equal(diff, '');
        return;
      }
      changed++;
      assert.equal(applyPatch(before, diff), after);
    }), { numRuns: 1500 });
    assert.ok(changed > 1000, `only ${changed} cases had a change`);
  });

  it('every diff of edited copies applies, with runs far apart in a long text', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.nat(399), fc.string({ maxLength: 6 })), { maxLength: 30 }), (edits) => {
      const lines = Array.from({ length: 400 }, (_, index) => `line ${index % 37}`);
      const edited = [...lines];
      for (const [at, text] of edits) edited[at] = text;
      const before = lines.join('\n') + '\n';
      const after = edited.join('\n') + '\n';
      assert.equal(applyPatch(before, unifiedDiff('f.ts', before, after)), after);
    }), { numRuns: 300 });
  });

  it('marks hunks with the conventional header and three lines of context', () => {
    const before = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';
    const after = before.replace('five', 'FIVE');
    assert.equal(unifiedDiff('f.ts', before, after),
      '--- f.ts\n+++ f.ts\n@@ -2,7 +2,7 @@\n two\n three\n four\n-five\n+FIVE\n six\n seven\n eight\n');
  });
});
