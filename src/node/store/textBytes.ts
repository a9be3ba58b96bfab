/**
 * Text to bytes and back, as the Node store reads and writes them: strict UTF-8 and a
 * BOM kept aside. Strict decoding has exactly one encoding back, so the text read is
 * itself the version: a commit tells whether the file still holds it by encoding it
 * again, a chunk at a time, and the bytes read need not be kept.
 */
import { isHighSurrogate, type StoredText, type StoreResult } from '../../core/index';
import type { StoreFileHandle } from './fsApi';

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The version token of a text read from disk: the file held that text's bytes, this many. */
export interface ReadVersion {
  readonly byteLength: number;
}

export function isReadVersion(version: unknown): version is ReadVersion {
  return typeof version === 'object' && version !== null && typeof (version as ReadVersion).byteLength === 'number';
}

/**
 * Characters encoded (and bytes compared) at a time: a commit never holds a second
 * whole copy of a file, and its buffers (up to three bytes a character) stay well
 * under a megabyte.
 */
const CHUNK = 1 << 18;

/**
 * Buffers kept between uses: a request on many small files reads, encodes and compares
 * each one with buffers used before, not three new ones per file left for the garbage
 * collector. A commit stages and checks up to sixteen files at once, two buffers each,
 * so the spares must hold that many; at most SPARE_BYTES wait here.
 */
const spareBuffers: Buffer[] = [];
const SPARE_BYTES = 1 << 22;
let spareBytes = 0;

/** A buffer of at least `size` bytes, for the caller alone until it gives it back. */
export function takeBuffer(size: number): Buffer {
  const index = spareBuffers.findIndex((buffer) => buffer.length >= size);
  if (index === -1) {
    return Buffer.allocUnsafe(size);
  }
  const [buffer] = spareBuffers.splice(index, 1);
  spareBytes -= buffer.length;
  return buffer;
}

/** Hands a buffer back once nothing reads or writes it any more. */
export function giveBack(buffer: Buffer): void {
  if (spareBytes + buffer.length <= SPARE_BYTES) {
    spareBuffers.push(buffer);
    spareBytes += buffer.length;
  }
}

/** Whether the file open at `handle` holds exactly the bytes of `expected`, read a chunk at a time. */
export async function fileHolds(handle: Pick<StoreFileHandle, 'read'>, expected: Iterable<Uint8Array>): Promise<boolean> {
  let buffer = takeBuffer(1);
  try {
    let offset = 0;
    for (const chunk of expected) {
      if (buffer.length < chunk.length) {
        giveBack(buffer);
        buffer = takeBuffer(chunk.length);
      }
      const read = await readFully(handle, buffer, chunk.length, offset);
      if (read !== chunk.length || !buffer.subarray(0, read).equals(chunk)) {
        return false;
      }
      offset += read;
    }
    return (await readFully(handle, buffer, 1, offset)) === 0;
  } finally {
    giveBack(buffer);
  }
}

async function readFully(handle: Pick<StoreFileHandle, 'read'>, buffer: Buffer, length: number, position: number): Promise<number> {
  let total = 0;
  while (total < length) {
    const { bytesRead } = await handle.read(buffer, total, length - total, position + total);
    if (bytesRead === 0) {
      break;
    }
    total += bytesRead;
  }
  return total;
}

export function decodeUtf8(bytes: Uint8Array): StoreResult<StoredText> {
  const bom = UTF8_BOM.every((byte, index) => bytes[index] === byte);
  const body = bom ? bytes.subarray(UTF8_BOM.length) : bytes;
  if (body.includes(0)) {
    return { ok: false, code: 'INVALID_ENCODING', detail: 'the file contains NUL bytes, so it is binary, not text' };
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    const version: ReadVersion = { byteLength: bytes.length };
    return { ok: true, value: { text, bom, version } };
  } catch {
    return { ok: false, code: 'INVALID_ENCODING', detail: 'the file is not valid UTF-8 text' };
  }
}

/**
 * The bytes a text is written as (the BOM first, when it had one), a quarter megabyte
 * at a time, so the whole encoded file is never in memory at once. Every chunk is
 * encoded into the same buffer: use each one before asking for the next.
 */
export function* encodedChunks(text: { readonly text: string; readonly bom: boolean }): Generator<Uint8Array> {
  if (text.bom) {
    yield Uint8Array.from(UTF8_BOM);
  }
  const value = text.text;
  // UTF-8 takes at most three bytes for one UTF-16 unit; a text shorter than a chunk gets a buffer of its exact size.
  const buffer = takeBuffer(value.length <= CHUNK ? Buffer.byteLength(value, 'utf8') : CHUNK * 3);
  try {
    for (let from = 0; from < value.length;) {
      let to = Math.min(value.length, from + CHUNK);
      // Splitting a surrogate pair between chunks would write each half as U+FFFD.
      if (to < value.length && isHighSurrogate(value.charCodeAt(to - 1))) {
        to--;
      }
      yield buffer.subarray(0, buffer.write(value.slice(from, to), 'utf8'));
      from = to;
    }
  } finally {
    // Reached when the reader has asked past the last chunk, or stopped reading.
    giveBack(buffer);
  }
}
