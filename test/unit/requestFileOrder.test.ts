/** The request picker lists request files by path, whatever order the workspace search returned. */
import * as assert from 'node:assert/strict';
import { sortedByPath } from '../../src/vscode/commands/requestFileOrder';

describe('request picker order', () => {
  const found = ['src/zeta.multiedit.json', 'b.multiedit.json', 'src/alpha.multiedit.json', 'A.multiedit.json', 'docs/x.multiedit.json'];

  it('sorts by relative path, letters before case, and keeps each item with its label', () => {
    const items = found.map((label, index) => ({ label, index }));
    const sorted = sortedByPath(items);
    assert.deepEqual(sorted.map((item) => item.label), [
      'A.multiedit.json',
      'b.multiedit.json',
      'docs/x.multiedit.json',
      'src/alpha.multiedit.json',
      'src/zeta.multiedit.json',
    ]);
    for (const item of sorted) {
      assert.equal(found[item.index], item.label);
    }
  });

  it('gives the same list from any starting order, and leaves the search result as it was', () => {
    const reversed = [...found].reverse().map((label) => ({ label }));
    const before = reversed.map((item) => item.label);
    assert.deepEqual(sortedByPath(reversed), sortedByPath(found.map((label) => ({ label }))));
    assert.deepEqual(reversed.map((item) => item.label), before);
  });
});
