/**
 * Text to bytes and back, as the Node store reads and writes them. A byte order mark
 * decides the encoding (UTF-8, UTF-16LE, UTF-16BE); otherwise valid UTF-8 is UTF-8;
 * otherwise the encoding the caller named (textCodecs.ts, loaded only then). The BOM is
 * kept aside. Strict UTF-8 has exactly one encoding back, and any other encoding is
 * proved to give the bytes read back when the file is read, so the text read is itself
 * the version: a commit tells whether the file still holds it by encoding it again, a
 * chunk at a time, and the bytes read need not be kept.
 */
import { type EditedText, encodableSlices, type StoredText, type StoreResult, wholeText } from '../../core/index';
import { utf8ByteLength } from '../../shared/utf8Bytes';
import type { StoreFileHandle } from './fsApi';

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The byte order marks that decide a file's encoding, each with the iconv-lite name of what follows it. */
const UTF16_BOMS = [
  { bom: [0xff, 0xfe], encoding: 'utf-16le' },
  { bom: [0xfe, 0xff], encoding: 'utf-16be' },
] as const;

/** How a text other than UTF-8 turns back into the bytes it was read from. */
export interface ByteCodec {
  /** The encoding's name, as a request names it. */
  readonly name: string;
  /** The byte order mark the file starts with, empty when it has none. */
  readonly bomBytes: Uint8Array;
  encode(text: string): Uint8Array;
  decode(bytes: Uint8Array): string;
  firstUnrepresentable(text: string): number;
}

/** The version token of a text read from disk: the file held that text's bytes, this many. */
export interface ReadVersion {
  readonly byteLength: number;
  /** Absent for UTF-8. */
  readonly codec?: ByteCodec;
}

/** The codec a text read from disk is written back with; undefined for UTF-8. */
export function codecOf(text: { readonly version?: unknown } | undefined): ByteCodec | undefined {
  return isReadVersion(text?.version) ? text.version.codec : undefined;
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

const startsWith = (bytes: Uint8Array, prefix: readonly number[]): boolean => prefix.every((byte, index) => bytes[index] === byte);

/** The codec a new file named to be in `encoding` is written with (undefined for UTF-8), or why there is none. */
export async function codecForNewFile(encoding: string, bom: boolean): Promise<ByteCodec | undefined | string> {
  if (isUtf8Name(encoding)) {
    return undefined;
  }
  const bare = bareEncodingName(encoding);
  const { codecNamed } = await import('./textCodecs.js');
  const utf16 = UTF16_BOMS.find((candidate) => candidate.encoding.replace('-', '') === bare);
  return codecNamed(encoding, bom && utf16 ? Uint8Array.from(utf16.bom) : new Uint8Array(0));
}

/** A file's text, in the encoding its BOM, its bytes or the caller (`encoding`) decide; or why it is not text. */
export async function decodeStored(bytes: Uint8Array, encoding?: string): Promise<StoreResult<StoredText>> {
  const utf16 = UTF16_BOMS.find(({ bom }) => startsWith(bytes, bom));
  if (utf16) {
    const { codecNamed, decodeProved } = await import('./textCodecs.js');
    return decodeProved(bytes, codecNamed(utf16.encoding, Uint8Array.from(utf16.bom)) as ByteCodec);
  }
  const bom = startsWith(bytes, UTF8_BOM);
  const body = bom ? bytes.subarray(UTF8_BOM.length) : bytes;
  const text = strictUtf8(body);
  if (text !== undefined && !text.includes('\0')) {
    // ASCII (one character a byte) reads the same in UTF-8 and in every encoding that extends it:
    // the encoding the caller named decides what the characters an edit adds are written as.
    if (!bom && encoding !== undefined && text.length === body.length && !isUtf8Name(encoding)) {
      const { decodeNamed } = await import('./textCodecs.js');
      const named = decodeNamed(bytes, encoding);
      if (named.ok && named.value.text === text) {
        return named;
      }
    }
    const version: ReadVersion = { byteLength: bytes.length };
    return { ok: true, value: { text, bom, version } };
  }
  if (bom) {
    return { ok: false, code: 'INVALID_ENCODING', detail: text === undefined ? 'the file starts with a UTF-8 byte order mark but is not valid UTF-8' : 'the file contains NUL bytes, so it is binary, not text' };
  }
  const { decodeNamed } = await import('./textCodecs.js');
  return decodeNamed(bytes, encoding);
}

/** An encoding's name without case or punctuation ("UTF-8" and "utf8" alike). */
const bareEncodingName = (encoding: string): string => encoding.toLowerCase().replace(/[^0-9a-z]/g, '');
const isUtf8Name = (encoding: string): boolean => bareEncodingName(encoding) === 'utf8';

function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A text as a file holds it: its parts in turn, the BOM first when it has one. */
export interface StoredContent {
  readonly text: EditedText;
  readonly bom: boolean;
}

/** A text read, as what it is written as again. */
export const contentOf = (stored: Pick<StoredText, 'text' | 'bom'>): StoredContent => ({ text: wholeText(stored.text), bom: stored.bom });

/**
 * The bytes a text is written as (the BOM first, when it had one), about a quarter
 * megabyte at a time, so the whole encoded file is never in memory at once. UTF-8
 * chunks are encoded into the same buffer, the text's parts one after another: use
 * each chunk before asking for the next. `codec` absent is UTF-8.
 */
export function* encodedChunks(content: StoredContent, codec?: ByteCodec): Generator<Uint8Array> {
  if (codec) {
    yield* codecChunks(content, codec);
    return;
  }
  if (content.bom) {
    yield Uint8Array.from(UTF8_BOM);
  }
  const { text } = content;
  // UTF-8 takes at most three bytes for one UTF-16 unit; a text shorter than a chunk gets a buffer of its exact size.
  const buffer = takeBuffer(text.length <= CHUNK ? utf8ByteLength(text) : CHUNK * 3);
  let filled = 0;
  try {
    for (const slice of encodableSlices(text, CHUNK)) {
      if (filled > 0 && filled + slice.length * 3 > buffer.length) {
        yield buffer.subarray(0, filled);
        filled = 0;
      }
      filled += buffer.write(slice, filled, 'utf8');
    }
    if (filled > 0) {
      yield buffer.subarray(0, filled);
    }
  } finally {
    // Reached when the reader has asked past the last chunk, or stopped reading.
    giveBack(buffer);
  }
}

function* codecChunks(content: StoredContent, codec: ByteCodec): Generator<Uint8Array> {
  if (content.bom) {
    yield codec.bomBytes;
  }
  for (const slice of encodableSlices(content.text, CHUNK)) {
    yield codec.encode(slice);
  }
}
