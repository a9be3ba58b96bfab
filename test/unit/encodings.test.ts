/**
 * Files in every text encoding, through the engine and the Node store on real files: the
 * edited spans change, and every other byte (BOM, CRLF, final newline, the text around
 * the edits) is written back as it was read. A character the encoding cannot hold is
 * refused before anything is written, and bytes that are not text in a known encoding
 * are refused with a message that tells binary from text.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import * as iconv from 'iconv-lite';
import { runRequest } from '../../src/core/engine/engine';
import type { EngineResponse, ErrorEnvelope } from '../../src/core/contract/schemas';
import { NodeFileStore } from '../../src/node/store/nodeFileStore';
import { useTempDir } from './helpers/tempDir';

interface EncodingFixture {
  /** The name a request passes; undefined when a BOM or valid UTF-8 decides. */
  readonly requestName?: string;
  /** iconv-lite's name for the bytes after the BOM. */
  readonly codec: string;
  readonly bom: readonly number[];
  /** Lines of text in the encoding's own script. */
  readonly lines: readonly string[];
  /** A replacement the encoding can hold. */
  readonly replacement: string;
  /** Characters of the encoding's script, for random texts. */
  readonly alphabet: string;
  /** A character the encoding cannot hold; none for the Unicode encodings. */
  readonly foreign?: string;
}

const FIXTURES: Readonly<Record<string, EncodingFixture>> = {
  'UTF-8': { codec: 'utf-8', bom: [], lines: ['café = 1', 'naïve = "déjà vu"', 'end'], replacement: 'crème = "brûlée €"', alphabet: 'aeé€ü漢😀' },
  'UTF-8 with BOM': { codec: 'utf-8', bom: [0xef, 0xbb, 0xbf], lines: ['café = 1', 'naïve = 2', 'end'], replacement: 'Ωmega = "😀"', alphabet: 'aeé€ü漢😀' },
  'UTF-16LE with BOM': { codec: 'utf-16le', bom: [0xff, 0xfe], lines: ['Write-Host "héllo"', '$x = 1', 'exit'], replacement: '$x = "€ 漢 😀"', alphabet: 'aeé€ü漢😀' },
  'UTF-16BE with BOM': { codec: 'utf-16be', bom: [0xfe, 0xff], lines: ['Write-Host "héllo"', '$x = 1', 'exit'], replacement: '$x = "€ 漢 😀"', alphabet: 'aeé€ü漢😀' },
  'Windows-1252': { requestName: 'windows-1252', codec: 'windows-1252', bom: [], lines: ['price = "12 €"', 'quote = “café”', 'end'], replacement: 'price = "13 € – naïve"', alphabet: 'aeé€“”–ü', foreign: '☃' },
  'ISO-8859-1': { requestName: 'iso-8859-1', codec: 'iso-8859-1', bom: [], lines: ['café = 1', 'naïve = "déjà"', 'end'], replacement: 'crème = "brûlée"', alphabet: 'aeéüßñ', foreign: '€' },
  Shift_JIS: { requestName: 'shift_jis', codec: 'shift_jis', bom: [], lines: ['名前 = "テスト"', '値 = 1', '終わり'], replacement: '値 = "日本語の文字列"', alphabet: 'aあいテスト日本語', foreign: '😀' },
  GBK: { requestName: 'gbk', codec: 'gbk', bom: [], lines: ['名字 = "测试"', '值 = 1', '结束'], replacement: '值 = "中文字符串"', alphabet: 'a中文测试字符', foreign: '😀' },
  'EUC-KR': { requestName: 'euc-kr', codec: 'euc-kr', bom: [], lines: ['이름 = "시험"', '값 = 1', '끝'], replacement: '값 = "한국어 문자열"', alphabet: 'a한국어시험값', foreign: '😀' },
  'KOI8-R': { requestName: 'koi8-r', codec: 'koi8-r', bom: [], lines: ['имя = "тест"', 'значение = 1', 'конец'], replacement: 'значение = "строка"', alphabet: 'aпривет', foreign: '€' },
};

const encode = (fixture: EncodingFixture, text: string): Buffer => iconv.encode(text, fixture.codec);
const fileBytes = (fixture: EncodingFixture, text: string): Buffer => Buffer.concat([Buffer.from(fixture.bom), encode(fixture, text)]);

const dir = useTempDir('encodings', { per: 'suite' });
let count = 0;

function writeFixture(bytes: Uint8Array): string {
  const file = path.join(dir(), `file-${count++}.txt`);
  fs.writeFileSync(file, bytes);
  return file;
}

async function edit(file: string, edits: readonly { old_string: string; new_string: string }[], encoding?: string, extra: object = {}): Promise<EngineResponse> {
  return (await runRequest('multi_edit', { file_path: file, edits, ...(encoding !== undefined ? { encoding } : {}), ...extra }, { store: new NodeFileStore() })).response;
}

function failure(response: EngineResponse): ErrorEnvelope {
  assert.equal(response.success, false, JSON.stringify(response));
  return response as ErrorEnvelope;
}

/**
 * The original bytes with the stretch that held `oldText` (after `before` in the text) replaced by
 * `newText`: what an edit of that stretch may write. Every other byte is taken from the file as it was.
 */
function splice(fixture: EncodingFixture, original: Buffer, before: string, oldText: string, newText: string): Buffer {
  const at = fixture.bom.length + encode(fixture, before).length;
  const oldBytes = encode(fixture, oldText);
  assert.deepEqual(original.subarray(at, at + oldBytes.length), oldBytes, 'the stretch holds old_string');
  return Buffer.concat([original.subarray(0, at), encode(fixture, newText), original.subarray(at + oldBytes.length)]);
}

describe('files in every text encoding (Node store)', () => {

  it('encodes the fixtures as their encodings do (known bytes)', () => {
    assert.deepEqual([...encode(FIXTURES['ISO-8859-1'], 'é')], [0xe9]);
    assert.deepEqual([...encode(FIXTURES['Windows-1252'], '€“')], [0x80, 0x93]);
    assert.deepEqual([...encode(FIXTURES.Shift_JIS, 'テ')], [0x83, 0x65]);
    assert.deepEqual([...encode(FIXTURES.GBK, '中')], [0xd6, 0xd0]);
    assert.deepEqual([...encode(FIXTURES['EUC-KR'], '한')], [0xc7, 0xd1]);
    assert.deepEqual([...encode(FIXTURES['KOI8-R'], 'П')], [0xf0]);
  });

  for (const [label, fixture] of Object.entries(FIXTURES)) {
    describe(label, () => {
      it('changes only the edited span: BOM, CRLF, final newline and every other byte stay as read', async () => {
        const text = `${fixture.lines.join('\r\n')}\r\n`;
        const original = fileBytes(fixture, text);
        const file = writeFixture(original);
        // new_string comes with LF: the engine writes it with the file's CRLF.
        const newString = `${fixture.replacement}\n${fixture.lines[1]}`;
        const response = await edit(file, [{ old_string: fixture.lines[1], new_string: newString }], fixture.requestName);
        assert.equal(response.success, true, JSON.stringify(response));
        const expected = splice(fixture, original, `${fixture.lines[0]}\r\n`, fixture.lines[1], newString.replace('\n', '\r\n'));
        assert.deepEqual(fs.readFileSync(file), expected);
        assert.ok(fs.readFileSync(file).subarray(0, fixture.bom.length).equals(Buffer.from(fixture.bom)));
      });

      it('shows diffs and near misses in the decoded text, with lines in it', async () => {
        const text = `${fixture.lines.join('\r\n')}\r\n`;
        const file = writeFixture(fileBytes(fixture, text));
        const dry = await edit(file, [{ old_string: fixture.lines[2], new_string: fixture.replacement }], fixture.requestName, { dry_run: true });
        assert.equal(dry.success, true, JSON.stringify(dry));
        const diff = dry.files[0].diff ?? '';
        assert.ok(diff.includes(`-${fixture.lines[2]}`) && diff.includes(`+${fixture.replacement}`), diff);
        const missed = failure(await edit(file, [{ old_string: `${fixture.lines[1]}!`, new_string: fixture.replacement }], fixture.requestName));
        assert.equal(missed.error_code, 'MATCH_NOT_FOUND');
        assert.ok(missed.context?.snippet?.includes(fixture.lines[1]), JSON.stringify(missed.context));
        assert.equal(missed.context?.start_line, 1);
      });

      if (fixture.foreign !== undefined) {
        const foreign = fixture.foreign;
        it(`refuses ${foreign}, which it cannot hold, and writes nothing`, async () => {
          const text = `${fixture.lines.join('\r\n')}\r\n`;
          const original = fileBytes(fixture, text);
          const file = writeFixture(original);
          const envelope = failure(await edit(file, [
            { old_string: fixture.lines[0], new_string: fixture.replacement },
            { old_string: fixture.lines[2], new_string: `${fixture.lines[2]} ${foreign}` },
          ], fixture.requestName));
          assert.equal(envelope.error_code, 'UNREPRESENTABLE_CHARACTER');
          assert.equal(envelope.edit_index, 1);
          const where = envelope.context?.unrepresentable;
          assert.equal(where?.character, foreign);
          assert.equal(where?.code_point, `U+${(foreign.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
          assert.deepEqual([where?.line, where?.column], [3, fixture.lines[2].length + 2]);
          assert.deepEqual([where?.new_string_line, where?.new_string_column], [1, fixture.lines[2].length + 2]);
          assert.match(envelope.message, new RegExp(`Edit 2 of 2 .*line 3, column ${fixture.lines[2].length + 2}`));
          assert.deepEqual(envelope.edit_status.map((status) => [status.edit_index, status.error_code]), [[1, 'UNREPRESENTABLE_CHARACTER']]);
          assert.deepEqual(fs.readFileSync(file), original);
        });

        it('refuses the file as text in an unnamed encoding when the request names none, and writes nothing', async () => {
          const original = fileBytes(fixture, `${fixture.lines.join('\r\n')}\r\n`);
          const file = writeFixture(original);
          const envelope = failure(await edit(file, [{ old_string: fixture.lines[1], new_string: fixture.replacement }]));
          assert.equal(envelope.error_code, 'INVALID_ENCODING');
          assert.match(envelope.message, /is text, but not UTF-8, and no encoding was named/);
          assert.doesNotMatch(envelope.message, /binary/);
          assert.match(envelope.recovery_hints[0], /"encoding": "/);
          assert.deepEqual(fs.readFileSync(file), original);
        });
      }

      it('round-trips random edits of random text (property)', async () => {
        const word = fc.array(fc.constantFrom(...fixture.alphabet), { minLength: 1, maxLength: 6 }).map((chars) => chars.join(''));
        const eol = fc.constantFrom('\n', '\r\n');
        await fc.assert(fc.asyncProperty(
          fc.array(word, { minLength: 2, maxLength: 12 }), eol, fc.boolean(), fc.nat(), word,
          async (words, newline, finalNewline, pick, replacement) => {
            // Numbered lines occur once each ("L1:" is in no other line), so any one of them is a unique old_string.
            const lines = words.map((text, index) => `L${index}:${text}`);
            const text = lines.join(newline) + (finalNewline ? newline : '');
            const original = fileBytes(fixture, text);
            const file = writeFixture(original);
            const index = pick % lines.length;
            const target = lines[index];
            const newString = `L${index}:${replacement}`;
            if (newString === target) {
              return;
            }
            const response = await edit(file, [{ old_string: target, new_string: newString }], fixture.requestName);
            assert.equal(response.success, true, JSON.stringify(response));
            const before = lines.slice(0, index).map((line) => `${line}${newline}`).join('');
            assert.deepEqual(fs.readFileSync(file), splice(fixture, original, before, target, newString));
            fs.rmSync(file);
          },
        ), { numRuns: 12 });
      });
    });
  }

  describe('plain ASCII files', () => {
    const ascii = 'name = "plain"\r\nvalue = 1\r\n';
    for (const [encoding, added, bytes] of [
      ['iso-8859-1', 'é', [0xe9]],
      ['windows-1252', '€', [0x80]],
      ['shift_jis', 'テ', [0x83, 0x65]],
      ['koi8-r', 'П', [0xf0]],
    ] as const) {
      it(`are written in the encoding the request names (${encoding}): ${added} becomes ${bytes.map((byte) => byte.toString(16)).join(' ')}`, async () => {
        const file = writeFixture(Buffer.from(ascii, 'ascii'));
        const response = await edit(file, [{ old_string: '"plain"', new_string: `"${added}"` }], encoding);
        assert.equal(response.success, true, JSON.stringify(response));
        assert.deepEqual(fs.readFileSync(file), Buffer.concat([Buffer.from('name = "', 'ascii'), Buffer.from(bytes), Buffer.from('"\r\nvalue = 1\r\n', 'ascii')]));
      });
    }

    for (const encoding of [undefined, 'utf-8', 'utf-16le'] as const) {
      it(`stay UTF-8 when the request names ${encoding ?? 'no encoding'}`, async () => {
        const file = writeFixture(Buffer.from(ascii, 'ascii'));
        const response = await edit(file, [{ old_string: '"plain"', new_string: '"é"' }], encoding);
        assert.equal(response.success, true, JSON.stringify(response));
        assert.equal(fs.readFileSync(file, 'utf8'), 'name = "é"\r\nvalue = 1\r\n');
      });
    }
  });

  describe('refusals', () => {
    it('calls a file with NUL bytes and no UTF-16 BOM binary, even with an encoding named', async () => {
      const file = writeFixture(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
      const envelope = failure(await edit(file, [{ old_string: 'PNG', new_string: 'JPG' }], 'iso-8859-1'));
      assert.equal(envelope.error_code, 'INVALID_ENCODING');
      assert.match(envelope.message, /NUL bytes .* so it is binary/);
    });

    it('calls a file with control bytes binary', async () => {
      const file = writeFixture(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x01, 0x02, 0x03]));
      const envelope = failure(await edit(file, [{ old_string: 'caf', new_string: 'tea' }]));
      assert.match(envelope.message, /control byte 0x01 at offset 4, so it is binary/);
    });

    it('names the likely encoding of Shift_JIS text sent without one', async () => {
      const file = writeFixture(iconv.encode('日本語のテキストです。\nこれはテストです。\n', 'shift_jis'));
      const envelope = failure(await edit(file, [{ old_string: 'テスト', new_string: '試験' }]));
      assert.match(envelope.message, /it looks like shift_jis text/);
      assert.match(envelope.recovery_hints[0], /"encoding": "shift_jis"/);
    });

    it('names each likely encoding that reads the text differently, and where, so one retry with the right one applies', async () => {
      // chardet rates this French Latin-1 text higher as Latin-2, where 0xEF is ď, not ï.
      const text = 'café = 1\nnaïve = 2\n' + Array.from({ length: 300 }, (_, line) => `ligne ${line} café\n`).join('');
      const file = writeFixture(iconv.encode(text, 'latin1'));
      const wanted = { old_string: 'naïve = 2', new_string: 'naïve = 2 # über' };
      const envelope = failure(await edit(file, [wanted]));
      assert.equal(envelope.error_code, 'INVALID_ENCODING');
      assert.match(envelope.message, /it looks like iso-8859-2 or iso-8859-1 text/);
      const hint = envelope.recovery_hints[0];
      assert.match(hint, /read line 2 apart: "naďve = 2" in iso-8859-2, "naïve = 2" in iso-8859-1/);
      // An agent takes the encoding whose reading holds its old_string.
      const [, right] = [...hint.matchAll(/"([^"]*)" in ([\w-]+)/g)].find(([, reading]) => reading.includes(wanted.old_string)) ?? [];
      assert.equal(right, 'naïve = 2');
      const encoding = [...hint.matchAll(/"([^"]*)" in ([\w-]+)/g)].find(([, reading]) => reading === right)?.[2];
      const response = await edit(file, [wanted], encoding);
      assert.equal(response.success, true, JSON.stringify(response));
      assert.deepEqual(fs.readFileSync(file), iconv.encode(text.replace('naïve = 2', 'naïve = 2 # über'), 'latin1'));
    });

    it('guesses a large file\'s encoding from its lines above ASCII, wherever they are', async () => {
      // About 2.7 MB of ASCII, then the only Latin-1 lines: a guess from the file's head would see ASCII alone.
      const ascii = Array.from({ length: 60_000 }, (_, line) => `line ${line} of plain text, nothing to see here\n`).join('');
      const text = ascii + Array.from({ length: 50 }, () => 'naïve café, déjà vu, à la carte\n').join('');
      const file = writeFixture(iconv.encode(text, 'latin1'));
      assert.ok(text.length > 2 * 1024 * 1024);
      const envelope = failure(await edit(file, [{ old_string: 'line 1 of', new_string: 'line one of' }]));
      assert.match(envelope.message, /it looks like ([\w-]+ or )*iso-8859-1( or [\w-]+)* text/);
    });

    it('names one encoding when the likely ones read the text alike', async () => {
      // é is 0xE9 in both Latin-1 and Latin-2: the guesses do not part, so only the best is named.
      const file = writeFixture(iconv.encode('café = 1\n' + Array.from({ length: 300 }, (_, line) => `ligne ${line} café\n`).join(''), 'latin1'));
      const envelope = failure(await edit(file, [{ old_string: 'café = 1', new_string: 'thé = 1' }]));
      assert.match(envelope.message, /it looks like [\w-]+ text$/);
      assert.doesNotMatch(envelope.recovery_hints[0], / or |apart/);
    });

    it('refuses a named encoding that does not give the bytes back, naming the byte', async () => {
      // 0x81 has no character in Windows-1252.
      const file = writeFixture(Buffer.from([0x61, 0x62, 0xe9, 0x81, 0x0a]));
      const envelope = failure(await edit(file, [{ old_string: 'ab', new_string: 'cd' }], 'windows-1252'));
      assert.equal(envelope.error_code, 'INVALID_ENCODING');
      assert.match(envelope.message, /not windows-1252 text: byte 0x81 at offset 3/);
    });

    it('refuses an encoding it does not know, and one that keeps state between characters', async () => {
      const file = writeFixture(Buffer.from('caf\xe9\n', 'latin1'));
      assert.match(failure(await edit(file, [{ old_string: 'caf', new_string: 'tea' }], 'klingon-8')).message, /"klingon-8" is not an encoding/);
      assert.match(failure(await edit(file, [{ old_string: 'caf', new_string: 'tea' }], 'utf-7')).message, /keeps state between characters/);
    });

    it('reads valid UTF-8 as UTF-8 whatever encoding is named', async () => {
      const original = Buffer.from('café = 1\n', 'utf8');
      const file = writeFixture(original);
      assert.equal((await edit(file, [{ old_string: 'café = 1', new_string: 'café = 2' }], 'iso-8859-1')).success, true);
      assert.deepEqual(fs.readFileSync(file), Buffer.from('café = 2\n', 'utf8'));
    });
  });
});
