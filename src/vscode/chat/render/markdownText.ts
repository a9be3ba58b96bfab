/**
 * Turning untrusted text (messages, paths, file text) into chat markdown that
 * shows it literally. No vscode import, so it is unit-tested in Node.
 */

/** Characters that start markdown syntax anywhere in a line. */
const MARKDOWN_SPECIALS = /[\\`*_[\]<>#|~$]/g;

/** One line of literal text: specials escaped, line breaks folded to spaces. */
export function escapeMarkdown(text: string): string {
  return text.replace(/\s*(?:\r\n|\r|\n)\s*/g, ' ').replace(MARKDOWN_SPECIALS, '\\$&');
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let current = 0;
  for (const found of text) {
    current = found === char ? current + 1 : 0;
    longest = Math.max(longest, current);
  }
  return longest;
}

/** Text as an inline code span, whatever backticks it holds. */
export function inlineCode(text: string): string {
  const oneLine = text.replace(/\r\n|\r|\n/g, '⏎');
  const fence = '`'.repeat(longestRun(oneLine, '`') + 1);
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') || oneLine.trim() === '' ? ' ' : '';
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}

/** Text as a fenced code block, with a fence longer than any backtick run inside it. */
export function codeBlock(text: string, language = ''): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `${fence}${language}\n${body}${fence}\n`;
}

/** The fence language for a file: its extension when that is a plain word, else none. */
export function languageOf(filePath: string): string {
  const name = filePath.slice(Math.max(filePath.lastIndexOf('/'), filePath.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return /^[a-z0-9]{1,10}$/.test(extension) ? extension : '';
}

/** The last segment of a path, for short labels. */
export function baseName(filePath: string): string {
  const trimmed = filePath.replace(/[\\/]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || filePath;
}
