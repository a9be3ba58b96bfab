/** How responses read: as a tool result, and the counted nouns every surface writes. */
import type { EngineResponse } from './schemas';

/** How a response reads as a tool result: the summary line, then the compact JSON. */
export function formatForModel(response: EngineResponse): string {
  return `${response.summary}\n${JSON.stringify(response)}`;
}

/** "1 edit", "3 edits". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
