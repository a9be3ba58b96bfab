/** The envelope's size bound, sanitising, and the text a model sees. */
import * as assert from 'node:assert/strict';
import { boundEnvelope, envelopeBytes, envelopeFor, sanitizeText, utf8Length } from '../../src/core/contract/envelope';
import { formatForModel } from '../../src/core/contract/format';
import { assertValidResponse, failureOf, run } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';

const FILE = '/w/big.ts';

describe('engine: envelope size', () => {
  it('keeps an ambiguous match with long lines within the limit, keeping every field', async () => {
    const line = `${'x'.repeat(300)} target ${'y'.repeat(300)}`;
    const store = new MemoryStore({ [FILE]: `${line}\n`.repeat(50) });
    const maxEnvelopeBytes = 1500;
    const envelope = failureOf(await run('multi_edit', { file_path: FILE, edits: [{ old_string: 'target', new_string: 'goal' }] }, {
      store, limits: { maxEnvelopeBytes, maxMatchLocations: 5 },
    }));
    assert.ok(envelopeBytes(envelope) <= maxEnvelopeBytes, `${envelopeBytes(envelope)} bytes`);
    assert.equal(envelope.truncated, true);
    assert.equal(envelope.context?.total_matches, 50);
    assert.ok((envelope.context?.match_locations?.length ?? 0) >= 1);
    assert.equal(envelope.edit_index, 0);
    assert.equal(envelope.file_path, FILE);
  });

  it('keeps a request with thousands of failing edits within the limit', async () => {
    const store = new MemoryStore({ [FILE]: 'nothing to see\n' });
    const edits = Array.from({ length: 2000 }, (_, index) => ({ old_string: `missing ${index} ${'z'.repeat(50)}`, new_string: 'x' }));
    const envelope = failureOf(await run('multi_edit', { file_path: FILE, edits }, { store, limits: { maxEnvelopeBytes: 4096 } }));
    assert.ok(envelopeBytes(envelope) <= 4096, `${envelopeBytes(envelope)} bytes`);
    assert.equal(envelope.truncated, true);
    assert.ok(envelope.edit_status.length >= 1);
    assert.equal(envelope.edit_status[0].edit_index, 0);
    assert.match(envelope.summary, /1995 more; no other edit would apply$/);
  });

  it('clips the snippet, moving start_line with it', () => {
    const snippet = Array.from({ length: 13 }, (_, line) => `line ${line + 41} ${'w'.repeat(400)}`).join('\n');
    const envelope = envelopeFor('MATCH_NOT_FOUND', 'Edit 1 of 1 failed', { context: { snippet, start_line: 41 }, maxBytes: 100_000 });
    assert.equal(envelope.truncated, undefined);
    const bounded = boundEnvelope(envelope, 1500);
    assertValidResponse(bounded);
    assert.ok(envelopeBytes(bounded) <= 1500);
    const firstLine = bounded.context?.snippet?.split('\n')[0] ?? '';
    assert.ok(firstLine.startsWith(`line ${bounded.context?.start_line} `), `${firstLine.slice(0, 20)} vs ${bounded.context?.start_line}`);
  });

  it('leaves an envelope that fits untouched', () => {
    const envelope = envelopeFor('FILE_NOT_FOUND', 'Cannot edit /w/a.ts: no such file');
    assert.equal(boundEnvelope(envelope, 100_000), envelope);
  });

  it('counts UTF-8 bytes', () => {
    assert.equal(utf8Length('aé€😀'), 1 + 2 + 3 + 4);
  });
});

describe('engine: sanitising', () => {
  it('drops stack frames, source locations and line breaks', () => {
    assert.equal(
      sanitizeText('failed (at /home/u/.vscode/extensions/x/out/a.js:10:5)\nTypeError\n    at run (/home/u/x.js:1:2)'),
      'failed (at TypeError',
    );
    assert.equal(sanitizeText('Could not write C:\\w\\a.ts: denied'), 'Could not write C:\\w\\a.ts: denied');
  });

  it('bounds very long messages', () => {
    assert.ok(sanitizeText('m'.repeat(5000)).length <= 1000);
  });
});

describe('engine: text for the model', () => {
  it('is the summary line, then the compact JSON', async () => {
    const store = new MemoryStore({ [FILE]: 'a\n' });
    for (const edit of [{ old_string: 'a', new_string: 'b' }, { old_string: 'q', new_string: 'r' }]) {
      const response = await run('multi_edit', { file_path: FILE, edits: [edit] }, { store });
      const text = formatForModel(response);
      const newline = text.indexOf('\n');
      assert.equal(text.slice(0, newline), response.summary);
      assert.deepEqual(JSON.parse(text.slice(newline + 1)), response);
      assert.ok(!text.slice(newline + 1).includes('\n  '), 'compact JSON');
    }
  });
});
