/**
 * Reads the entries of a zip archive (a .vsix is one) from its central directory, so a test can
 * check what a package holds without an unzip tool or a library.
 */
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  size: number;
  /** What the entry takes in the archive. */
  compressedSize: number;
  /** The entry's bytes, inflated. */
  read(): Buffer;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/** The end record sits in the last 22 bytes plus an optional comment of up to 64 KB. */
function findEndRecord(zip: Buffer): number {
  for (let offset = zip.length - 22; offset >= Math.max(0, zip.length - 22 - 0xffff); offset--) {
    if (zip.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  throw new Error('not a zip archive: no end of central directory record');
}

function entryData(zip: Buffer, localHeader: number, compressedSize: number, method: number): Buffer {
  if (zip.readUInt32LE(localHeader) !== LOCAL_FILE_HEADER) throw new Error(`no local file header at ${localHeader}`);
  const start = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
  const raw = zip.subarray(start, start + compressedSize);
  if (method === STORED) return Buffer.from(raw);
  if (method === DEFLATED) return inflateRawSync(raw);
  throw new Error(`unsupported zip compression method ${method}`);
}

export function readZipEntries(zip: Buffer): ZipEntry[] {
  const end = findEndRecord(zip);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(offset) !== CENTRAL_DIRECTORY_ENTRY) throw new Error(`bad central directory entry ${index}`);
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const localHeader = zip.readUInt32LE(offset + 42);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    entries.push({ name, size, compressedSize, read: () => entryData(zip, localHeader, compressedSize, method) });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
