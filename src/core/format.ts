/** How a response reads as a tool result: the summary line, then the compact JSON. */
import type { EngineResponse } from './schemas';

export function formatForModel(response: EngineResponse): string {
  return `${response.summary}\n${JSON.stringify(response)}`;
}
