/** How responses read: as a tool result, and the counted nouns every surface writes. */
import type { EngineResponse } from './schemas';
import { isHighSurrogate } from '../text/surrogates';

/** How a response reads as a tool result: the summary line, then the compact JSON. */
export function formatForModel(response: EngineResponse): string {
  return `${response.summary}\n${JSON.stringify(response)}`;
}

/** "1 edit", "3 edits". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

const EXCERPT_CHARS = 40;

/** The first characters of an old_string, never splitting a surrogate pair. */
export function oldStringExcerpt(value: string): string {
  if (value.length <= EXCERPT_CHARS) {
    return value;
  }
  let end = EXCERPT_CHARS;
  if (isHighSurrogate(value.charCodeAt(end - 1))) {
    end--;
  }
  return `${value.slice(0, end)}…`;
}

/** "2nd", "3rd", "11th": a count as people say it. */
export function ordinal(count: number): string {
  const tens = count % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[count % 10] ?? 'th';
  return `${count}${suffix}`;
}
