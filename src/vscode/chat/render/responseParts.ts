/**
 * What the chat shows for a response, as a list of parts: markdown, and anchors
 * to files and lines. No vscode import: the parts are plain data, unit-tested
 * against real envelopes; chatStream.ts writes them to a ChatResponseStream.
 */
import { type Diagnosis, type EngineResponse, type EnvelopeContext, errorDocLink, type ErrorEnvelope, failureEntries, type FailureEntry, type FileResult, plural, type SuccessResponse } from '../../../core/index';
import { baseName, codeBlock, escapeMarkdown, inlineCode, languageOf } from './markdownText';
import { localized } from '../../platform/localized';

/** A place in a file, as the response gives it: lines and columns are 1-based. */
export interface AnchorTarget {
  /** The path as the response names it. */
  readonly path: string;
  /** Absent for the whole file. */
  readonly startLine?: number;
  /** The last line of the range; absent for a single position. */
  readonly endLine?: number;
  readonly column?: number;
}

export type ChatPart =
  | { readonly kind: 'markdown'; readonly text: string }
  | { readonly kind: 'anchor'; readonly target: AnchorTarget; readonly title: string };

/** Collects parts, merging adjacent markdown so the stream gets few, whole pieces. */
class Parts {
  private readonly list: ChatPart[] = [];

  markdown(text: string): this {
    const last = this.list[this.list.length - 1];
    if (last?.kind === 'markdown') {
      this.list[this.list.length - 1] = { kind: 'markdown', text: last.text + text };
    } else if (text !== '') {
      this.list.push({ kind: 'markdown', text });
    }
    return this;
  }

  anchor(target: AnchorTarget, title: string): this {
    this.list.push({ kind: 'anchor', target, title });
    return this;
  }

  done(): ChatPart[] {
    return this.list;
  }
}

/** How many lines a snippet spans (a final line break ends the last line, it does not start one). */
function lineCount(text: string): number {
  const lines = text.split(/\r\n|\r|\n/);
  return text.endsWith('\n') || text.endsWith('\r') ? lines.length - 1 : lines.length;
}

/** The lines a context's snippet covers, when the context says where it starts. */
function snippetSpan(context: EnvelopeContext | undefined): { readonly start: number; readonly end: number } | undefined {
  const snippet = context?.snippet;
  if (snippet === undefined || snippet === '' || context?.start_line === undefined) {
    return undefined;
  }
  return { start: context.start_line, end: context.start_line + Math.max(1, lineCount(snippet)) - 1 };
}

function lineRange(span: { readonly start: number; readonly end: number }): string {
  return span.start === span.end ? `line ${span.start}` : `lines ${span.start}–${span.end}`;
}

function renderFile(parts: Parts, file: FileResult): void {
  parts
    .anchor({ path: file.file_path }, baseName(file.file_path))
    .markdown(` · ${plural(file.edits_applied, 'edit')}, ${plural(file.replacements, 'replacement')}\n\n`);
  if (file.diff !== undefined && file.diff !== '') {
    parts.markdown(`${codeBlock(file.diff, 'diff')}\n`);
  }
}

function renderSuccess(response: SuccessResponse): ChatPart[] {
  const parts = new Parts().markdown(`**${escapeMarkdown(response.summary)}**\n\n`);
  for (const warning of response.warnings ?? []) {
    parts.markdown(`⚠ ${inlineCode(warning.code)} ${escapeMarkdown(warning.message)}\n\n`);
  }
  for (const file of response.files) {
    renderFile(parts, file);
  }
  return parts.done();
}

/** "Edit 2", or "File 1, edit 2" in a request of several files; for a whole file, "File 1". */
function entryLabel(entry: FailureEntry): string {
  if (entry.editIndex === undefined) {
    return `File ${entry.fileIndex + 1}`;
  }
  return entry.numbersFiles ? `File ${entry.fileIndex + 1}, edit ${entry.editIndex + 1}` : `Edit ${entry.editIndex + 1}`;
}

/**
 * Anchors to where a failure sits: each reported match, else the line that differs (`differsAt`,
 * located by the diagnostics), else the snippet's lines, else the file.
 */
function renderWhere(parts: Parts, path: string | undefined, context: EnvelopeContext | undefined, differsAt?: AnchorTarget): void {
  if (path === undefined) {
    return;
  }
  const name = baseName(path);
  const matches = context?.match_locations ?? [];
  if (matches.length > 0) {
    const total = Math.max(context?.total_matches ?? 0, matches.length);
    parts.markdown('Matches: ');
    matches.forEach((match, index) => {
      parts
        .markdown(index === 0 ? '' : ', ')
        .anchor({ path, startLine: match.line, column: match.column }, `${name}:${match.line}:${match.column} (match ${index + 1} of ${total})`);
    });
    parts.markdown(total > matches.length ? `, and ${total - matches.length} more\n\n` : '\n\n');
    return;
  }
  if (differsAt?.startLine !== undefined) {
    parts.markdown(`${localized('Differs at:')} `).anchor(differsAt, `${baseName(differsAt.path)}:${differsAt.startLine}`).markdown('\n\n');
    return;
  }
  const firstSyntaxError = context?.syntax_errors?.[0];
  if (firstSyntaxError) {
    const { line, column } = firstSyntaxError;
    parts.markdown(`${localized('First new syntax error:')} `).anchor({ path, startLine: line, column }, `${name}:${line}:${column}`).markdown('\n\n');
    return;
  }
  const span = snippetSpan(context);
  if (span) {
    parts.markdown(`${localized('Closest text:')} `).anchor({ path, startLine: span.start, endLine: span.end }, `${name}, ${lineRange(span)}`).markdown('\n\n');
    return;
  }
  parts.markdown(`${localized('File:')} `).anchor({ path }, name).markdown('\n\n');
}

/**
 * The raw file text around the closest partial match, to copy old_string from; for a syntax
 * regression, the text as the edits would write it, around the first new error.
 */
function renderSnippet(parts: Parts, path: string | undefined, context: EnvelopeContext | undefined): void {
  const snippet = context?.snippet;
  if (snippet === undefined || snippet === '') {
    return;
  }
  const heading = snippetHeading(path, snippetSpan(context), context?.syntax_errors !== undefined);
  parts.markdown(`${heading}\n\n${codeBlock(snippet, path === undefined ? '' : languageOf(path))}\n`);
}

function snippetHeading(path: string | undefined, span: { readonly start: number; readonly end: number } | undefined, wouldBeWritten: boolean): string {
  if (span === undefined) {
    return wouldBeWritten ? localized('Text as it would be written:') : localized('Text around the closest match:');
  }
  if (path === undefined) {
    return wouldBeWritten ? localized('Text as it would be written ({0}):', lineRange(span)) : localized('Text around the closest match ({0}):', lineRange(span));
  }
  const name = escapeMarkdown(baseName(path));
  return wouldBeWritten
    ? localized('Text as it would be written ({0} of {1}):', lineRange(span), name)
    : localized('Text around the closest match ({0} of {1}):', lineRange(span), name);
}

function renderCause(parts: Parts, diagnosis: Diagnosis | undefined): void {
  if (diagnosis) {
    parts.markdown(`**${localized('Cause:')}** ${inlineCode(diagnosis.kind)} ${escapeMarkdown(diagnosis.detail)}\n\n`);
  }
}

function renderFailure(envelope: ErrorEnvelope, differsAt: AnchorTarget | undefined): ChatPart[] {
  const parts = new Parts()
    .markdown(`**${escapeMarkdown(envelope.summary)}**\n\n`)
    .markdown(`[${inlineCode(envelope.error_code)}](${errorDocLink(envelope.error_code)}) ${escapeMarkdown(envelope.message)}\n\n`);
  renderCause(parts, envelope.diagnosis);
  if (envelope.recovery_hints.length > 0) {
    parts.markdown(`**${localized('Hints')}**\n\n${envelope.recovery_hints.map((hint) => `- ${escapeMarkdown(hint)}\n`).join('')}\n`);
  }
  renderWhere(parts, envelope.file_path, envelope.context, differsAt);
  renderSnippet(parts, envelope.file_path, envelope.context);
  const others = failureEntries(envelope).filter((entry) => !entry.lead);
  if (others.length > 0) {
    parts.markdown(`**${localized('Other edits')}**\n\n`);
  }
  for (const entry of others) {
    const failed = entry.status === 'failed';
    parts.markdown(`${entryLabel(entry)} · ${inlineCode(failed ? entry.code : 'skipped')} ${escapeMarkdown(entry.message)}\n\n`);
    renderCause(parts, entry.diagnosis);
    if (failed) {
      renderWhere(parts, entry.filePath, entry.context);
    }
  }
  if (envelope.rolled_back && envelope.rolled_back.length > 0) {
    parts.markdown(`${localized('Restored after a failed write: {0}', envelope.rolled_back.map((path) => inlineCode(path)).join(', '))}\n\n`);
  }
  if (envelope.truncated) {
    parts.markdown(`${localized('Some detail was left out to keep the response small; the envelope has the rest.')}\n\n`);
  }
  return parts.done();
}

/** `differsAt`: where the leading failure's text differs from old_string, when it was located. */
export function renderResponse(response: EngineResponse, differsAt?: AnchorTarget): ChatPart[] {
  return response.success ? renderSuccess(response) : renderFailure(response, differsAt);
}
