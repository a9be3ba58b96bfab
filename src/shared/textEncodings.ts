/**
 * What the Node store and the extension share about encodings: what bytes that are not
 * UTF-8 look like, for a refusal to name (binary: a NUL, or a control byte no text holds;
 * or text whose likely encoding chardet names when it is confident), and where a text
 * and its round trip part. A guess only ever goes into a message: no file is read in a
 * guessed encoding unless the user turned guessing on in VS Code.
 */
import { analyse } from 'chardet';

/** A guess below this confidence (chardet's 0 to 100) is not named. */
const CONFIDENT = 50;

const LINE_FEED = 0x0a;

/** Tab, line and page breaks, escape and DOS's end-of-file mark: control bytes text holds. */
const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1a, 0x1b]);

/** Why bytes are binary, in words ("contains NUL bytes ..."), or undefined for bytes that could be text. */
export function binaryReason(bytes: Uint8Array): string | undefined {
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index];
    if (byte < 0x20 && !TEXT_CONTROLS.has(byte)) {
      return byte === 0
        ? `contains NUL bytes (the first at offset ${index}) and has no UTF-16 byte order mark`
        : `contains the control byte 0x${byte.toString(16).padStart(2, '0')} at offset ${index}`;
    }
  }
  return undefined;
}

/**
 * chardet's guesses, best first, in lower case, when the best is confident and names an
 * encoding other than UTF-8 and ASCII that the reader can use (`usable`); every other usable
 * guess rated at least half as high follows it. Single-byte tables often share most letters,
 * which statistics cannot settle: a French Latin-1 file can rate higher as Latin-2.
 */
function confidentGuesses(bytes: Uint8Array, usable: (name: string) => boolean): string[] {
  const guesses = analyse(guessSample(bytes));
  const [best] = guesses;
  const bestName = best?.name.toLowerCase();
  if (best === undefined || best.confidence < CONFIDENT || bestName === 'ascii' || bestName === 'utf-8' || !usable(bestName)) {
    return [];
  }
  const close = guesses.filter((guess) => guess.confidence * 2 >= best.confidence).map((guess) => guess.name.toLowerCase());
  return [...new Set(close)].filter((name) => name !== 'ascii' && name !== 'utf-8' && usable(name));
}

/** How much text chardet is given: it reads about 4 MB a second, and a refusal's work stays bounded. */
const SAMPLE_BYTES = 1 << 20;

/**
 * The bytes chardet judges: all of a small file; of a larger one, its lines that hold a byte
 * above ASCII, whole and in order, up to SAMPLE_BYTES. Those lines are where encodings differ.
 */
function guessSample(bytes: Uint8Array): Uint8Array {
  if (bytes.length <= SAMPLE_BYTES) {
    return bytes;
  }
  const sample = new Uint8Array(SAMPLE_BYTES);
  let filled = 0;
  for (let start = 0; start < bytes.length && filled < SAMPLE_BYTES;) {
    const found = bytes.indexOf(LINE_FEED, start);
    const end = found === -1 ? bytes.length : found + 1;
    const line = bytes.subarray(start, end);
    start = end;
    if (line.some((byte) => byte >= 0x80)) {
      const taken = line.subarray(0, SAMPLE_BYTES - filled);
      sample.set(taken, filled);
      filled += taken.length;
    }
  }
  return sample.subarray(0, filled);
}

/** What a refusal says of bytes that are not UTF-8: the likely encodings and, when they read the text apart, where. */
export interface EncodingGuess {
  /** The guesses that read the text differently, best first; one when they all read it alike. */
  readonly names: readonly string[];
  /** The first line they read apart and how each reads it, for the caller to pick the right one. */
  readonly apart?: string;
}

export function guessEncoding(bytes: Uint8Array, usable: (name: string) => boolean): EncodingGuess | undefined {
  const names = confidentGuesses(bytes, usable);
  if (names.length === 0) {
    return undefined;
  }
  return (names.length > 1 ? firstLineReadApart(bytes, names) : undefined) ?? { names: [names[0]] };
}

/** The guess's names joined for a sentence: "iso-8859-2 or iso-8859-1". */
export const guessedNames = (guess: EncodingGuess): string => guess.names.join(' or ');

/** How a refusal's hint opens on a guess, the same on every surface: "The bytes look like X text[, which read line N apart: ...]". */
export const guessLead = (guess: EncodingGuess): string => `The bytes look like ${guessedNames(guess)} text${guess.apart ? `, which read ${guess.apart}` : ''}`;

/** How much of a file the guesses are compared on: the refusal's work stays bounded. */
const COMPARED_BYTES = 1 << 24;
/** How much of a line each reading shows: a stretch that starts a little before they part. */
const SHOWN_BEFORE = 20;
const SHOWN_CHARS = 60;

/**
 * The first line that the encodings read differently, with each distinct reading of it once.
 * Lines end at LF, a byte no encoding offered here uses inside a character, so the first
 * 16 MB of whole lines read alike up to where the readings first part, and that line starts at the
 * same offset in each.
 */
function firstLineReadApart(bytes: Uint8Array, names: readonly string[]): EncodingGuess | undefined {
  const compared = bytes.length <= COMPARED_BYTES ? bytes : bytes.subarray(0, bytes.lastIndexOf(LINE_FEED, COMPARED_BYTES) + 1);
  const readings = names.flatMap((name) => {
    try {
      return [{ name, text: new TextDecoder(name).decode(compared) }];
    } catch {
      return [];
    }
  });
  const parted = readings.slice(1).map((reading) => firstDifference(readings[0].text, reading.text)).filter((at) => at !== -1);
  if (parted.length === 0) {
    return undefined;
  }
  const lineStart = readings[0].text.lastIndexOf('\n', Math.min(...parted) - 1) + 1;
  const lines = new Map<string, string>();
  for (const { name, text } of readings) {
    const lineEnd = text.indexOf('\n', lineStart);
    const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd).replace(/\r$/, '');
    if (![...lines.values()].includes(line)) {
      lines.set(name, line);
    }
  }
  return { names: [...lines.keys()], apart: `line ${lineNumberAt(readings[0].text, lineStart)} apart: ${shownReadings(lines)}` };
}

function lineNumberAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
  }
  return line;
}

/** The first offset where `text` and the same text encoded and decoded again differ, or -1: the first character the encoding lost. */
export function firstDifference(text: string, roundTrip: string): number {
  const length = Math.min(text.length, roundTrip.length);
  for (let index = 0; index < length; index++) {
    if (text.charCodeAt(index) !== roundTrip.charCodeAt(index)) {
      return index;
    }
  }
  return text.length === roundTrip.length ? -1 : length;
}

/** Each reading of one line, cut to the same stretch around where they first part: `"naïve = 2" in iso-8859-1, ...`. */
function shownReadings(readings: ReadonlyMap<string, string>): string {
  const [first, ...others] = [...readings.values()];
  const from = Math.max(0, Math.min(...others.map((other) => firstDifference(first, other))) - SHOWN_BEFORE);
  return [...readings].map(([name, text]) => {
    const cut = text.slice(from, from + SHOWN_CHARS);
    return `${JSON.stringify(`${from > 0 ? '...' : ''}${cut}${from + SHOWN_CHARS < text.length ? '...' : ''}`)} in ${name}`;
  }).join(', ');
}
