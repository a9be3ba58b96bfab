/**
 * Requests as they travel through the chat: the JSON in a `/apply` or `/preview`
 * prompt, and a tool result's text read back. No vscode import.
 */
import { type EngineResponse, responseSchema } from '../../../core/index';

export type PromptRequest =
  | { readonly ok: true; readonly input: unknown }
  /** No request, or its JSON did not parse (`jsonError` says why); the caller words it for people. */
  | { readonly ok: false; readonly jsonError?: string };

/** The first fenced block marked json (or unmarked); its text. */
const JSON_FENCE = /(`{3,})[ \t]*(?:jsonc?)?[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*\1/i;

/** The request in a prompt: a fenced ```json block when there is one, else the whole prompt as JSON. */
export function parseRequestPrompt(prompt: string): PromptRequest {
  const fenced = JSON_FENCE.exec(prompt);
  const text = (fenced ? fenced[2] : prompt).trim();
  if (text === '') {
    return { ok: false };
  }
  try {
    return { ok: true, input: JSON.parse(text) };
  } catch (error) {
    return { ok: false, jsonError: error instanceof Error ? error.message : String(error) };
  }
}

/** The response in a Multi-Edit tool result's text (a summary line, then the JSON); undefined when it is not one. */
export function parseToolText(text: string): EngineResponse | undefined {
  const newline = text.indexOf('\n');
  if (newline === -1) {
    return undefined;
  }
  try {
    const parsed = responseSchema.safeParse(JSON.parse(text.slice(newline + 1)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
