/** Edit semantics through runRequest: order, uniqueness, literal text, line endings, BOM, and the fixtures. */
import * as assert from 'node:assert/strict';
import type { EngineOptions } from '../../src/core/engine/options';
import { failureOf, fixture, run, successOf } from './helpers/engineRun';
import { MemoryStore, type FileSeed } from './helpers/memoryStore';

const FILE = '/work/file.txt';

interface EditInput { old_string: string; new_string: string; replace_all?: boolean }

async function editFile(seed: FileSeed, edits: EditInput[], extra: object = {}, options: Partial<EngineOptions> = {}) {
  const store = new MemoryStore({ [FILE]: seed });
  const response = await run('multi_edit', { file_path: FILE, edits, ...extra }, { store, ...options });
  return { store, response };
}

function numberedLines(count: number): string {
  return Array.from({ length: count }, (_, line) => `line ${line + 1}: value_${line + 1} = ${line * 7};`).join('\n') + '\n';
}

describe('engine: applying edits', () => {
  it('applies edits in order, each to the text the earlier ones left', async () => {
    const { store, response } = await editFile('one two three\n', [
      { old_string: 'one', new_string: 'uno' },
      { old_string: 'uno two', new_string: 'uno dos' },
      { old_string: 'dos three', new_string: 'dos tres' },
    ]);
    const success = successOf(response);
    assert.equal(store.text(FILE), 'uno dos tres\n');
    assert.equal(success.edits_applied, 3);
    assert.equal(success.replacements, 3);
    assert.equal(success.file_path, FILE);
    assert.equal(success.summary, `Applied 3 edits (3 replacements) to ${FILE}`);
    assert.equal(success.warnings, undefined);
    assert.equal(success.dry_run, false);
    assert.equal(success.files[0].diff, undefined);
  });

  it('replaces every occurrence with replace_all and counts the replacements', async () => {
    const { store, response } = await editFile('a-a-a b a\n', [{ old_string: 'a', new_string: 'x', replace_all: true }]);
    assert.equal(store.text(FILE), 'x-x-x b x\n');
    assert.equal(successOf(response).replacements, 4);
  });

  it('treats overlapping occurrences as ambiguous, and replace_all replaces them left to right', async () => {
    const ambiguous = failureOf((await editFile('aaa\n', [{ old_string: 'aa', new_string: 'b' }])).response);
    assert.equal(ambiguous.error_code, 'AMBIGUOUS_MATCH');
    assert.equal(ambiguous.context?.total_matches, 2);
    const { store } = await editFile('aaaaa\n', [{ old_string: 'aa', new_string: 'b', replace_all: true }]);
    assert.equal(store.text(FILE), 'bba\n');
  });

  it('inserts new_string literally: $ patterns stay as written (fixture dollar.js)', async () => {
    const seed = fixture('dollar.js');
    const { store } = await editFile(seed, [
      { old_string: "'$5'", new_string: "'$&$1$$' + `${x}$'`" },
      { old_string: 'total: $&', new_string: "$` and $'", replace_all: true },
    ]);
    assert.equal(store.text(FILE), seed.text.replace("'$5'", () => "'$&$1$$' + `${x}$'`").replace('total: $&', () => "$` and $'"));
    assert.ok(store.text(FILE)?.includes("'$&$1$$'"));
  });

  it('writes newlines in the edits as the CRLF of a CRLF file, and warns (fixture crlf.ts)', async () => {
    const seed = fixture('crlf.ts');
    const { store, response } = await editFile(seed, [
      { old_string: 'export function greet(name: string): string {\n  return', new_string: 'export function greet(name: string): string {\n  // say hello\n  return' },
      { old_string: 'answer = 42;', new_string: 'answer = 43;' },
    ]);
    const text = store.text(FILE) ?? '';
    assert.equal(text, seed.text.replace('{\r\n  return', '{\r\n  // say hello\r\n  return').replace('42', '43'));
    assert.equal(text.replace(/\r\n/g, '').includes('\n'), false, 'no lone LF was written');
    const warnings = successOf(response).warnings ?? [];
    assert.deepEqual(warnings.map((warning) => warning.code), ['EOL_NORMALIZED']);
    assert.match(warnings[0].message, /^Line breaks in edit 1 were written as CRLF/);
  });

  it('says a dry run\'s line breaks would be written, counting edits from 1', async () => {
    const seed = fixture('crlf.ts');
    const { store, response } = await editFile(seed, [
      { old_string: 'answer = 42;', new_string: 'answer = 43;' },
      { old_string: 'export function greet(name: string): string {\n  return', new_string: 'export function greet(name: string): string {\n  // say hello\n  return' },
    ], { dry_run: true });
    assert.equal(store.writes.length, 0);
    assert.match(successOf(response).warnings?.[0].message ?? '', /^Line breaks in edit 2 would be written as CRLF/);
  });

  it('writes CRLF in the edits as LF in an LF file', async () => {
    const { store } = await editFile('a\nb\nc\n', [{ old_string: 'a\r\nb', new_string: 'x\r\ny' }]);
    assert.equal(store.text(FILE), 'x\ny\nc\n');
  });

  it('keeps the BOM (fixture bom.json)', async () => {
    const seed = fixture('bom.json');
    assert.equal(seed.bom, true);
    const { store } = await editFile(seed, [{ old_string: '"1.0.0"', new_string: '"1.0.1"' }]);
    assert.equal(store.hasBom(FILE), true);
    assert.equal(store.text(FILE), seed.text.replace('1.0.0', '1.0.1'));
  });

  it('keeps a missing final newline missing, and says so (fixture no-final-newline.txt)', async () => {
    const seed = fixture('no-final-newline.txt');
    const { store, response } = await editFile(seed, [{ old_string: 'last line', new_string: 'final line' }]);
    assert.equal(store.text(FILE), 'first line\nsecond line\nfinal line without newline');
    const warnings = successOf(response).warnings ?? [];
    assert.deepEqual(warnings.map((warning) => warning.code), ['NO_FINAL_NEWLINE']);
  });

  it('does not match spaces against tabs, and shows the real lines (fixture tabs.py)', async () => {
    const { store, response } = await editFile(fixture('tabs.py'), [{ old_string: '    value = compute()', new_string: '    value = compute(1)' }]);
    const envelope = failureOf(response);
    assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
    assert.ok(envelope.context?.snippet?.includes('\tvalue = compute()'), envelope.context?.snippet);
    assert.equal(envelope.context?.start_line, 1);
    assert.equal(envelope.diagnosis?.kind, 'INDENTATION');
    assert.equal(store.writes.length, 0);
  });

  it('does not match straight quotes against smart quotes (fixture smart-quotes.md)', async () => {
    const { response } = await editFile(fixture('smart-quotes.md'), [{ old_string: 'She said "hello"', new_string: 'She said "hi"' }]);
    const envelope = failureOf(response);
    assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
    assert.ok(envelope.context?.snippet?.includes('“hello”'));
    assert.equal(envelope.diagnosis?.kind, 'UNICODE_LOOKALIKE');
  });

  it('finds, misses and locates edits in a 5,000-line file', async () => {
    const text = numberedLines(5000);
    const applied = await editFile(text, [
      { old_string: 'line 10: value_10 = 63;', new_string: 'line 10: changed' },
      { old_string: 'line 4999: value_4999 = 34986;', new_string: 'line 4999: changed' },
    ]);
    assert.equal(applied.store.text(FILE), text.replace('line 10: value_10 = 63;', 'line 10: changed').replace('line 4999: value_4999 = 34986;', 'line 4999: changed'));

    const missed = failureOf((await editFile(text, [{ old_string: 'line 4321: value_4321 = 99999;', new_string: 'x' }])).response);
    const start = missed.context?.start_line ?? 0;
    assert.ok(start <= 4321 && start + 15 > 4321, `snippet starts at ${start}`);
    assert.ok(missed.context?.snippet?.includes('line 4321: value_4321 = 30240;'));

    const ambiguous = failureOf((await editFile(text, [{ old_string: 'value_12', new_string: 'x' }])).response);
    assert.equal(ambiguous.context?.total_matches, 111);
    assert.deepEqual(ambiguous.context?.match_locations?.map((location) => [location.line, location.column]), [
      [12, 10], [120, 11], [121, 11], [122, 11], [123, 11],
    ]);
  });

  it('caps located matches at maxMatchLocations but counts them all', async () => {
    const text = 'x\n'.repeat(300);
    const envelope = failureOf((await editFile(text, [{ old_string: 'x', new_string: 'y' }], {}, { limits: { maxMatchLocations: 3 } })).response);
    assert.equal(envelope.context?.total_matches, 300);
    assert.equal(envelope.context?.match_locations?.length, 3);
  });
});

describe('engine: checking every edit', () => {
  const text = 'alpha\nbeta\ngamma\ndelta\n';

  it('lists every failed edit, checking later edits against the text the successful ones left', async () => {
    const { store, response } = await editFile(text, [
      { old_string: 'alpha', new_string: 'ALPHA' },
      { old_string: 'betta', new_string: 'BETA' },
      { old_string: 'ALPHA\nbeta', new_string: 'AB' },
      { old_string: 'omega', new_string: 'OMEGA' },
      { old_string: 'delta', new_string: 'DELTA' },
    ]);
    const envelope = failureOf(response);
    assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
    assert.equal(envelope.edit_index, 1);
    assert.equal(envelope.message, `Edit 2 of 5 failed: old_string was not found in ${FILE}`);
    assert.deepEqual(envelope.edit_status.map((status) => [status.edit_index, status.status]), [[1, 'failed'], [3, 'failed']]);
    assert.deepEqual(envelope.next_action.edits_to_fix, [1, 3]);
    assert.equal(envelope.summary, 'Fix: edit 2 (MATCH_NOT_FOUND), edit 4 (MATCH_NOT_FOUND); 3 other edits would apply', 'the summary counts from 1, as the message does');
    assert.equal(envelope.edit_status[0].old_string_preview, 'betta');
    assert.equal(store.text(FILE), text);
    assert.equal(store.writes.length, 0);
  });

  it('takes the context from the text as the earlier edits left it', async () => {
    const { response } = await editFile(text, [
      { old_string: 'gamma', new_string: 'GAMMA RAY' },
      { old_string: 'GAMMA RAY!', new_string: 'x' },
    ]);
    const envelope = failureOf(response);
    assert.ok(envelope.context?.snippet?.includes('GAMMA RAY'), envelope.context?.snippet);
  });

  it('skips an edit whose old_string only a failed edit would have made', async () => {
    const { response } = await editFile(text, [
      { old_string: 'betta', new_string: 'beta-two' },
      { old_string: 'beta-two', new_string: 'beta-2' },
      { old_string: 'gamma', new_string: 'GAMMA' },
    ]);
    const envelope = failureOf(response);
    assert.deepEqual(envelope.edit_status.map((status) => [status.edit_index, status.status, status.error_code]), [
      [0, 'failed', 'MATCH_NOT_FOUND'],
      [1, 'skipped', undefined],
    ]);
    assert.match(envelope.edit_status[1].message, /^depends on edit 1: .* new_string of edit 1,/);
    assert.deepEqual(envelope.next_action.edits_to_fix, [0]);
    assert.equal(envelope.summary, 'Fix: edit 1 (MATCH_NOT_FOUND); 1 edit skipped; 1 other edit would apply');
  });

  it('diagnoses STALE_CONTENT when an earlier edit of the request changed the text', async () => {
    const { response } = await editFile(text, [
      { old_string: 'beta\ngamma', new_string: 'beta\nGAMMA' },
      { old_string: 'gamma\ndelta', new_string: 'x' },
    ]);
    const envelope = failureOf(response);
    assert.equal(envelope.edit_index, 1);
    assert.equal(envelope.diagnosis?.kind, 'STALE_CONTENT');
    assert.match(envelope.diagnosis?.detail ?? '', /but edit 1 of this request changed that text first/);
    assert.equal(envelope.next_action.action, 'fix_and_resubmit');
  });

  it('gives a stale edit the earlier edits that changed its text and that text as they left it, with a hint to write against it', async () => {
    const seed = 'local function load(path)\n  local file = assert(io.open(path, "r"))\n  return file\nend\n';
    const { response } = await editFile(seed, [
      { old_string: 'local function load(path)', new_string: 'local function load_config(path)' },
      { old_string: 'return file', new_string: 'return file, path' },
      { old_string: 'load(path)\n  local file = assert(io.open(path, "r"))\n  return file', new_string: 'load(path)\n  local file = assert(io.open(path, "rb"))\n  return file' },
    ]);
    const envelope = failureOf(response);
    assert.equal(envelope.edit_index, 2);
    assert.equal(envelope.diagnosis?.kind, 'STALE_CONTENT');
    assert.deepEqual(envelope.diagnosis?.changed_by, [0, 1]);
    assert.match(envelope.diagnosis?.detail ?? '', /edits 1 and 2 of this request changed that text first/);
    const near = envelope.diagnosis?.near_match;
    assert.ok(near);
    assert.deepEqual(near, { start_line: 1, start_column: 1, end_line: 3, end_column: 20 });
    const lines = (envelope.context?.snippet ?? '').split('\n').slice(near.start_line - (envelope.context?.start_line ?? 1), near.end_line - (envelope.context?.start_line ?? 1) + 1);
    lines[lines.length - 1] = lines[lines.length - 1].slice(0, near.end_column - 1);
    assert.equal(lines.join('\n'), 'local function load_config(path)\n  local file = assert(io.open(path, "r"))\n  return file, path');
    assert.match(envelope.recovery_hints.join('\n'), /Write old_string against the text of diagnosis.near_match/);
  });

  it('asks for a re-read when the edit was already applied', async () => {
    const { response } = await editFile('const limit = 20;\n', [{ old_string: 'const limit = 10;', new_string: 'const limit = 20;' }]);
    const envelope = failureOf(response);
    assert.equal(envelope.diagnosis?.kind, 'ALREADY_APPLIED');
    assert.equal(envelope.next_action.action, 'reread_and_retry');
    assert.match(envelope.summary, /^Re-read and fix: /);
  });

  it('uses the display path in messages and summaries', async () => {
    const { response } = await editFile(text, [{ old_string: 'nothing', new_string: 'x' }], {}, { displayPath: () => 'src/file.txt' });
    const envelope = failureOf(response);
    assert.equal(envelope.message, 'Edit 1 of 1 failed: old_string was not found in src/file.txt');
    assert.equal(envelope.file_path, FILE);
  });
});

describe('engine: dry runs and diffs', () => {
  it('returns a unified diff and writes nothing on a dry run', async () => {
    const { store, response } = await editFile('a\nb\nc\n', [{ old_string: 'b', new_string: 'B' }], { dry_run: true });
    const success = successOf(response);
    assert.equal(success.dry_run, true);
    assert.equal(success.files[0].diff, `--- ${FILE}\n+++ ${FILE}\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n`);
    assert.match(success.summary, /^Dry run: 1 edit \(1 replacement\) would apply/);
    assert.equal(store.writes.length, 0);
    assert.deepEqual(store.calls.filter((call) => call.startsWith('write')), []);
  });

  it('includes the diff in a real run only with include_diff', async () => {
    const { store, response } = await editFile('a\nb\nc\n', [{ old_string: 'b', new_string: 'B' }], { include_diff: true });
    assert.match(successOf(response).files[0].diff ?? '', /-b\n\+B/);
    assert.equal(store.text(FILE), 'a\nB\nc\n');
  });

  it('diffs only the changed lines of a large file, with the right line numbers', async () => {
    const text = numberedLines(5000);
    const { response } = await editFile(text, [{ old_string: 'value_2500 = 17493;', new_string: 'value_2500 = 0;' }], { dry_run: true });
    const diff = successOf(response).files[0].diff ?? '';
    assert.match(diff, /^@@ -2497,7 \+2497,7 @@$/m);
    assert.match(diff, /^-line 2500: value_2500 = 17493;$/m);
    assert.match(diff, /^\+line 2500: value_2500 = 0;$/m);
    assert.equal(diff.split('\n').length, 12);
  });

  it('marks a missing final newline in the diff', async () => {
    const { response } = await editFile('a\nb', [{ old_string: 'b', new_string: 'c' }], { dry_run: true });
    assert.match(successOf(response).files[0].diff ?? '', /\\ No newline at end of file/);
  });
});
