import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { envelopeFor } from '../../src/core/contract/envelope';
import { hygieneLeaks } from '../shared/hygiene';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');

/** A clean envelope with `field` of its first edit status (or the top level) replaced. */
function envelopeWith(overrides: Record<string, unknown>, statusOverrides: Record<string, unknown> = {}): Record<string, unknown> {
  const clean = envelopeFor('MATCH_NOT_FOUND', 'Edit 1 of 1 failed: old_string was not found in src/a.ts', {
    file_path: '/w/src/a.ts',
    edit_status: [{ edit_index: 0, status: 'failed', error_code: 'MATCH_NOT_FOUND', message: 'old_string was not found', old_string_preview: 'abc' }],
    context: { snippet: 'line one\nline two', start_line: 1 },
  });
  return { ...clean, ...overrides, edit_status: [{ ...clean.edit_status[0], ...statusOverrides }] };
}

const rulesOf = (response: unknown) => hygieneLeaks(response).map((leak) => `${leak.rule} in ${leak.field}`);

describe('output hygiene checker', () => {
  it('passes a clean envelope, line breaks and tabs in its text included', () => {
    assert.deepEqual(rulesOf(envelopeWith({ message: 'two\tparts\r\nof one message' })), []);
  });

  it('names each kind of leak and the field it is in', () => {
    const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
      [{ message: 'boom\n    at plan (/srv/app/plan.ts:10:5)' }, {}, 'stack frame in message'],
      [{ summary: 'failed at Object.run (file:///x/y.ts:3:9)' }, {}, 'stack frame in summary'],
      [{ recovery_hints: ['ok', 'see /home/u/node_modules/zod'] }, {}, 'node_modules path in recovery_hints[1]'],
      [{ diagnosis: { kind: 'INDENTATION', detail: `from ${path.join(PROJECT_ROOT, 'dist', 'extension')}` } }, {}, 'build path of the extension in diagnosis.detail'],
      [{}, { message: 'thrown in cli.js:120' }, 'script location in edit_status[0].message'],
      [{ message: "ENOENT: no such file or directory, open '/w/a.ts'" }, {}, 'raw errno text in message'],
      [{ summary: 'write failed (errno -28)' }, {}, 'raw errno text in summary'],
      [{ message: 'failed \u001b[31mred' }, {}, 'control character in message'],
      [{}, { message: 'nul \u0000 here' }, 'control character in edit_status[0].message'],
      [{ file_path: '/w/node_modules/x.ts' }, {}, 'node_modules path in file_path'],
    ];
    for (const [overrides, statusOverrides, expected] of cases) {
      assert.deepEqual(rulesOf(envelopeWith(overrides, statusOverrides)), [expected]);
    }
  });

  it('lets file content and echoed paths carry what the file or the caller put there', () => {
    const fileText = 'Error: x\n    at run (/a/b.js:1:2)\n\u001b[0m node_modules ENOENT: \u0000';
    assert.deepEqual(rulesOf(envelopeWith({ context: { snippet: fileText, match_locations: [{ line: 1, column: 1, snippet: fileText }] }, file_path: '/w/odd\u0001name' }, { old_string_preview: fileText })), []);
    assert.deepEqual(rulesOf({ success: true, summary: 'Applied 1 edit', files: [{ file_path: '/w/a', edits_applied: 1, replacements: 1, diff: fileText }], dry_run: false }), []);
  });

  it('checks success responses too: summary and warnings are product text', () => {
    const leaky = { success: true, summary: 'Applied', files: [], dry_run: false, warnings: [{ code: 'EOL_NORMALIZED', message: 'at x (/a/b.js:1:2)' }] };
    assert.deepEqual(rulesOf(leaky), ['stack frame in warnings[0].message', 'script location in warnings[0].message']);
  });
});
