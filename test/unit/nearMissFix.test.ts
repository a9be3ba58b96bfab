import * as assert from 'node:assert/strict';
import { nearMissFixFor, requestWithFix } from '../../src/vscode/requestFiles/nearMissFix';

const NEAR = { start_line: 3, start_column: 1, end_line: 4, end_column: 9 };

describe('the near-miss fix of a request file', () => {
  it('offers the file\'s text for whitespace, indentation, line-break and look-alike misses, and removal for an edit already applied', () => {
    for (const kind of ['INDENTATION', 'WHITESPACE_ONLY', 'EOL_MISMATCH', 'UNICODE_LOOKALIKE'] as const) {
      assert.deepEqual(nearMissFixFor({ kind, detail: '', near_match: NEAR }, ['edits', 1], '/w/a.ts'), { kind: 'useFileText', editPath: ['edits', 1], filePath: '/w/a.ts', nearMatch: NEAR });
    }
    assert.deepEqual(nearMissFixFor({ kind: 'ALREADY_APPLIED', detail: '' }, ['edits', 0], '/w/a.ts'), { kind: 'removeEdit', editPath: ['edits', 0] });
    // A miss the file's text does not settle, or one without a near match, gets no rewrite.
    assert.equal(nearMissFixFor({ kind: 'CONTENT_MISMATCH', detail: '', near_match: NEAR }, ['edits', 0], '/w/a.ts'), undefined);
    assert.equal(nearMissFixFor({ kind: 'WHITESPACE_ONLY', detail: '' }, ['edits', 0], '/w/a.ts'), undefined);
  });

  it('writes the near match into old_string escaped as JSON (tabs, quotes, backslashes, CRLF), and leaves the rest of the text alone', () => {
    const json = '{\n  "file_path": "a.ts",\n  "edits": [\n    { "old_string": "x", "new_string": "y" },\n    { "old_string": "  return  1;", "new_string": "return 2;" }\n  ]\n}\n';
    const fix = { kind: 'useFileText' as const, editPath: ['edits', 1], filePath: '/w/a.ts', nearMatch: NEAR };
    const nearText = '\treturn "a\\\\b";\r\n\t}';
    const fixed = requestWithFix(json, fix, nearText, '\n');
    assert.equal(JSON.parse(fixed).edits[1].old_string, nearText);
    assert.equal(fixed, json.replace('"  return  1;"', '"\\treturn \\"a\\\\\\\\b\\";\\r\\n\\t}"'));
  });

  it('removes an edit and its comma', () => {
    const json = '{ "file_path": "a.ts", "edits": [\n  { "old_string": "a", "new_string": "b" },\n  { "old_string": "c", "new_string": "d" }\n] }';
    const fixed = requestWithFix(json, { kind: 'removeEdit', editPath: ['edits', 0] }, '', '\n');
    assert.deepEqual(JSON.parse(fixed).edits, [{ old_string: 'c', new_string: 'd' }]);
  });
});
