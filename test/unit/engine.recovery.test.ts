/** The engine's side of recovery: what it matches, refuses, warns about and reports. */
import * as assert from 'node:assert/strict';
import { failureOf, run, successOf } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';
import { parseArgs } from '../../src/node/cli/cliArgs';
import type { InsideIndentationPolicy } from '../../src/core/contract/limits';

const FILE = '/w/src/app.py';

async function edit(text: string, oldString: string, newString: string, insideIndentation?: InsideIndentationPolicy) {
  const store = new MemoryStore({ [FILE]: text });
  const response = await run('multi_edit', { file_path: FILE, edits: [{ old_string: oldString, new_string: newString }] }, {
    store, ...(insideIndentation ? { limits: { insideIndentation } } : {}),
  });
  return { response, text: () => store.text(FILE) };
}

describe('engine: recovery', () => {
  describe('a block with other line endings than the file', () => {
    const text = 'import os\n\ndef report(self):\r\n    return 1\r\n\nprint(2)\n';

    it('matches a byte-exact CRLF old_string in an LF file, and writes new_string as sent', async () => {
      const result = await edit(text, 'def report(self):\r\n    return 1', 'def report(self):\r\n    return 2');
      successOf(result.response);
      assert.equal(result.text(), text.replace('return 1', 'return 2'));
    });

    it('explains an LF old_string there with the raw CRLF snippet and the break the request sent', async () => {
      const envelope = failureOf((await edit(text, 'def report(self):\n    return 1', 'x')).response);
      assert.equal(envelope.diagnosis?.kind, 'EOL_MISMATCH');
      assert.match(envelope.diagnosis?.detail ?? '', /ends with CRLF where old_string has LF/);
      assert.ok(envelope.context?.snippet?.includes('def report(self):\r\n    return 1\r\n'), JSON.stringify(envelope.context?.snippet));
    });

    it('keeps the CRs of a uniform CRLF file in the snippet', async () => {
      const crlf = 'a = 1\r\nb = 2\r\nc = 3\r\n';
      const envelope = failureOf((await edit(crlf, 'b  = 2', 'b = 3')).response);
      assert.equal(envelope.context?.snippet, 'a = 1\r\nb = 2\r\nc = 3\r\n');
    });
  });

  describe('a match inside a line\'s indentation', () => {
    const text = 'def run():\n        results.append(record)\n';
    const oldString = '    results.append(record)';
    const twoLines = '    results.append(record)\n    log.debug(record)';

    it('is refused by default when new_string spans lines, whose later lines would land mis-indented', async () => {
      const result = await edit(text, oldString, twoLines);
      const envelope = failureOf(result.response);
      assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
      assert.equal(envelope.diagnosis?.kind, 'INDENTATION');
      assert.equal(result.text(), text);
    });

    it('is applied with a MATCH_INSIDE_INDENTATION warning under warn', async () => {
      const result = await edit(text, oldString, twoLines, 'warn');
      const success = successOf(result.response);
      assert.deepEqual(success.warnings?.map((warning) => warning.code), ['MATCH_INSIDE_INDENTATION']);
      assert.match(success.warnings?.[0].message ?? '', /^Edit 1's old_string matched inside the indentation/);
    });

    it('is refused for a multi-line new_string under refuseMultiline, with an INDENTATION diagnosis at that line', async () => {
      const result = await edit(text, oldString, twoLines, 'refuseMultiline');
      const envelope = failureOf(result.response);
      assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
      assert.equal(envelope.diagnosis?.kind, 'INDENTATION');
      assert.deepEqual(envelope.diagnosis?.near_match, { start_line: 2, start_column: 1, end_line: 2, end_column: 31 });
      assert.equal(result.text(), text);
    });

    it('is applied with the warning for a one-line new_string under refuseMultiline, and refused under refuse', async () => {
      successOf((await edit(text, oldString, '    results.append(item)', 'refuseMultiline')).response);
      failureOf((await edit(text, oldString, '    results.append(item)', 'refuse')).response);
    });

    it('is no concern when old_string starts at the line or after code', async () => {
      const success = successOf((await edit(text, '        results.append(record)', 'x\ny', 'refuse')).response);
      assert.equal(success.warnings, undefined);
      successOf((await edit('a = 1  # note\n', '  # note', '  # note\n# more', 'refuse')).response);
    });
  });

  describe('ambiguous matches past the location cap', () => {
    it('gives the line of every match and says to re-read the file', async () => {
      const text = Array.from({ length: 12 }, (_unused, at) => `item(${at})\nhandler = none\n`).join('');
      const store = new MemoryStore({ [FILE]: text });
      const envelope = failureOf(await run('multi_edit', { file_path: FILE, edits: [{ old_string: 'handler = none', new_string: 'x' }] }, { store }));
      assert.equal(envelope.context?.match_locations?.length, 5);
      assert.deepEqual(envelope.context?.match_lines, Array.from({ length: 12 }, (_unused, at) => 2 * at + 2));
      assert.ok(envelope.recovery_hints.some((hint) => /Re-read the file/.test(hint)));
    });
  });

  describe('within the envelope size limit', () => {
    it('shortens match_lines before anything else of the lead, and keeps clipped_lines true to the shrunk snippet', async () => {
      const many = Array.from({ length: 900 }, (_unused, at) => `x${at}\ntarget line\n`).join('');
      const store = new MemoryStore({ [FILE]: many });
      const ambiguous = failureOf(await run('multi_edit', { file_path: FILE, edits: [{ old_string: 'target line', new_string: 'x' }] }, { store, limits: { maxEnvelopeBytes: 4096 } }));
      assert.equal(ambiguous.context?.total_matches, 900);
      assert.equal(ambiguous.context?.match_lines?.length, 100);

      const wide = `${'w'.repeat(300)}\n`.repeat(20) + 'def f():\n    return 1\n';
      const wideStore = new MemoryStore({ [FILE]: wide });
      const shrunk = failureOf(await run('multi_edit', { file_path: FILE, edits: [{ old_string: 'def f():\n  return 1', new_string: 'x' }] }, { store: wideStore, limits: { maxEnvelopeBytes: 2500 } }));
      assert.equal(shrunk.truncated, true);
      assert.ok(shrunk.context?.snippet !== undefined);
      const startLine = shrunk.context?.start_line ?? 1;
      const lines = shrunk.context?.snippet?.split('\n') ?? [];
      const marked = lines.flatMap((line, at) => (line.includes('…') ? [startLine + at] : []));
      assert.deepEqual(shrunk.context?.clipped_lines ?? [], marked);
    });
  });

  describe('a path with a typo', () => {
    it('names the closest entries of the directory, nearest first', async () => {
      const store = new MemoryStore({ '/w/src/retry.ts': 'x', '/w/src/router.ts': 'y', '/w/src/zebra.md': 'z' });
      store.addDirectory('/w/src');
      const envelope = failureOf(await run('multi_edit', { file_path: '/w/src/retyr.ts', edits: [{ old_string: 'x', new_string: 'y' }] }, { store }));
      assert.equal(envelope.error_code, 'FILE_NOT_FOUND');
      assert.deepEqual(envelope.context?.nearby_names, ['retry.ts', 'router.ts']);
    });

    it('gives no names when the directory is gone too', async () => {
      const envelope = failureOf(await run('multi_edit', { file_path: '/nowhere/a.ts', edits: [{ old_string: 'x', new_string: 'y' }] }, { store: new MemoryStore() }));
      assert.equal(envelope.context, undefined);
    });
  });

  describe('the CLI option', () => {
    it('parses --inside-indentation and refuses an unknown policy', () => {
      assert.deepEqual(parseArgs(['apply', '--inside-indentation', 'refuse', 'r.json']), { kind: 'apply', dryRun: false, format: 'json', source: 'r.json', syntaxCheck: 'refuse', allowProtected: [], noHistory: false, insideIndentation: 'refuse' });
      assert.deepEqual(parseArgs(['apply', '--inside-indentation=refuseMultiline', 'r.json']), { kind: 'apply', dryRun: false, format: 'json', source: 'r.json', syntaxCheck: 'refuse', allowProtected: [], noHistory: false, insideIndentation: 'refuseMultiline' });
      assert.equal(parseArgs(['apply', '--inside-indentation', 'sometimes', 'r.json']).kind, 'usage_error');
    });
  });
});
