/**
 * Properties of the engine, checked on generated requests (fast-check):
 * it never throws; every response parses; a failure changes no byte of any file;
 * a success equals applying the edits one at a time with plain string operations;
 * and the piece path gives exactly what the plain path gives.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { runRequest } from '../../src/core/engine/engine';
import type { ErrorCode } from '../../src/core/contract/errorCodes';
import { checkEdits, type EditToCheck } from '../../src/core/matching/match';
import { occurrencesOfAll } from '../../src/core/matching/multiSearch';
import { comparableOutcome } from './helpers/matchOutcome';
import { assertValidResponse, recordingSleep } from './helpers/engineRun';
import { AtomicMemoryStore, MemoryStore } from './helpers/memoryStore';

interface Edit { old_string: string; new_string: string; replace_all?: boolean }

// ---- the reference: one edit at a time, with split/join, indexOf and slice ----

function dominantEol(text: string): string {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

function inEol(value: string, eol: string): string {
  return value.split('\r\n').join('\n').split('\n').join(eol);
}

/** The text after one edit, or undefined when the edit cannot apply. */
function applyOne(text: string, oldString: string, newString: string, replaceAll: boolean): string | undefined {
  const first = text.indexOf(oldString);
  if (oldString === '' || oldString === newString || first === -1) {
    return undefined;
  }
  if (replaceAll) {
    return text.split(oldString).join(newString);
  }
  if (text.indexOf(oldString, first + 1) !== -1) {
    return undefined;
  }
  return text.slice(0, first) + newString + text.slice(first + oldString.length);
}

// The reference replaces text as plain sequential replacement does, so these runs take the
// insideIndentation and insideToken policies that never refuse an exact match ('warn'); the
// defaults' refusals are tested in engine.recovery.test.ts and insideToken.test.ts.
const PLAIN_REPLACEMENT = { insideIndentation: 'warn', insideToken: 'warn' } as const;

/** The text after every edit, or undefined when any edit fails. */
function referenceApply(text: string, edits: readonly Edit[]): string | undefined {
  const eol = dominantEol(text);
  const seen = new Set<string>();
  let current = text;
  for (const edit of edits) {
    const oldString = inEol(edit.old_string, eol);
    if (seen.has(oldString)) {
      return undefined;
    }
    seen.add(oldString);
    // old_string in the file's endings; when that does not occur but the bytes as sent do, as sent.
    const asSent = oldString !== edit.old_string && !current.includes(oldString) && current.includes(edit.old_string);
    const next = asSent
      ? applyOne(current, edit.old_string, edit.new_string, edit.replace_all ?? false)
      : applyOne(current, oldString, inEol(edit.new_string, eol), edit.replace_all ?? false);
    if (next === undefined) {
      return undefined;
    }
    current = next;
  }
  return current;
}

// ---- generators ----

const join = (parts: string[]) => parts.join('');
const smallAlphabet = fc.constantFrom('a', 'b', 'c', ' ', '\n', '$', '&', 'é');
const smallString = (maxLength: number) => fc.array(smallAlphabet, { maxLength }).map(join);
const words = fc.constantFrom('alpha ', 'beta\n', 'gamma(', ') ', 'delta;\n', '$&', '  ', 'epsilon');
const wordyString = (maxLength: number, minLength = 0) => fc.array(words, { minLength, maxLength }).map(join);

interface EditSpec { at: number; length: number; unique: boolean; replacement: string; replaceAll: boolean; invented: string | null }

/** `mostlyValid`: old_strings grown to occur once, none invented, so most requests apply. */
const editSpec = (replacement: fc.Arbitrary<string>, maxLength: number, mostlyValid = false): fc.Arbitrary<EditSpec> => fc.record({
  at: fc.nat(),
  length: fc.integer({ min: 0, max: maxLength }),
  unique: mostlyValid ? fc.constant(true) : fc.boolean(),
  replacement,
  replaceAll: mostlyValid ? fc.constant(false) : fc.boolean(),
  invented: mostlyValid ? fc.constant(null) : fc.option(replacement, { freq: 5 }),
});

/**
 * Edits whose old_strings are mostly cut from the text as the earlier edits leave
 * it, so they match (often across earlier replacements), some grown until they
 * occur once; a few are invented.
 */
function editsFrom(text: string, specs: readonly EditSpec[]): Edit[] {
  let current = text;
  return specs.map((spec) => {
    const at = spec.at % (current.length + 1);
    let end = Math.min(current.length, at + spec.length);
    while (spec.unique && end < current.length && (end === at || current.indexOf(current.slice(at, end), at + 1) !== -1 || current.indexOf(current.slice(at, end)) !== at)) {
      end++;
    }
    const oldString = spec.invented ?? current.slice(at, end);
    const next = applyOne(current, oldString, spec.replacement, spec.replaceAll);
    if (next !== undefined) {
      current = next;
    }
    return { old_string: oldString, new_string: spec.replacement, ...(spec.replaceAll ? { replace_all: true } : {}) };
  });
}

const withCrlf = (text: string, crlf: boolean) => (crlf ? text.split('\n').join('\r\n') : text);

const fileCase = (mostlyValid: boolean) => fc.record({
  text: smallString(120),
  crlf: fc.boolean(),
  specs: fc.array(editSpec(smallString(6), 8, mostlyValid), { minLength: 1, maxLength: mostlyValid ? 3 : 6 }),
}).map(({ text, crlf, specs }) => {
  const fileText = withCrlf(text, crlf);
  return { text: fileText, edits: editsFrom(fileText, specs) };
});
const singleFileCase = fileCase(false);

const FILE = '/p/file.txt';
const quick = { numRuns: 300 };

describe('properties', () => {
  it('never throws, and every response parses, whatever the input', async () => {
    await fc.assert(fc.asyncProperty(
      fc.constantFrom('multi_edit', 'multi_edit_files', 'other_tool'),
      fc.oneof(
        fc.anything(),
        fc.record({ file_path: fc.constantFrom(FILE, 'rel.txt', '/p/../x', '/p/none'), edits: fc.array(fc.anything(), { maxLength: 3 }) }),
        fc.record({ files: fc.array(fc.record({ file_path: fc.string(), edits: fc.anything() }), { maxLength: 3 }) }),
      ),
      async (tool, input) => {
        const store = new MemoryStore({ [FILE]: 'some text\n' });
        assertValidResponse((await runRequest(tool, input, { store, sleep: recordingSleep().sleep })).response);
      },
    ), quick);
  });

  it('a success equals applying the edits one at a time; a failure changes nothing', async () => {
    const seen = { applied: 0, failed: 0 };
    await fc.assert(fc.asyncProperty(fc.oneof(singleFileCase, fileCase(true)), fc.boolean(), async ({ text, edits }, dryRun) => {
      const store = new MemoryStore({ [FILE]: text });
      const response = (await runRequest('multi_edit', { file_path: FILE, edits, dry_run: dryRun }, { store, limits: PLAIN_REPLACEMENT })).response;
      assertValidResponse(response);
      const expected = referenceApply(text, edits);
      assert.equal(response.success, expected !== undefined, JSON.stringify({ text, edits, response }));
      const written = store.text(FILE);
      assert.equal(written, response.success && !dryRun ? expected : text);
      seen[response.success ? 'applied' : 'failed']++;
    }), { numRuns: 1000 });
    assert.ok(seen.applied > 100 && seen.failed > 100, JSON.stringify(seen));
  });

  it('a failure in any file, or in any write, leaves every byte of every file unchanged', async () => {
    const faultCodes: ErrorCode[] = ['DISK_FULL', 'WRITE_FAILED', 'PERMISSION_DENIED', 'FILE_BUSY', 'STALE_CONTENT'];
    const seen = { applied: 0, planFailed: 0, commitFailed: 0 };
    await fc.assert(fc.asyncProperty(
      fc.array(fc.oneof(fileCase(true), fileCase(true), singleFileCase), { minLength: 1, maxLength: 3 }),
      fc.option(fc.record({ nth: fc.integer({ min: 1, max: 3 }), code: fc.constantFrom(...faultCodes) }), { freq: 3 }),
      fc.boolean(),
      async (cases, writeFault, atomic) => {
        const seeds = Object.fromEntries(cases.map(({ text }, index) => [`/p/f${index}.txt`, text]));
        const store = atomic ? new AtomicMemoryStore(seeds) : new MemoryStore(seeds);
        if (writeFault && atomic) {
          store.failOn('commit', '*', { code: writeFault.code });
        } else if (writeFault) {
          store.failNthWrite(writeFault.nth, { code: writeFault.code });
        }
        const request = { files: cases.map(({ edits }, index) => ({ file_path: `/p/f${index}.txt`, edits })) };
        const response = (await runRequest('multi_edit_files', request, { store, sleep: recordingSleep().sleep, retry: { maxAttempts: 1 }, limits: PLAIN_REPLACEMENT })).response;
        assertValidResponse(response);
        const expected = cases.map(({ text, edits }) => referenceApply(text, edits));
        const planned = expected.every((text) => text !== undefined);
        if (!response.success) {
          seen[planned ? 'commitFailed' : 'planFailed']++;
          assert.deepEqual(store.snapshot(), new MemoryStore(seeds).snapshot());
          return;
        }
        seen.applied++;
        assert.ok(planned);
        cases.forEach((_, index) => assert.equal(store.text(`/p/f${index}.txt`), expected[index]));
      },
    ), { numRuns: 600 });
    assert.ok(seen.applied > 20 && seen.planFailed > 20 && seen.commitFailed > 20, JSON.stringify(seen));
  });

  it('the piece path gives exactly what the plain path gives', async () => {
    const largeCase = fc.record({
      text: wordyString(160, 40),
      specs: fc.array(editSpec(wordyString(3), 40), { minLength: 1, maxLength: 14 }),
      maxLocations: fc.integer({ min: 1, max: 4 }),
    });
    let scanned = 0;
    await fc.assert(fc.asyncProperty(largeCase, async ({ text, specs, maxLocations }) => {
      const edits: EditToCheck[] = editsFrom(text, specs).map((edit) => ({
        oldString: edit.old_string, newString: edit.new_string, replaceAll: edit.replace_all ?? false,
      }));
      if (text.length >= 256 && new Set(edits.map((edit) => edit.oldString).filter((old) => old.length >= 8)).size >= 5) {
        scanned++;
      }
      const plain = await checkEdits(text, edits, { maxLocations, strategy: 'plain' });
      const pieces = await checkEdits(text, edits, { maxLocations, strategy: 'pieces' });
      assert.deepEqual(comparableOutcome(pieces), comparableOutcome(plain));
    }), { numRuns: 1500 });
    assert.ok(scanned > 200, `only ${scanned} cases took the scan`);
  });

  it('the multi-pattern search finds exactly what indexOf finds', () => {
    let scanned = 0;
    const cut = (minLength: number, maxLength: number) => fc.tuple(fc.nat(), fc.integer({ min: minLength, max: maxLength }));
    const cuts = fc.tuple(fc.array(cut(8, 30), { minLength: 3, maxLength: 10 }), fc.array(cut(1, 7), { maxLength: 3 })).map(([long, short]) => [...long, ...short]);
    fc.assert(fc.property(wordyString(200, 30), cuts, (text, cuts) => {
      const patterns = cuts.map(([at, length]) => text.slice(at % (text.length + 1), (at % (text.length + 1)) + length)).filter((pattern) => pattern !== '');
      const found = occurrencesOfAll(text, patterns);
      // The Wu-Manber scan runs for five or more patterns of eight characters or more in a text of 256 or more.
      if (text.length >= 256 && new Set(patterns.filter((pattern) => pattern.length >= 8)).size >= 5) {
        scanned++;
      }
      for (const pattern of patterns) {
        const expected: number[] = [];
        for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + 1)) {
          expected.push(at);
        }
        assert.deepEqual(Array.from(found.get(pattern) ?? []), expected, pattern);
      }
    }), { numRuns: 1000 });
    assert.ok(scanned > 200, `only ${scanned} cases took the scan`);
  });
});
