import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runRequest, runRequestWithDiffPieces, type EngineOptions } from '../../src/core/index';
import { diffPieces, unifiedDiff } from '../../src/core/report/diff';
import { jsonPieces } from '../../src/node/cli/jsonPieces';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';

describe('the CLI report written in pieces', () => {
  const joined = (value: unknown, sliceLength: number): string => [...jsonPieces(value, sliceLength)].join('');

  it('is exactly JSON.stringify(value, null, 2) for any JSON value, long strings cut into slices', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 6 }), (value, sliceLength) => {
      assert.equal(joined(value, sliceLength), JSON.stringify(value, null, 2));
    }), { numRuns: 2000 });
  });

  it('cuts no surrogate pair and no escape apart, whatever the slice length', () => {
    const text = fc.string({ unit: 'binary', maxLength: 60 });
    fc.assert(fc.property(text, fc.integer({ min: 1, max: 7 }), (value, sliceLength) => {
      assert.equal(joined({ diff: value, list: [value] }, sliceLength), JSON.stringify({ diff: value, list: [value] }, null, 2));
    }), { numRuns: 3000 });
    assert.equal(joined('a\ud83d\ude00b\ud83dc\n"\\\u0001', 1), JSON.stringify('a\ud83d\ude00b\ud83dc\n"\\\u0001'));
  });

  it('leaves out undefined members and writes undefined items as null, as JSON.stringify does', () => {
    const value = { success: true, skipped: undefined, files: [{ diff: 'x'.repeat(10), gone: undefined }, undefined], empty: {}, none: [] };
    assert.equal(joined(value, 3), JSON.stringify(value, null, 2));
  });

  it('yields a long string a slice at a time, never whole', () => {
    const diff = '-a\n+b\n'.repeat(50_000);
    const pieces = [...jsonPieces({ diff }, 1024)];
    assert.ok(pieces.length >= 290, `${pieces.length} pieces`);
    assert.ok(pieces.every((piece) => piece.length <= 2 * 1024 + 16), 'a piece longer than an escaped slice');
    assert.equal(pieces.join(''), JSON.stringify({ diff }, null, 2));
  });
});

describe('the CLI report with each diff written as it is made', () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'multi-edit-diff-pieces-'));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const crlfBom = {
    before: '\uFEFFone\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix\r\nseven\r\neight\r\nnine\r\nten\r\n',
    edits: [{ old_string: 'two', new_string: 'TWO' }, { old_string: 'ten\n', new_string: 'TEN' }],
    after: '\uFEFFone\r\nTWO\r\nthree\r\nfour\r\nfive\r\nsix\r\nseven\r\neight\r\nnine\r\nTEN',
    // As the whole-string diff wrote it before diffs came in pieces.
    diff: '--- f.txt\n+++ f.txt\n@@ -1,5 +1,5 @@\n \uFEFFone\r\n-two\r\n+TWO\r\n three\r\n four\r\n five\r\n@@ -7,4 +7,4 @@\n seven\r\n eight\r\n nine\r\n-ten\r\n+TEN\n\\ No newline at end of file\n',
  };
  const unicode = {
    before: 'caf\u00e9 \u{1F600}\nna\u0131ve\n\u{1F9D1}\u200D\u{1F4BB}\nend\n',
    edits: [{ old_string: '\u{1F600}', new_string: '\u{1F600}\u{1F600}' }, { old_string: '\u{1F4BB}\n', new_string: '\u{1F4BB}\n"quoted" \\ \t\u0001\n' }],
    after: 'caf\u00e9 \u{1F600}\u{1F600}\nna\u0131ve\n\u{1F9D1}\u200D\u{1F4BB}\n"quoted" \\ \t\u0001\nend\n',
    diff: '--- f.txt\n+++ f.txt\n@@ -1,4 +1,5 @@\n-caf\u00e9 \u{1F600}\n+caf\u00e9 \u{1F600}\u{1F600}\n na\u0131ve\n \u{1F9D1}\u200D\u{1F4BB}\n+"quoted" \\ \t\u0001\n end\n',
  };

  it('makes each diff exactly as the whole-string diff did, on CRLF, a BOM and Unicode', () => {
    for (const { before, after, diff } of [crlfBom, unicode]) {
      assert.equal(unifiedDiff('f.txt', before, after), diff);
      assert.equal([...diffPieces('f.txt', before, after)].join(''), diff);
    }
  });

  /** The report as the CLI writes it, and JSON.stringify of the same request's response with its diffs as strings. */
  async function bothReports(tool: string, input: object, options: Partial<EngineOptions> = {}): Promise<[string, string]> {
    const engineOptions: EngineOptions = { store: new NodeFileStore(), limits: { maxDiffBytes: Number.POSITIVE_INFINITY }, ...options };
    const whole = (await runRequest(tool, input, engineOptions)).response;
    const streamed = (await runRequestWithDiffPieces(tool, input, engineOptions)).response;
    return [[...jsonPieces(streamed)].join(''), JSON.stringify(whole, null, 2)];
  }

  it('writes the same bytes as JSON.stringify of the whole response, for one file and for several', async () => {
    const paths = await Promise.all([crlfBom, unicode].map(async ({ before }, index) => {
      const path = join(folder, `file${index}.txt`);
      await writeFile(path, before);
      return path;
    }));
    const longPath = join(folder, 'long.txt');
    await writeFile(longPath, 'x\u{1F600}\r\n'.repeat(40_000));
    const longEdit = { old_string: '\u{1F600}', new_string: '\u00e9', replace_all: true };
    const requests: [string, object][] = [
      ['multi_edit', { file_path: paths[0], edits: crlfBom.edits, dry_run: true }],
      ['multi_edit', { file_path: paths[1], edits: unicode.edits, dry_run: true }],
      ['multi_edit', { file_path: longPath, edits: [longEdit], dry_run: true }],
      ['multi_edit_files', { files: [{ file_path: paths[0], edits: crlfBom.edits }, { file_path: paths[1], edits: unicode.edits }, { file_path: longPath, edits: [longEdit] }], dry_run: true }],
    ];
    for (const [tool, input] of requests) {
      const [streamed, whole] = await bothReports(tool, input);
      assert.ok(whole.includes('"diff": "--- '), `${tool}: a diff in the report`);
      assert.equal(streamed, whole);
    }
  });

  it('keeps the members of a moved file in their order', async () => {
    await writeFile(join(folder, 'from.txt'), 'one\r\ntwo\r\n');
    const patch = '*** Begin Patch\n*** Update File: from.txt\n*** Move to: to.txt\n@@\n-two\n+2\n*** End Patch\n';
    const [streamed, whole] = await bothReports('multi_edit_patch', { patch, dry_run: true }, { root: folder, checkPath: async (path) => ({ ok: true, path }) });
    assert.ok(whole.includes('"operation": "move"'), whole);
    assert.equal(streamed, whole);
  });
});
