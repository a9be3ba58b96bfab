/**
 * Misses the benchmark's new classes showed: text arranged otherwise in the file, text in
 * another file, text the file holds JSON-encoded, a long line with one character off, and
 * paths that name a file the directory has under another spelling.
 */
import * as assert from 'node:assert/strict';
import { failureOf, run } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';

const FILE = '/w/src/app.ts';

async function envelopeFor(files: Record<string, string>, input: unknown, tool = 'multi_edit') {
  const store = new MemoryStore(files);
  store.addDirectory('/w/src');
  return failureOf(await run(tool, input, { store }));
}

const single = (oldString: string, newString = 'x') => ({ file_path: FILE, edits: [{ old_string: oldString, new_string: newString }] });

describe('diagnoses of arranged, misplaced and encoded text', () => {
  it('REORDERED_LINES: says which lines moved, with a line map', async () => {
    const text = 'a = 1\nb = 2\nc = 3\nd = 4\n';
    const envelope = await envelopeFor({ [FILE]: text }, single('c = 3\na = 1\nb = 2'));
    assert.equal(envelope.diagnosis?.kind, 'REORDERED_LINES');
    assert.deepEqual(envelope.diagnosis?.line_map, [{ old_string_line: 1, line: 3 }, { old_string_line: 2, line: 1 }, { old_string_line: 3, line: 2 }]);
  });

  it('SPLIT_HUNKS: names where each part of a glued old_string occurs', async () => {
    const lines = Array.from({ length: 12 }, (_unused, at) => `line number ${at + 1};`);
    const envelope = await envelopeFor({ [FILE]: `${lines.join('\n')}\n` }, single(`${lines[1]}\n${lines[9]}`));
    assert.equal(envelope.diagnosis?.kind, 'SPLIT_HUNKS');
    assert.deepEqual(envelope.diagnosis?.parts, [
      { first_old_string_line: 1, last_old_string_line: 1, line: 2 },
      { first_old_string_line: 2, last_old_string_line: 2, line: 10 },
    ]);
  });

  it('REWRAPPED_LINES: a chain the file splits over lines, sent joined', async () => {
    const text = 'const rows = query()\n  .where(a)\n  .orderBy(b)\n  .limit(20);\n';
    const envelope = await envelopeFor({ [FILE]: text }, single('const rows = query().where(a).orderBy(b).limit(20);'));
    assert.equal(envelope.diagnosis?.kind, 'REWRAPPED_LINES');
    assert.deepEqual([envelope.diagnosis?.near_match?.start_line, envelope.diagnosis?.near_match?.end_line], [1, 4]);
  });

  it('ESCAPED_TEXT the other way: text the file holds JSON-encoded, located', async () => {
    const text = '{ "source": ["print(f\\"rows: {n}\\")\\n"] }\n';
    const envelope = await envelopeFor({ [FILE]: text }, single('print(f"rows: {n}")'));
    assert.equal(envelope.diagnosis?.kind, 'ESCAPED_TEXT');
    assert.match(envelope.diagnosis?.detail ?? '', /JSON-encoded/);
    assert.equal(envelope.diagnosis?.line, 1);
    assert.equal(envelope.diagnosis?.column, text.indexOf('print') + 1);
  });

  it('a long line with one character off: the column of the difference and the characters', async () => {
    const long = `INSERT INTO t VALUES ${Array.from({ length: 40 }, (_unused, at) => `(${at}, 'name ${at}')`).join(', ')};`;
    const sent = long.replace("'name 30'", "'name 3O'");
    const envelope = await envelopeFor({ [FILE]: `${long}\n` }, single(sent));
    assert.equal(envelope.diagnosis?.kind, 'CONTENT_MISMATCH');
    const column = long.indexOf("'name 30'") + 8;
    assert.match(envelope.diagnosis?.detail ?? '', new RegExp(`at column ${column}: the file has "0" \\(U\\+0030\\) where old_string has "O" \\(U\\+004F\\)`));
    assert.equal(envelope.diagnosis?.column, column);
  });

  it('IN_OTHER_FILE: the text sent under one file of the request is in another', async () => {
    const other = '/w/src/other.ts';
    const envelope = await envelopeFor({ [FILE]: 'export const a = 1;\n', [other]: 'export const b = 2;\nexport const wanted = true;\n' }, {
      files: [
        { file_path: FILE, edits: [{ old_string: 'export const wanted = true;', new_string: 'export const wanted = false;' }] },
        { file_path: other, edits: [{ old_string: 'export const b = 2;', new_string: 'export const b = 3;' }] },
      ],
    }, 'multi_edit_files');
    assert.equal(envelope.diagnosis?.kind, 'IN_OTHER_FILE');
    assert.equal(envelope.diagnosis?.other_file, other);
    assert.equal(envelope.diagnosis?.line, 2);
  });

  it('IN_OTHER_FILE: a sibling file with the same extension holds the text', async () => {
    const sibling = '/w/src/card.ts';
    const envelope = await envelopeFor({ [FILE]: 'export const a = 1;\n', [sibling]: 'export const card = "lazy";\n' }, single('export const card = "lazy";'));
    assert.equal(envelope.diagnosis?.kind, 'IN_OTHER_FILE');
    assert.equal(envelope.diagnosis?.other_file, sibling);
  });
});

describe('paths the directory has under another spelling', () => {
  it('FILE_NOT_FOUND says "did you mean" the nearest name, not "list the directory"', async () => {
    const envelope = await envelopeFor({ '/w/src/retry.ts': 'x\n' }, { file_path: '/w/src/retyr.ts', edits: [{ old_string: 'x', new_string: 'y' }] });
    assert.equal(envelope.error_code, 'FILE_NOT_FOUND');
    assert.match(envelope.recovery_hints[0], /^Did you mean retry\.ts\?/);
    assert.ok(envelope.recovery_hints.every((hint) => !/list the directory/.test(hint)), JSON.stringify(envelope.recovery_hints));
  });

  it('a path written with backslashes names the existing file in context.existing_path', async () => {
    const envelope = await envelopeFor({ '/w/src/app.ts': 'x\n' }, { file_path: '/w\\src\\app.ts', edits: [{ old_string: 'x', new_string: 'y' }] });
    assert.equal(envelope.context?.existing_path, '/w/src/app.ts');
    assert.match(envelope.recovery_hints[0], /^Did you mean \/w\/src\/app\.ts\?/);
  });

  it('so does a Windows path with a drive letter', async () => {
    const envelope = await envelopeFor({ '/w/src/app.ts': 'x\n' }, { file_path: 'C:\\w\\src\\app.ts', edits: [{ old_string: 'x', new_string: 'y' }] });
    assert.equal(envelope.context?.existing_path, '/w/src/app.ts');
  });
});
