import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonPieces } from '../../src/node/cli/jsonPieces';

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
