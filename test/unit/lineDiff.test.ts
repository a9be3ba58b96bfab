import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyPatch } from 'diff';
import { unifiedDiff } from '../../src/core/report/diff';
import { eachLineRun, lineRuns, splitLinesKeepingEnds, TextLines, type LineRun } from '../../src/core/report/lineDiff';

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

  it('diffs a change to every one of 200,000 lines as one hunk, with the lines read in place', () => {
    const lines = 200_000;
    const before = 'a\n'.repeat(lines);
    const after = 'b\n'.repeat(lines);
    const diff = unifiedDiff('f.txt', before, after);
    assert.equal(diff, `--- f.txt\n+++ f.txt\n@@ -1,${lines} +1,${lines} @@\n${'-a\n'.repeat(lines)}${'+b\n'.repeat(lines)}`);
  });

  it('gives the same runs from lines read in place as from an array of lines', () => {
    fc.assert(fc.property(textArb, textArb, (before, after) => {
      const runs: LineRun[] = [];
      eachLineRun(new TextLines(before, 0, before.length), new TextLines(after, 0, after.length), (run) => runs.push({ ...run }));
      assert.deepEqual(runs, lineRuns(splitLinesKeepingEnds(before), splitLinesKeepingEnds(after)));
    }), { numRuns: 1000 });
  });

  it('reads a missing final newline in place as a difference', () => {
    assert.equal(unifiedDiff('f.ts', 'a\nb', 'a\nc'), '--- f.ts\n+++ f.ts\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n');
  });
});
