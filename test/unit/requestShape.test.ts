/**
 * The quick request check says yes exactly when zod does, on generated requests
 * (valid ones, near misses and junk), and never says yes where zod says no, on
 * objects JSON cannot make (getters, prototypes, hidden keys).
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { multiEditFilesSchema, multiEditSchema } from '../../src/core/contract/schemas';
import { fitsRequestSchema } from '../../src/core/request/requestShape';

const value = fc.oneof(fc.string({ maxLength: 4 }), fc.boolean(), fc.integer(), fc.constant(null), fc.constant(undefined), fc.constant([]), fc.constant({}));
const key = fc.constantFrom('old_string', 'new_string', 'replace_all', 'file_path', 'edits', 'files', 'dry_run', 'include_diff', 'other');

/** Objects with the request's keys, each holding a right or a wrong value, sometimes missing or extra. */
const editLike = fc.dictionary(key, fc.oneof(value, fc.string()), { maxKeys: 4 });
const edit = fc.record({ old_string: fc.string(), new_string: fc.string(), replace_all: fc.option(fc.boolean(), { nil: undefined }) }, { requiredKeys: ['old_string', 'new_string'] });
const edits = fc.array(fc.oneof({ weight: 4, arbitrary: edit }, { weight: 1, arbitrary: editLike }), { maxLength: 3 });
const multiEdit = fc.record(
  { file_path: fc.oneof(fc.string(), value), edits: fc.oneof({ weight: 4, arbitrary: edits }, { weight: 1, arbitrary: value }), dry_run: fc.oneof(fc.boolean(), value), include_diff: fc.boolean(), files: fc.constant([]) },
  { requiredKeys: [] },
);
const multiEditFiles = fc.record(
  { files: fc.oneof({ weight: 4, arbitrary: fc.array(fc.record({ file_path: fc.string(), edits }, { requiredKeys: [] }), { maxLength: 3 }) }, { weight: 1, arbitrary: value }), dry_run: fc.boolean(), edits: fc.constant([]) },
  { requiredKeys: [] },
);

describe('quick request check (requestShape.ts) against zod', () => {
  it('multi_edit: yes exactly when zod says yes', () => {
    fc.assert(fc.property(fc.oneof(multiEdit, fc.anything()), (input) => {
      assert.equal(fitsRequestSchema('multi_edit', input), multiEditSchema.safeParse(input).success);
    }), { numRuns: 3000 });
  });

  it('multi_edit_files: yes exactly when zod says yes', () => {
    fc.assert(fc.property(fc.oneof(multiEditFiles, fc.anything()), (input) => {
      assert.equal(fitsRequestSchema('multi_edit_files', input), multiEditFilesSchema.safeParse(input).success);
    }), { numRuns: 3000 });
  });

  it('says no to what JSON cannot make, and leaves those to zod', () => {
    const valid = { file_path: '/a', edits: [{ old_string: 'a', new_string: 'b' }] };
    const withGetter = Object.defineProperty({ edits: valid.edits }, 'file_path', { get: () => '/a', enumerable: true });
    const hidden = Object.defineProperty({ ...valid }, 'extra', { value: 1, enumerable: false });
    const inherited = Object.assign(Object.create({ file_path: '/a' }) as object, { edits: valid.edits });
    class Request { file_path = '/a'; edits = valid.edits; }
    const sparse = { file_path: '/a', edits: [, { old_string: 'a', new_string: 'b' }] };
    assert.equal(fitsRequestSchema('multi_edit', valid), true);
    for (const input of [withGetter, hidden, inherited, new Request(), sparse]) {
      assert.equal(fitsRequestSchema('multi_edit', input), false);
    }
  });
});
