/**
 * The readers' merge carries only their own change onto the file's real line: where the
 * file's line differs in content from the one they wrote against, both changes are kept
 * when they are apart, and the merge refuses when they touch the same characters.
 */
import * as assert from 'node:assert/strict';
import { mergeChange } from '../../bench/recovery/merge';

describe('recovery readers: merging a changed line', () => {
  it('keeps the file\'s re-quoting of a line the reader changed elsewhere in it', () => {
    const base = "  const response = await request('GET', `/users/${id}`);\n  if (response.status === 404) {";
    const file = '  const response = await request("GET", `/users/${id}`);\n  if (response.status === 404) {';
    const mine = "  const response = await request('GET', `/users/${id}`, { retries: 2 });\n  if (response.status === 404) {";
    assert.equal(mergeChange(base, file, mine), '  const response = await request("GET", `/users/${id}`, { retries: 2 });\n  if (response.status === 404) {');
  });

  it('keeps a word renamed in the file next to an argument the reader added', () => {
    assert.equal(
      mergeChange('get("/p/\\(userID)")', 'get("/p/\\(userId)")', 'get("/p/\\(userID)", timeout: 5)'),
      'get("/p/\\(userId)", timeout: 5)',
    );
  });

  it('refuses when the reader\'s change and the file\'s difference touch the same characters', () => {
    assert.equal(mergeChange('limit = 10', 'limit = 12', 'limit = 20'), undefined);
    assert.equal(mergeChange('a(x)', 'a(y)', 'a(x, z)'), undefined);
  });

  it('refuses when both sides turned the same lines into different numbers of lines', () => {
    assert.equal(mergeChange('one\ntwo', 'ONE\nTWO\nthree', 'one!\ntwo!'), undefined);
  });
});
