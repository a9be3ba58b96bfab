/**
 * The encodings other than UTF-8, on iconv-lite (the converters VS Code itself builds on),
 * and the refusal of bytes no encoding was named for, with the likely encoding when a
 * guess is confident (shared/textEncodings.ts). Loaded only when a file is not UTF-8: a request on UTF-8 files never reads
 * this module or its tables.
 *
 * Every encoding offered here maps each character to bytes by itself (no shift states),
 * so a text that was proved to encode back to the bytes read keeps every untouched byte
 * when edits change other characters. UTF-7 and Node's byte-to-text names (base64, hex)
 * are refused for that reason.
 */
import * as iconv from 'iconv-lite';
import type { StoredText, StoreFailure, StoreResult } from '../../core/index';
import { binaryReason, type EncodingGuess, firstDifference, guessedNames, guessEncoding, guessLead } from '../../shared/textEncodings';
import type { ByteCodec, ReadVersion } from './textBytes';

/** Encodings that keep state between characters, or that are not text: their bytes cannot be kept where nothing changed. */
const REFUSED = new Set(['utf7', 'utf7imap', 'unicode11utf7', 'base64', 'hex']);

/** The same name, as iconv-lite compares names: lower case, without punctuation. */
const bareName = (name: string): string => name.toLowerCase().replace(/[^0-9a-z]/g, '');

const isUtf16 = (name: string): boolean => /^(utf16|ucs2)/.test(bareName(name));

/** The codec for an encoding's name, or why it cannot be one. */
export function codecNamed(name: string, bomBytes: Uint8Array = new Uint8Array(0)): ByteCodec | string {
  const bare = bareName(name);
  if (!iconv.encodingExists(name) || REFUSED.has(bare)) {
    return REFUSED.has(bare)
      ? `the encoding "${name}" keeps state between characters, so untouched bytes could not be kept as they are`
      : `"${name}" is not an encoding Multi-Edit knows; name one such as windows-1252, iso-8859-1, shift_jis, gbk, euc-kr or koi8-r`;
  }
  const label = name.trim().toLowerCase();
  return {
    name: label,
    bomBytes,
    encode: (text) => iconv.encode(text, name),
    decode: (bytes) => iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), name, { stripBOM: false }),
    // UTF-16 holds every string a JavaScript string can; the others are asked.
    firstUnrepresentable: isUtf16(name) ? () => -1 : (text) => firstDifference(text, iconv.decode(iconv.encode(text, name), name, { stripBOM: false })),
  };
}

/**
 * The file's text in `codec`, once proved: the text encodes back to exactly the bytes
 * read, so writing it again (edited or not) changes no byte the edits did not touch.
 */
export function decodeProved(bytes: Uint8Array, codec: ByteCodec): StoreResult<StoredText> {
  const body = bytes.subarray(codec.bomBytes.length);
  const text = codec.decode(body);
  const again = codec.encode(text);
  const differsAt = firstByteDifference(body, again);
  if (differsAt !== -1) {
    const shown = differsAt < body.length ? `byte 0x${body[differsAt].toString(16).padStart(2, '0')} at offset ${differsAt + codec.bomBytes.length}` : 'the end of the file';
    return {
      ok: false, code: 'INVALID_ENCODING',
      detail: `the file is not ${codec.name} text: ${shown} does not read as ${codec.name} and back to itself, so it could not be written back unchanged`,
      hints: guessHints(bytes, codec.name),
    };
  }
  if (text.includes('\0')) {
    return { ok: false, code: 'INVALID_ENCODING', detail: `the file holds NUL characters in ${codec.name}, so it is binary, not text` };
  }
  const version: ReadVersion = { byteLength: bytes.length, codec };
  return { ok: true, value: { text, bom: codec.bomBytes.length > 0, version, encoding: { name: codec.name, firstUnrepresentable: codec.firstUnrepresentable } } };
}

/** Reads bytes that have no BOM and are not UTF-8, in the encoding the caller named, or says why not. */
export function decodeNamed(bytes: Uint8Array, encoding: string | undefined): StoreResult<StoredText> {
  const binary = binaryReason(bytes);
  if (binary !== undefined && !(encoding !== undefined && isUtf16(encoding))) {
    return { ok: false, code: 'INVALID_ENCODING', detail: `the file ${binary}, so it is binary, not text` };
  }
  if (encoding === undefined) {
    return notTold(bytes);
  }
  const codec = codecNamed(encoding);
  return typeof codec === 'string' ? { ok: false, code: 'INVALID_ENCODING', detail: codec, hints: guessHints(bytes, encoding) } : decodeProved(bytes, codec);
}

function notTold(bytes: Uint8Array): StoreFailure {
  const guess = guessOf(bytes);
  const likely = guess ? `; it looks like ${guessedNames(guess)} text` : '';
  return {
    ok: false, code: 'INVALID_ENCODING',
    detail: `the file is text, but not UTF-8, and no encoding was named for it${likely}`,
    hints: guessHints(bytes, undefined, guess),
  };
}

/** How to name the encoding: the confident guesses, when there are some other than the encoding that failed. */
function guessHints(bytes: Uint8Array, failed?: string, found = guessOf(bytes)): string[] {
  const guess = found !== undefined && !found.names.some((name) => bareName(name) === bareName(failed ?? '')) ? found : undefined;
  if (guess && guess.names.length > 1) {
    const named = guess.names.map((name) => `"encoding": "${name}"`).join(' or ');
    return [`${guessLead(guess)}. Add the one that reads the file as it should (${named}) beside its file_path in the request (the CLI's apply, patch and mcp take --encoding NAME), then resubmit`];
  }
  const lead = guess ? guessLead(guess) : failed !== undefined ? `The bytes are not ${failed} text; name the file's real encoding` : 'Name the file\'s encoding';
  const example = guess?.names[0] ?? (failed === undefined ? 'windows-1252' : 'its name');
  return [`${lead}: add "encoding": "${example}" beside its file_path in the request (the CLI's apply, patch and mcp take --encoding ${example}), then resubmit`];
}

/** The likely encodings, when chardet is confident and iconv-lite can use them. */
function guessOf(bytes: Uint8Array): EncodingGuess | undefined {
  return guessEncoding(bytes, (name) => iconv.encodingExists(name) && !REFUSED.has(bareName(name)));
}

function firstByteDifference(a: Uint8Array, b: Uint8Array): number {
  if (Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)) {
    return -1;
  }
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    if (a[index] !== b[index]) {
      return index;
    }
  }
  return length;
}
