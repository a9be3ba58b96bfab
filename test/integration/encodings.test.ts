// Files in other encodings through the language-model tools in a real extension host: a
// Latin-1 file under files.encoding, closed and open in an editor, one named by the
// request, and a UTF-16 file; every byte outside the edit is written back as it was read,
// and a character the encoding cannot hold is refused with nothing changed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT } from '../../src/core/contract/toolNames';
import { closeAllEditors, expectError, expectSuccess, invokeTool, openInEditor, setUserSettings, toolSuiteFixture, writeScratchFile } from './helpers';

/** ISO-8859-1 bytes of a text of Latin-1 characters: one byte each, the character's code. */
const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

/** UTF-16LE with its byte order mark. */
const utf16le = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

const LATIN1_TEXT = '# caf\u00e9\r\ncaf\u00e9 = 1\r\nprint(caf\u00e9)\r\n';

suite('files in other encodings', function () {
  // The first suite of a run pays for the extension host's start; on a busy machine that is more than the default.
  this.timeout(120_000);
  const fixture = toolSuiteFixture('encodings');
  teardown(() => closeAllEditors());

  async function underLatin1<T>(body: () => Promise<T>): Promise<T> {
    const restore = await setUserSettings('files', { encoding: 'iso88591' });
    try {
      return await body();
    } finally {
      await restore();
    }
  }

  test('a closed Latin-1 file under files.encoding: only the edited bytes change', () => underLatin1(async () => {
    const file = writeScratchFile(fixture.dir, 'closed.py', latin1(LATIN1_TEXT));
    expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'caf\u00e9 = 1', new_string: 'caf\u00e9 = "cr\u00e8me"\n# d\u00e9j\u00e0' }] }));
    assert.deepEqual(fs.readFileSync(file), latin1('# caf\u00e9\r\ncaf\u00e9 = "cr\u00e8me"\r\n# d\u00e9j\u00e0\r\nprint(caf\u00e9)\r\n'));
  }));

  test('a Latin-1 file open in an editor is edited as VS Code decoded it; a character Latin-1 lacks is refused', () => underLatin1(async () => {
    const file = writeScratchFile(fixture.dir, 'open.py', latin1(LATIN1_TEXT));
    const editor = await openInEditor(file);
    assert.equal(editor.document.encoding, 'iso88591');
    const refused = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'print(caf\u00e9)', new_string: 'print("\u2603")' }] }), 'UNREPRESENTABLE_CHARACTER');
    assert.equal(refused.context?.unrepresentable?.code_point, 'U+2603');
    assert.deepEqual([refused.context?.unrepresentable?.line, refused.context?.unrepresentable?.column], [3, 8]);
    assert.equal(editor.document.getText(), LATIN1_TEXT.replace(/\r\n/g, editor.document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n'));
    assert.ok(!editor.document.isDirty);

    expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'caf\u00e9 = 1', new_string: 'caf\u00e9 = 2' }] }));
    assert.ok(!editor.document.isDirty, 'saved after the edit');
    assert.deepEqual(fs.readFileSync(file), latin1(LATIN1_TEXT.replace('caf\u00e9 = 1', 'caf\u00e9 = 2')));
  }));

  test('a closed Latin-1 file named by the request\'s encoding, with no setting', async () => {
    const file = writeScratchFile(fixture.dir, 'named.py', latin1(LATIN1_TEXT));
    const refused = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'caf\u00e9 = 1', new_string: 'caf\u00e9 = 2' }] }), 'INVALID_ENCODING');
    assert.match(refused.message, /text, but not UTF-8, and no encoding was set/);
    assert.doesNotMatch(refused.message, /binary/);
    assert.deepEqual(fs.readFileSync(file), latin1(LATIN1_TEXT));

    expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, encoding: 'iso-8859-1', edits: [{ old_string: 'caf\u00e9 = 1', new_string: 'caf\u00e9 = 2' }] }));
    assert.deepEqual(fs.readFileSync(file), latin1(LATIN1_TEXT.replace('caf\u00e9 = 1', 'caf\u00e9 = 2')));
  });

  test('a closed Latin-1 file that reads as Latin-2 too: the refusal shows both readings, and a retry with the right one applies', async () => {
    // chardet rates this French text higher as Latin-2, where 0xEF is \u010f, not \u00ef.
    const text = 'caf\u00e9 = 1\nna\u00efve = 2\n' + Array.from({ length: 300 }, (_, line) => `ligne ${line} caf\u00e9\n`).join('');
    const file = writeScratchFile(fixture.dir, 'french.txt', latin1(text));
    const wanted = { old_string: 'na\u00efve = 2', new_string: 'na\u00efve = 3' };
    const refused = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [wanted] }), 'INVALID_ENCODING');
    assert.match(refused.message, /it looks like iso-8859-2 or iso-8859-1 text/);
    const hint = refused.recovery_hints.join('\n');
    assert.match(hint, /read line 2 apart: "na\u010fve = 2" in iso-8859-2, "na\u00efve = 2" in iso-8859-1/);
    assert.match(hint, /files\.encoding to "iso88592" or files\.encoding to "iso88591"/);
    const encoding = [...hint.matchAll(/"([^"]*)" in ([\w-]+)/g)].find(([, reading]) => reading === wanted.old_string)?.[2];
    assert.equal(encoding, 'iso-8859-1');
    expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, encoding, edits: [wanted] }));
    assert.deepEqual(fs.readFileSync(file), latin1(text.replace(wanted.old_string, wanted.new_string)));
  });

  test('a closed plain ASCII file named Latin-1 by the request gets the edit\'s new characters in Latin-1, not UTF-8', async () => {
    const file = writeScratchFile(fixture.dir, 'ascii.py', Buffer.from('name = "plain"\r\n', 'ascii'));
    expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, encoding: 'iso-8859-1', edits: [{ old_string: '"plain"', new_string: '"caf\u00e9"' }] }));
    assert.deepEqual(fs.readFileSync(file), latin1('name = "caf\u00e9"\r\n'));
    const unnamed = writeScratchFile(fixture.dir, 'ascii-unnamed.py', Buffer.from('name = "plain"\r\n', 'ascii'));
    expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: unnamed, edits: [{ old_string: '"plain"', new_string: '"caf\u00e9"' }] }));
    assert.equal(fs.readFileSync(unnamed, 'utf8'), 'name = "caf\u00e9"\r\n', 'with no encoding named, UTF-8');
  });

  test('a UTF-16LE file with its BOM keeps the BOM, the CRLFs and every byte outside the edit', async () => {
    const text = 'Write-Host "h\u00e9llo"\r\n$x = 1\r\nexit\r\n';
    const file = writeScratchFile(fixture.dir, 'script.ps1', utf16le(text));
    expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: '$x = 1', new_string: '$x = "\u20ac \u6f22 \u{1f600}"' }] }));
    assert.deepEqual(fs.readFileSync(file), utf16le(text.replace('$x = 1', '$x = "\u20ac \u6f22 \u{1f600}"')));
  });

  test('a file with NUL bytes and no UTF-16 BOM is binary', async () => {
    const file = writeScratchFile(fixture.dir, 'image.bin', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0d, 0x0a]));
    const refused = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'PNG', new_string: 'JPG' }] }), 'INVALID_ENCODING');
    assert.match(refused.message, /binary/);
  });
});
