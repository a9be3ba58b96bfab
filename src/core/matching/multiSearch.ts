/**
 * Every occurrence of many patterns in one pass over a large text.
 *
 * Checking 200 edits against a 10 MB file must not scan the file 400 times. Long
 * patterns are found together with a Wu-Manber scan: the text is read in jumps of up
 * to the shortest pattern's length, and only positions whose last three characters
 * end some pattern's key window are verified. Few or short patterns are found with
 * the native indexOf, which is faster for them.
 */

/** Patterns shorter than this make the jumps too short to pay off; indexOf finds them. */
const MIN_SCANNED_LENGTH = 8;
/** With fewer long patterns than this, one native indexOf sweep per pattern is faster. */
const MIN_SCANNED_PATTERNS = 5;
/** The key window is at most this long, so every shift fits in a byte. */
const MAX_WINDOW = 64;
const BLOCK = 3;
/**
 * The tables have 2^bits entries: 2^18 (1 MB in all) from texts of
 * about 1 MB up, fewer for smaller texts, where a few more hash collisions cost little
 * and a megabyte of tables would be several times the text.
 */
const MAX_HASH_BITS = 18;
const MIN_HASH_BITS = 12;
/** Rarity is only compared, so block counts stop at the top of 16 bits. */
const MAX_FREQUENCY = 0xffff;
/** Offsets gathered per array before a new one is started (occurrencesOf). */
const STARTS_PER_ARRAY = 16384;

/**
 * Ascending offsets into a text: a plain array, or a typed one where there can be
 * millions (a replace_all on every line), at 4 bytes an offset instead of 8.
 */
export type Offsets = Readonly<ArrayLike<number>> & Iterable<number>;

/** The offsets from `from` up to `to`, as a plain array. */
export function offsetsBetween(offsets: Offsets, from: number, to = offsets.length): number[] {
  const end = Math.min(to, offsets.length);
  const out: number[] = [];
  for (let index = from; index < end; index++) {
    out.push(offsets[index]);
  }
  return out;
}
/** Characters sampled from the text (at its start, middle and end) to learn which blocks are common. */
const SAMPLE_CHARS = 1 << 14;

/**
 * Every start offset of `pattern` in `text`, overlapping ones included, ascending.
 * Up to STARTS_PER_ARRAY of them come as a plain array. Past that (a replace_all on
 * every line finds millions), the rest are gathered in typed arrays of that size and
 * all are copied once into one typed array of the exact size: an array grown by
 * pushing leaves each outgrown copy behind until the next collection, and a plain
 * array takes twice the bytes.
 */
export function occurrencesOf(text: string, pattern: string, from = 0, to = text.length): Offsets {
  const last = to - pattern.length;
  const first: number[] = [];
  let at = text.indexOf(pattern, from);
  for (; at !== -1 && at <= last && first.length < STARTS_PER_ARRAY; at = text.indexOf(pattern, at + 1)) {
    first.push(at);
  }
  if (at === -1 || at > last) {
    return first;
  }
  const full = [Int32Array.from(first)];
  let starts = new Int32Array(STARTS_PER_ARRAY);
  let count = 0;
  for (; at !== -1 && at <= last; at = text.indexOf(pattern, at + 1)) {
    if (count === STARTS_PER_ARRAY) {
      full.push(starts);
      starts = new Int32Array(STARTS_PER_ARRAY);
      count = 0;
    }
    starts[count++] = at;
  }
  const all = new Int32Array(full.length * STARTS_PER_ARRAY + count);
  full.forEach((chunk, index) => all.set(chunk, index * STARTS_PER_ARRAY));
  all.set(starts.subarray(0, count), full.length * STARTS_PER_ARRAY);
  return all;
}

/** The first `limit` start offsets of `pattern` in `text`, none overlapping an earlier one (as a replace_all replaces them). */
export function nonOverlappingPrefix(text: string, pattern: string, limit: number): number[] {
  const starts: number[] = [];
  for (let at = text.indexOf(pattern); at !== -1 && starts.length < limit; at = text.indexOf(pattern, at + pattern.length)) {
    starts.push(at);
  }
  return starts;
}

/** For each distinct pattern, every start offset in `text` (overlapping included), ascending. */
export function occurrencesOfAll(text: string, patterns: readonly string[]): Map<string, Offsets> {
  const distinct = [...new Set(patterns)].filter((pattern) => pattern.length > 0);
  const found = new Map<string, Offsets>();
  const scanned = distinct.filter((pattern) => pattern.length >= MIN_SCANNED_LENGTH);
  const useScan = scanned.length >= MIN_SCANNED_PATTERNS && text.length >= MAX_WINDOW * 4;
  for (const pattern of distinct) {
    if (!useScan || pattern.length < MIN_SCANNED_LENGTH) {
      found.set(pattern, occurrencesOf(text, pattern));
    }
  }
  if (useScan) {
    const starts = wuManber(text, scanned);
    scanned.forEach((pattern, id) => found.set(pattern, starts[id]));
  }
  return found;
}

function hashBitsFor(textLength: number): number {
  return Math.min(MAX_HASH_BITS, Math.max(MIN_HASH_BITS, Math.ceil(Math.log2(textLength + 1)) - 2));
}

/** A hash of the block of BLOCK characters that ends at `end`, folded to `bits` bits. */
function blockHash(value: string, end: number, bits: number): number {
  const hash = (value.charCodeAt(end - 2) << 12) ^ (value.charCodeAt(end - 1) << 6) ^ value.charCodeAt(end);
  return (hash ^ (hash >>> bits)) & ((1 << bits) - 1);
}

/** How often each block hash occurs in a sample of the text and in the patterns. */
function blockFrequencies(text: string, patterns: readonly string[], bits: number): Uint16Array {
  const frequency = scanTables(bits).frequency.fill(0);
  const count = (hash: number): void => {
    if (frequency[hash] < MAX_FREQUENCY) {
      frequency[hash]++;
    }
  };
  const length = text.length;
  for (const anchor of [0, length >> 1, length - SAMPLE_CHARS]) {
    const from = Math.max(BLOCK - 1, anchor);
    const to = Math.min(length, from + SAMPLE_CHARS);
    for (let end = from; end < to; end++) {
      count(blockHash(text, end, bits));
    }
  }
  for (const pattern of patterns) {
    for (let end = BLOCK - 1; end < pattern.length; end++) {
      count(blockHash(pattern, end, bits));
    }
  }
  return frequency;
}

/**
 * Each pattern is keyed by a window of `width` characters. The window is chosen to
 * end in its rarest block, so the positions that need verifying are few.
 */
function keyWindowOffsets(patterns: readonly string[], width: number, frequency: Uint16Array, bits: number): Int32Array {
  const offsets = new Int32Array(patterns.length);
  patterns.forEach((pattern, id) => {
    let best = 0;
    let bestFrequency = Infinity;
    for (let offset = 0; offset + width <= pattern.length; offset++) {
      const count = frequency[blockHash(pattern, offset + width - 1, bits)];
      if (count < bestFrequency) {
        bestFrequency = count;
        best = offset;
      }
    }
    offsets[id] = best;
  });
  return offsets;
}

interface ScanTables {
  readonly frequency: Uint16Array;
  readonly shift: Uint8Array;
  readonly bucketHead: Int32Array;
}

/**
 * The scan's tables, the largest yet (1.75 MB at 2^18 entries), kept from one scan to the next
 * and refilled: filling memory the process holds costs a fraction of faulting in fresh pages,
 * which a host editing a large document call after call paid each time (1 MB, 50 edits: 4.5 ms
 * a search with fresh tables, 1.8 ms with kept ones). A scan runs to its end without yielding,
 * so no two share them; a smaller text's scan uses the first 2^bits entries.
 */
let keptTables: ScanTables | undefined;

function scanTables(bits: number): ScanTables {
  const size = 1 << bits;
  if (keptTables === undefined || keptTables.shift.length < size) {
    keptTables = { frequency: new Uint16Array(size), shift: new Uint8Array(size), bucketHead: new Int32Array(size) };
  }
  const { frequency, shift, bucketHead } = keptTables;
  return { frequency: frequency.subarray(0, size), shift: shift.subarray(0, size), bucketHead: bucketHead.subarray(0, size) };
}

function wuManber(text: string, patterns: readonly string[]): number[][] {
  const width = patterns.reduce((shortest, pattern) => Math.min(shortest, pattern.length), MAX_WINDOW);
  const bits = hashBitsFor(text.length);
  const offsets = keyWindowOffsets(patterns, width, blockFrequencies(text, patterns, bits), bits);
  const tables = scanTables(bits);
  const shift = tables.shift.fill(width - BLOCK + 1);
  const bucketHead = tables.bucketHead.fill(-1);
  const bucketNext = new Int32Array(patterns.length).fill(-1);
  patterns.forEach((pattern, id) => {
    const offset = offsets[id];
    for (let end = BLOCK - 1; end < width; end++) {
      const hash = blockHash(pattern, offset + end, bits);
      const distance = width - 1 - end;
      if (distance < shift[hash]) {
        shift[hash] = distance;
      }
    }
    const keyHash = blockHash(pattern, offset + width - 1, bits);
    bucketNext[id] = bucketHead[keyHash];
    bucketHead[keyHash] = id;
  });

  const starts: number[][] = patterns.map(() => []);
  const length = text.length;
  let position = width - 1;
  while (position < length) {
    const hash = blockHash(text, position, bits);
    const distance = shift[hash];
    if (distance > 0) {
      position += distance;
      continue;
    }
    for (let id = bucketHead[hash]; id !== -1; id = bucketNext[id]) {
      const pattern = patterns[id];
      const start = position - (width - 1) - offsets[id];
      if (start >= 0 && text.charCodeAt(start) === pattern.charCodeAt(0) && text.startsWith(pattern, start)) {
        starts[id].push(start);
      }
    }
    position++;
  }
  return starts;
}
