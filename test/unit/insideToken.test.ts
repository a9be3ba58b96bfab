/**
 * A match that cuts a word or a number: refused when new_string does not continue the
 * token (the truncated old_string that wrote its tail twice), warned otherwise, and
 * never a concern when old_string starts and ends at token boundaries.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { InsideTokenPolicy } from '../../src/core/contract/limits';
import { failureOf, run, successOf } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';
import { parseArgs } from '../../src/node/cli/cliArgs';

const FILE = '/w/app.min.js';

async function edit(text: string, edits: unknown[], insideToken?: InsideTokenPolicy) {
  const store = new MemoryStore({ [FILE]: text });
  const response = await run('multi_edit', { file_path: FILE, edits }, { store, limits: insideToken ? { insideToken } : {} });
  return { response, text: store.text(FILE) };
}

const MINIFIED = 'var n={apiBase:"/api",features:{beta:!1},timeout:3000,retries:5};window.cfg=n;\n';

describe('a match inside a token', () => {
  it('refuses by default an old_string cut inside a number whose new_string ends otherwise, and writes nothing', async () => {
    const { response, text } = await edit(MINIFIED, [{ old_string: 'features:{beta:!1},timeout:30', new_string: 'features:{beta:!0},timeout:3000,retries:5}' }]);
    const envelope = failureOf(response);
    assert.equal(text, MINIFIED, 'no wrong bytes written');
    assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
    assert.equal(envelope.diagnosis?.kind, 'INSIDE_TOKEN');
    const cutColumn = MINIFIED.indexOf('00,retries') + 1;
    assert.ok(envelope.diagnosis?.detail.includes(`inside the number \`3000\` at line 1, column ${cutColumn}`), envelope.diagnosis?.detail);
    assert.match(envelope.diagnosis?.detail ?? '', /new_string already holds `00`/);
    assert.deepEqual([envelope.diagnosis?.line, envelope.diagnosis?.column], [1, cutColumn]);
    assert.equal(envelope.context?.closest_line, 1);
    const near = envelope.diagnosis?.near_match;
    assert.deepEqual(near && [near.start_line, near.start_column, near.end_line, near.end_column], [1, MINIFIED.indexOf('features') + 1, 1, MINIFIED.length]);
    assert.ok(envelope.recovery_hints.some((hint) => hint.includes('replace_all')));
  });

  it('refuses an old_string cut inside an identifier when new_string already holds the identifier\'s rest', async () => {
    const text = '    val retryDelayMs = 100L\n';
    const envelope = failureOf((await edit(text, [{ old_string: '    val retryDel', new_string: '    val retryDelayMs = 250L' }])).response);
    assert.match(envelope.diagnosis?.detail ?? '', /ends inside the word `retryDelayMs`/);
  });

  it('applies it with a MATCH_INSIDE_TOKEN warning under warn', async () => {
    const { response, text } = await edit(MINIFIED, [{ old_string: 'timeout:30', new_string: 'timeout:50' }], 'warn');
    const success = successOf(response);
    assert.equal(text, MINIFIED.replace('timeout:3000', 'timeout:5000'));
    assert.deepEqual(success.warnings?.map((warning) => warning.code), ['MATCH_INSIDE_TOKEN']);
  });

  it('renames part of a word on purpose: warned under the default, refused under refuse unless replace_all or a longer old_string', async () => {
    const text = 'const fooBar = fooBar + 1;\n';
    const warned = successOf((await edit(text, [{ old_string: 'const foo', new_string: 'const baz' }])).response);
    assert.deepEqual(warned.warnings?.map((warning) => warning.code), ['MATCH_INSIDE_TOKEN']);
    failureOf((await edit(text, [{ old_string: 'const foo', new_string: 'const baz' }], 'refuse')).response);
    const all = await edit(text, [{ old_string: 'foo', new_string: 'baz', replace_all: true }], 'refuse');
    successOf(all.response);
    assert.equal(all.text, 'const bazBar = bazBar + 1;\n');
    const longer = await edit(text, [{ old_string: 'const fooBar', new_string: 'const bazBar' }], 'refuse');
    assert.equal(successOf(longer.response).warnings, undefined);
  });

  it('checks the start of old_string too', async () => {
    const envelope = failureOf((await edit('let total = subtotal + tax;\n', [{ old_string: 'total + tax', new_string: '(amount) + tax' }])).response);
    assert.match(envelope.diagnosis?.detail ?? '', /starts inside the word `subtotal`/);
  });

  // Property: an edit whose old_string starts and ends at token boundaries is never refused
  // for cutting a token, whatever new_string is and whatever the policy.
  it('never refuses an edit whose boundaries are token boundaries (property)', async () => {
    const token = fc.stringMatching(/^[A-Za-z0-9_]{1,6}$/);
    const separator = fc.constantFrom(' ', '.', '(', ')', ',', '\n', '  ', ': ', '=', '"');
    await fc.assert(fc.asyncProperty(
      fc.array(fc.tuple(token, separator), { minLength: 2, maxLength: 12 }),
      fc.nat(), fc.nat(), fc.string({ maxLength: 8 }), fc.constantFrom<InsideTokenPolicy>('refuse', 'refuseSuspicious'),
      async (parts, from, span, newString, policy) => {
        const text = parts.map(([word, sep]) => word + sep).join('');
        // old_string: whole tokens from one token's start to another token's end.
        const starts: number[] = [];
        let offset = 0;
        for (const [word, sep] of parts) {
          starts.push(offset);
          offset += word.length + sep.length;
        }
        const first = from % parts.length;
        const last = first + (span % (parts.length - first));
        const oldString = text.slice(starts[first], starts[last] + parts[last][0].length);
        fc.pre(oldString !== newString && text.indexOf(oldString) === text.lastIndexOf(oldString));
        const { response } = await edit(text, [{ old_string: oldString, new_string: newString }], policy);
        const refusedForToken = !response.success && response.diagnosis?.kind === 'INSIDE_TOKEN';
        const warnedForToken = response.success && (response.warnings ?? []).some((warning) => warning.code === 'MATCH_INSIDE_TOKEN');
        assert.ok(!refusedForToken && !warnedForToken, JSON.stringify({ text, oldString, newString }));
      },
    ), { numRuns: 300 });
  });

  // Property: renaming the head of an identifier to another identifier that does not hold the
  // identifier's rest is a plausible edit, and the default never refuses it.
  it('never refuses under the default a rename of a word\'s head to another word without its rest (property)', async () => {
    const word = fc.stringMatching(/^[a-z]{2,6}$/);
    await fc.assert(fc.asyncProperty(word, fc.stringMatching(/^[A-Z][a-z]{1,5}$/), word, async (head, rest, renamed) => {
      fc.pre(head !== renamed && !renamed.includes(rest));
      const text = `let ${head}${rest} = 1;\n`;
      const { response } = await edit(text, [{ old_string: `let ${head}`, new_string: `let ${renamed}` }]);
      assert.equal(response.success, true, JSON.stringify({ text, renamed }));
    }), { numRuns: 200 });
  });
});

describe('the insideToken option of the CLI and the MCP server', () => {
  it('parses --inside-token for apply and mcp, and refuses an unknown policy', () => {
    assert.deepEqual(parseArgs(['apply', '--inside-token', 'warn', 'r.json']), { kind: 'apply', dryRun: false, format: 'json', source: 'r.json', syntaxCheck: 'refuse', allowProtected: [], noHistory: false, insideToken: 'warn' });
    assert.deepEqual(parseArgs(['apply', '--inside-token=refuse', 'r.json']), { kind: 'apply', dryRun: false, format: 'json', source: 'r.json', syntaxCheck: 'refuse', allowProtected: [], noHistory: false, insideToken: 'refuse' });
    assert.deepEqual(parseArgs(['mcp', '--root', '/w', '--inside-token', 'refuseSuspicious']), { kind: 'mcp', roots: ['/w'], syntaxCheck: 'refuse', allowProtected: [], noHistory: false, insideToken: 'refuseSuspicious' });
    assert.equal(parseArgs(['apply', '--inside-token', 'sometimes', 'r.json']).kind, 'usage_error');
    assert.equal(parseArgs(['mcp', '--inside-token']).kind, 'usage_error');
  });
});
