import * as assert from 'node:assert/strict';
import { clipDiffs } from '../../src/core/report/diffBudget';
import { runRequest } from '../../src/core/engine/engine';
import { MemoryStore } from './helpers/memoryStore';

function diffOf(path: string, hunks: number): string {
  let text = `--- ${path}\n+++ ${path}\n`;
  for (let hunk = 0; hunk < hunks; hunk++) {
    text += `@@ -${hunk * 10 + 1},1 +${hunk * 10 + 1},1 @@\n-old line ${hunk}\n+new line ${hunk}\n`;
  }
  return text;
}

describe('diff budget', () => {
  it('leaves diffs within the budget untouched and adds no warning', () => {
    const diffs = [diffOf('a.ts', 3), diffOf('b.ts', 2)];
    const clipped = clipDiffs(diffs, 10_000);
    assert.deepEqual(clipped.diffs, diffs);
    assert.equal(clipped.warning, undefined);
  });

  it('cuts at hunk boundaries, keeps every file header and says how much was left out', () => {
    const diffs = [diffOf('a.ts', 50), diffOf('b.ts', 50)];
    const clipped = clipDiffs(diffs, 600);
    const total = clipped.diffs.reduce((sum, diff) => sum + diff.length, 0);
    assert.ok(total < diffs[0].length, 'the clipped diffs are much smaller than one original');
    assert.ok(clipped.diffs[0].startsWith('--- a.ts\n+++ a.ts\n@@ -1,1'));
    assert.ok(clipped.diffs[1].startsWith('--- b.ts\n+++ b.ts\n'));
    assert.match(clipped.diffs[1], /@@ 50 more hunk\(s\) not shown @@\n$/);
    for (const diff of clipped.diffs) {
      for (const hunk of diff.split('\n@@ ').slice(1)) {
        assert.ok(hunk.includes('not shown') || /\n-old line \d+\n\+new line \d+\n?$/.test(hunk), 'no hunk is cut in the middle');
      }
    }
    assert.equal(clipped.warning?.code, 'DIFF_TRUNCATED');
    assert.match(clipped.warning?.message ?? '', /hunk\(s\) are not shown/);
  });

  it('clips a dry run of a sweeping change but still reports every replacement', async () => {
    const text = Array.from({ length: 4000 }, (_, line) => `value_${line} = old;\n\n\n\n\n\n\n`).join('');
    const store = new MemoryStore({ '/w/big.ts': text });
    const response = (await runRequest('multi_edit', {
      file_path: '/w/big.ts',
      edits: [{ old_string: 'old;', new_string: 'new;', replace_all: true }],
      dry_run: true,
    }, { store, limits: { maxDiffBytes: 4096 } })).response;
    assert.equal(response.success, true);
    if (!response.success) return;
    assert.equal(response.replacements, 4000);
    assert.ok((response.files[0].diff ?? '').length <= 4096 + 100);
    assert.equal(response.warnings?.some((warning) => warning.code === 'DIFF_TRUNCATED'), true);
    assert.equal(store.text('/w/big.ts'), text, 'a dry run writes nothing');
  });
});
