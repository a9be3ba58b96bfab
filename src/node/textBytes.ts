/**
 * Text to bytes and back, as the Node store reads and writes them: strict UTF-8, a
 * BOM kept aside, and the exact bytes read kept as the version, so a commit can tell
 * whether the file still holds them.
 */
import type { StoredText, StoreResult } from '../core/index';

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The version token of a text read from disk: the bytes as read. */
export interface ReadVersion {
  readonly bytes: Uint8Array;
}

export function isReadVersion(version: unknown): version is ReadVersion {
  return typeof version === 'object' && version !== null && (version as ReadVersion).bytes instanceof Uint8Array;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

export function decodeUtf8(bytes: Uint8Array): StoreResult<StoredText> {
  const bom = UTF8_BOM.every((byte, index) => bytes[index] === byte);
  const body = bom ? bytes.subarray(UTF8_BOM.length) : bytes;
  if (body.includes(0)) {
    return { ok: false, code: 'INVALID_ENCODING', detail: 'the file contains NUL bytes, so it is binary, not text' };
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    const version: ReadVersion = { bytes };
    return { ok: true, value: { text, bom, version } };
  } catch {
    return { ok: false, code: 'INVALID_ENCODING', detail: 'the file is not valid UTF-8 text' };
  }
}

export function encodeText(text: { readonly text: string; readonly bom: boolean }): Buffer {
  return Buffer.from(text.bom ? `\uFEFF${text.text}` : text.text, 'utf8');
}
