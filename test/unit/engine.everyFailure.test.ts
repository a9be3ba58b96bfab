/** One response explains every match failure, so the caller can fix them all in one retry. */
import * as assert from 'node:assert/strict';
import { EXPLAINED_MATCH_FAILURES } from '../../src/core/matching/match';
import { failureOf, run } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';

const FILE = '/w/src/app.ts';
const TEXT = [
  'function greet(name: string) {',
  '\treturn `hello ${name}`;',
  '}',
  'const a = 1;',
  'const a = 1;',
  'export const answer = 42;',
  '',
].join('\n');

async function failing(edits: unknown[], limits = {}) {
  const store = new MemoryStore({ [FILE]: TEXT });
  const envelope = failureOf(await run('multi_edit', { file_path: FILE, edits }, { store, limits }));
  assert.equal(store.text(FILE), TEXT, 'a failure changes nothing');
  return envelope;
}

describe('engine: every failure explained', () => {
  it('gives each later match failure its own cause and context, while the first keeps the top level', async () => {
    const envelope = await failing([
      { old_string: 'function greet(name: String) {', new_string: 'x' },
      { old_string: 'const a = 1;', new_string: 'const a = 2;' },
      { old_string: '    return `hello ${name}`;', new_string: 'y' },
      { old_string: 'export const answer = 42;', new_string: 'export const answer = 43;' },
    ]);
    assert.equal(envelope.edit_index, 0);
    assert.ok(envelope.context?.snippet?.includes('function greet(name: string) {'));
    const [first, ambiguous, indented] = envelope.edit_status;
    assert.equal(first.context, undefined, 'the lead failure is explained at the top level only');

    assert.equal(ambiguous.edit_index, 1);
    assert.equal(ambiguous.error_code, 'AMBIGUOUS_MATCH');
    assert.deepEqual(ambiguous.context?.match_locations?.map((location) => location.line), [4, 5]);
    assert.equal(ambiguous.context?.total_matches, 2);

    assert.equal(indented.edit_index, 2);
    assert.equal(indented.diagnosis?.kind, 'INDENTATION');
    assert.equal(indented.context?.start_line, 1);
    assert.ok(indented.context?.snippet?.includes('\treturn `hello ${name}`;'), 'raw file text to copy from');
    assert.deepEqual(envelope.next_action.edits_to_fix, [0, 1, 2]);
  });

  it('takes each context from the text as the earlier edits left it', async () => {
    const envelope = await failing([
      { old_string: 'no such text', new_string: 'x' },
      { old_string: 'answer = 42', new_string: 'answer = 43' },
      { old_string: 'answer = 42;', new_string: 'answer = 44;' },
    ]);
    const later = envelope.edit_status.find((status) => status.edit_index === 2);
    assert.equal(later?.error_code, 'MATCH_NOT_FOUND');
    assert.ok(later?.context?.snippet?.includes('export const answer = 43;'));
    assert.equal(later?.diagnosis?.kind, 'STALE_CONTENT', 'edit 1 changed the text edit 2 was written against');
  });

  it(`explains at most ${EXPLAINED_MATCH_FAILURES} match failures in detail and still lists every one`, async () => {
    const edits = Array.from({ length: EXPLAINED_MATCH_FAILURES + 4 }, (_, index) => ({ old_string: `missing ${index}`, new_string: 'x' }));
    const envelope = await failing(edits);
    assert.equal(envelope.edit_status.length, edits.length);
    const detailed = envelope.edit_status.filter((status) => status.context !== undefined).length;
    assert.equal(detailed, EXPLAINED_MATCH_FAILURES - 1, 'the lead is detailed at the top level');
  });

  it('drops the later failures\' context before anything of the lead when the envelope is over its limit', async () => {
    const edits = Array.from({ length: 6 }, (_, index) => ({ old_string: `const a = 1;\n${'y'.repeat(200)}${index}`, new_string: 'x' }));
    const roomy = await failing(edits);
    assert.ok(roomy.edit_status.slice(1).every((status) => status.context !== undefined));
    const size = JSON.stringify(roomy).length;
    const tight = await failing(edits, { maxEnvelopeBytes: size - 200 });
    assert.equal(tight.truncated, true);
    assert.deepEqual(tight.context, roomy.context, 'the lead keeps its whole context');
    assert.ok(JSON.stringify(tight).length <= size - 200);
  });
});

describe('engine: every failing file explained', () => {
  const FIRST = '/w/src/first.ts';
  const SECOND = '/w/src/second.ts';
  const texts = {
    [FIRST]: 'export function first() {\n  return 1;\n}\n',
    [SECOND]: 'export function second() {\n  return 2;\n}\n',
  };

  it('gives the first failing edit of a later file its cause and context, and says which file each failed edit belongs to', async () => {
    const store = new MemoryStore(texts);
    const envelope = failureOf(await run('multi_edit_files', {
      files: [
        { file_path: FIRST, edits: [{ old_string: '    return 1;', new_string: '    return 10;' }] },
        { file_path: SECOND, edits: [{ old_string: 'export const untouched = 0;', new_string: 'x' }, { old_string: '    return 2;', new_string: '    return 20;' }] },
      ],
    }, { store }));
    assert.equal(envelope.file_index, 0);
    assert.equal(envelope.diagnosis?.kind, 'INDENTATION');
    const later = envelope.edit_status.filter((status) => status.file_index === 1);
    assert.deepEqual(later.map((status) => status.edit_index), [0, 1]);
    for (const status of later) {
      assert.ok(status.context?.snippet?.includes('export function second() {'), `edit ${status.edit_index} of the second file has the file's text`);
    }
    assert.equal(later[1].diagnosis?.kind, 'INDENTATION');
    assert.equal(envelope.edit_status.find((status) => status.file_index === 0)?.context, undefined, 'the lead is explained at the top level only');
    assert.deepEqual(envelope.next_action.edits_to_fix, [0], 'edits_to_fix keeps naming the lead file\'s edits');
    assert.deepEqual(envelope.next_action.files_to_fix, [
      { file_index: 0, file_path: FIRST, edits: [0] },
      { file_index: 1, file_path: SECOND, edits: [0, 1] },
    ]);
    assert.deepEqual(store.text(FIRST), texts[FIRST]);
  });

  it('has no files_to_fix for a one-file request', async () => {
    const store = new MemoryStore(texts);
    const envelope = failureOf(await run('multi_edit', { file_path: FIRST, edits: [{ old_string: 'nope', new_string: 'x' }] }, { store }));
    assert.equal(envelope.next_action.files_to_fix, undefined);
  });
});
