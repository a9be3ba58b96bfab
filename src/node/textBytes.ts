/**
 * Text to bytes and back, as the Node store reads and writes them: strict UTF-8, a
 * BOM kept aside, and the exact bytes read kept as the version, so a commit can tell
 * whether the file still holds them.
 */
import type { FileHandle } from 'node:fs/promises';
import type { StoredText, StoreResult } from '../core/index';

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The version token of a text read from disk: the bytes as read. */
export interface ReadVersion {
  readonly bytes: Uint8Array;
}

export function isReadVersion(version: unknown): version is ReadVersion {
  return typeof version === 'object' && version !== null && (version as ReadVersion).bytes instanceof Uint8Array;
}

/** Bytes compared, or encoded, at a time: a commit never holds a second whole copy of a file. */
const CHUNK = 1 << 20;

/** Whether the file open at `handle` holds exactly `expected`, read a chunk at a time. */
export async function fileHolds(handle: Pick<FileHandle, 'read'>, expected: Uint8Array): Promise<boolean> {
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK, expected.length + 1));
  const wanted = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
  for (let offset = 0; ;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
    if (bytesRead === 0) {
      return offset === wanted.length;
    }
    if (offset + bytesRead > wanted.length || !chunk.subarray(0, bytesRead).equals(wanted.subarray(offset, offset + bytesRead))) {
      return false;
    }
    offset += bytesRead;
  }
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

/**
 * The bytes a text is written as (the BOM first, when it had one), a megabyte or so
 * at a time, so the whole encoded file is never in memory at once.
 */
export function* encodedChunks(text: { readonly text: string; readonly bom: boolean }): Generator<Uint8Array> {
  if (text.bom) {
    yield Uint8Array.from(UTF8_BOM);
  }
  const value = text.text;
  for (let from = 0; from < value.length;) {
    let to = Math.min(value.length, from + CHUNK);
    // Splitting a surrogate pair between chunks would write each half as U+FFFD.
    if (to < value.length && isHighSurrogate(value.charCodeAt(to - 1))) {
      to--;
    }
    yield Buffer.from(value.slice(from, to), 'utf8');
    from = to;
  }
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}
