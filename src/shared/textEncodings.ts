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
 * chardet's first guess, in lower case ("iso-8859-1", "shift_jis"), when it is confident and
 * names an encoding other than UTF-8 and ASCII; `usable` says whether the reader can use it.
 */
export function confidentGuess(bytes: Uint8Array, usable: (name: string) => boolean): string | undefined {
  const [best] = analyse(bytes);
  if (!best || best.confidence < CONFIDENT) {
    return undefined;
  }
  const name = best.name.toLowerCase();
  return name !== 'ascii' && name !== 'utf-8' && usable(name) ? name : undefined;
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
