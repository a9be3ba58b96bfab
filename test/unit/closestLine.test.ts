/**
 * context.closest_line is always a line of the file, inside the snippet, and the line the
 * diagnosis talks about: for an old_string with one changed line, that line.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { failureOf, run } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';

const FILE = '/w/src/file.ts';

async function closestOf(text: string, oldString: string) {
  const store = new MemoryStore({ [FILE]: text });
  const envelope = failureOf(await run('multi_edit', { file_path: FILE, edits: [{ old_string: oldString, new_string: 'replaced' }] }, { store }));
  return envelope;
}

const word = fc.stringMatching(/^[a-z]{3,8}$/);
/** A line of code-like text: a few distinct words. */
const line = fc.array(word, { minLength: 2, maxLength: 5 }).map((words) => `  const ${words.join('_')} = ${words.length};`);

describe('context.closest_line', () => {
  it('is the changed line of an old_string with one changed line, inside the snippet and the file (property)', async () => {
    await fc.assert(fc.asyncProperty(
      fc.uniqueArray(line, { minLength: 3, maxLength: 40 }), fc.nat(), fc.integer({ min: 1, max: 4 }), fc.nat(), fc.boolean(),
      async (lines, startSeed, blockSize, changedSeed, finalNewline) => {
        const size = Math.min(blockSize, lines.length);
        const start = startSeed % (lines.length - size + 1);
        const changed = changedSeed % size;
        const text = lines.join('\n') + (finalNewline ? '\n' : '');
        const block = lines.slice(start, start + size);
        block[changed] = block[changed].replace(' = ', ' = 1 + ');
        const oldString = block.join('\n');
        fc.pre(!text.includes(oldString));
        const envelope = await closestOf(text, oldString);
        const context = envelope.context;
        const closest = context?.closest_line;
        assert.ok(closest !== undefined && context?.start_line !== undefined && context.snippet !== undefined, JSON.stringify(envelope));
        const snippetLines = context.snippet.split('\n').length;
        assert.ok(closest >= context.start_line && closest < context.start_line + snippetLines, `closest_line ${closest} outside the snippet from ${context.start_line}`);
        assert.ok(closest <= lines.length, `closest_line ${closest} past the file's ${lines.length} lines`);
        assert.equal(closest, start + changed + 1, JSON.stringify({ oldString, diagnosis: envelope.diagnosis }));
        if (envelope.diagnosis?.line !== undefined) {
          assert.equal(envelope.diagnosis.line, closest, 'closest_line is the line the diagnosis names');
        }
      },
    ), { numRuns: 300 });
  });

  it('never points past the last line of a file that ends with a newline', async () => {
    const text = 'alpha = 1\nbeta = 2\ngamma = 3\n';
    const envelope = await closestOf(text, 'gamma = 3\ndelta = 4');
    assert.ok((envelope.context?.closest_line ?? 0) <= 3, JSON.stringify(envelope.context));
  });
});
