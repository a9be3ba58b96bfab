/** Locating a request's fields in its JSON text, for markers in the request file. */
import * as assert from 'node:assert/strict';
import { locateJsonPath } from '../../src/vscode/requestFiles/jsonLocate';

const TEXT = `{
  "files": [
    { "file_path": "a.ts", "edits": [ { "old_string": "x", "new_string": "y" } ] },
    { "file_path": "b \\"q\\".ts", "edits": [
      { "old_string": "one", "new_string": "two", "replaceAll": true },
      { "old_string": "three" }
    ] }
  ],
  "dry_run": false
}`;

function spanText(path: readonly (string | number)[]): string | undefined {
  const span = locateJsonPath(TEXT, path);
  return span && TEXT.slice(span.start, span.end);
}

describe('locating a field of a request in its JSON text', () => {
  it('finds the value at a path of keys and indexes', () => {
    assert.equal(spanText(['files', 1, 'edits', 0, 'old_string']), '"one"');
    assert.equal(spanText(['files', 1, 'file_path']), '"b \\"q\\".ts"');
    assert.equal(spanText(['dry_run']), 'false');
    assert.equal(locateJsonPath(TEXT, ['files', 0, 'edits', 0, 'new_string'])?.exact, true);
  });

  it('gives the key of a member, so an unknown field can be marked on its name', () => {
    const span = locateJsonPath(TEXT, ['files', 1, 'edits', 0, 'replaceAll']);
    assert.ok(span?.key);
    assert.equal(TEXT.slice(span.key.start, span.key.end), '"replaceAll"');
  });

  it('falls back to the nearest existing parent for a missing field', () => {
    const span = locateJsonPath(TEXT, ['files', 1, 'edits', 1, 'new_string']);
    assert.equal(span?.exact, false);
    assert.equal(span && TEXT.slice(span.start, span.end), '{ "old_string": "three" }');
    assert.equal(locateJsonPath(TEXT, ['files', 7])?.exact, false);
  });

  it('gives nothing for text that is not JSON', () => {
    assert.equal(locateJsonPath('{ "a": ', ['a']), undefined);
    assert.equal(locateJsonPath('{ "a": 1 } x', ['a']), undefined);
  });
});
