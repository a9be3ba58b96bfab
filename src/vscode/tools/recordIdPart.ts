/**
 * A tool result names the request record behind it in its last text part, so the chat participant
 * finds the record of its own call however many calls run at once. Invocation options carry nothing
 * per call, and a data part of our own type fails invokeTool on VS Code 1.100, so a short text part is
 * the one carrier every supported version passes through. The participant takes it out before the
 * model reads the result; another caller (an agent calling the tool) reads it as a line of prose.
 * No vscode import.
 */

// Not translated: read back by the participant, and by a model as a tag.
const LABEL = 'Multi-Edit request';
const RECORD_ID = new RegExp(`^\\[${LABEL} #(\\d+)\\]$`);

/** The text of the part that names record `id`. */
export function recordIdText(id: number): string {
  return `[${LABEL} #${id}]`;
}

/**
 * Splits a tool result's parts into what the model reads and the record id named by the last
 * part; `textOf` gives a part's text when it is a text part.
 */
export function splitRecordId<Part>(parts: readonly Part[], textOf: (part: Part) => string | undefined): { readonly parts: readonly Part[]; readonly recordId?: number } {
  const last = parts.at(-1);
  const text = last === undefined ? undefined : textOf(last);
  const match = text === undefined ? null : RECORD_ID.exec(text);
  return match ? { parts: parts.slice(0, -1), recordId: Number(match[1]) } : { parts };
}
