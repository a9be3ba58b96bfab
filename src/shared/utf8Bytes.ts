/** How many bytes UTF-8 takes for a text, counted part by part: a text kept in pieces is never joined to be measured. */
import type { EditedText } from '../core/index';

export function utf8ByteLength(text: Pick<EditedText, 'parts'>): number {
  let bytes = 0;
  for (const part of text.parts()) {
    bytes += Buffer.byteLength(part, 'utf8');
  }
  return bytes;
}
