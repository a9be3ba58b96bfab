/** The one call the engine makes to explain a MATCH_NOT_FOUND. */
import { locateClosestMatch, type TextSpan } from './closestMatch';
import { contextLineCount, snippetOfLines, type Snippet, type SnippetLimits } from './context';
import { diagnoseKnownMiss, hintsForDiagnosis } from './diagnosis';
import { TextSearch } from './textSearch';
import type { LineIndex } from '../text/lineIndex';
import type { Diagnosis } from '../contract/schemas';

export interface MissExplanation {
  /** closest_line: the 1-based line of the closest partial match, which a clipped snippet stays centred on. */
  readonly context: Snippet & { readonly closest_line?: number };
  readonly diagnosis?: Diagnosis;
  /** Hints for the diagnosis kind, to follow the code's own hints. */
  readonly hints: readonly string[];
  /** The text the explanation points at: the near miss, new_string already present, or the closest match. */
  readonly closest?: TextSpan;
}

/** A near match longer than the usual snippet is shown whole, up to this many lines. */
const MAX_SPAN_SNIPPET_LINES = 200;

/** Longer old_strings are explained by their first this many characters. */
const MAX_EXPLAINED_NEEDLE_CHARS = 64 * 1024;

/**
 * Context, diagnosis and hints for an old_string that does not occur. `needle` and
 * `newString` already use the file's line endings.
 */
export function explainMiss(
  text: string,
  index: LineIndex,
  needle: string,
  newString: string,
  limits: SnippetLimits,
  sentNeedle?: string,
): MissExplanation {
  // A needle longer than the text, or than anyone could mean to match by hand, is
  // explained by its head only, so the work stays bounded; its cause is not guessed.
  const bounded = needle.length > text.length || needle.length > MAX_EXPLAINED_NEEDLE_CHARS;
  const probe = bounded ? needle.slice(0, Math.min(text.length, MAX_EXPLAINED_NEEDLE_CHARS)) : needle;
  // One search for the whole explanation, so the searches share what each has read (textSearch.ts).
  const search = new TextSearch(text, probe);
  const closestMatch = probe.length > 0 ? locateClosestMatch(text, index, probe, search) : undefined;
  const missing = !bounded && needle.length > 0 && closestMatch?.exact !== true;
  const located = missing ? diagnoseKnownMiss({ text, index, needle, newString, closest: closestMatch, search, ...(sentNeedle !== undefined ? { sentNeedle } : {}) }) : undefined;
  const target = located ?? closestMatch;
  if (!target) {
    return { context: snippetAt(text, index, { offset: 0, length: 0 }, 0, limits), hints: [] };
  }
  const span = 'span' in target ? target.span : { offset: target.offset, length: target.length };
  const focus = focusOffset(text, index, needle, span, located?.diagnosis.line !== undefined ? located.diagnosis : undefined, target.focus);
  return {
    context: { ...snippetAt(text, index, span, focus, limits), closest_line: index.lineOfOffset(focus) + 1 },
    ...(located ? { diagnosis: located.diagnosis } : {}),
    hints: located ? hintsForDiagnosis(located.diagnosis.kind) : [],
    closest: span,
  };
}

/**
 * The offset closest_line stands on: the position the diagnosis names; without one, the
 * first line of the closest placement that differs from its line of old_string (a block
 * with one changed line points at that line); never the empty line after a final newline.
 */
function focusOffset(
  text: string, index: LineIndex, needle: string, span: TextSpan,
  diagnosis: { readonly line?: number; readonly column?: number } | undefined, fallback: number,
): number {
  let focus = fallback;
  if (diagnosis?.line !== undefined) {
    focus = index.lineStart(diagnosis.line - 1) + Math.max(0, (diagnosis.column ?? 1) - 1);
  } else {
    const first = index.lineOfOffset(span.offset);
    const needleLines = needle.split('\n');
    const differing = needleLines.findIndex((line, at) => first + at >= index.lineCount || index.lineText(first + at) !== line.replace(/\r$/, ''));
    if (differing > 0 || (differing === 0 && needleLines.length > 1)) {
      focus = index.lineStart(Math.min(first + differing, index.lineCount - 1));
    }
  }
  // A file ending with a newline has an empty last "line" that is no line of the file.
  const lastLine = text.length > 0 && text.endsWith('\n') ? Math.max(0, index.lineCount - 2) : index.lineCount - 1;
  return index.lineOfOffset(focus) > lastLine ? index.lineStart(lastLine) : focus;
}

/**
 * 2n+1 lines centred on the focus line, moved (never past the focus line) so that
 * the whole span shows when it fits, and so that they stay inside the file. A
 * longer span is shown whole, head and tail, with n lines around it (bounded).
 */
function snippetAt(
  text: string,
  index: LineIndex,
  span: TextSpan,
  focus: number,
  limits: SnippetLimits,
): Snippet {
  const around = contextLineCount(limits);
  const focusLine = index.lineOfOffset(focus);
  const spanFirst = index.lineOfOffset(span.offset);
  const spanLast = index.lineOfOffset(span.offset + span.length);
  const whole = { first: spanFirst, last: spanLast };
  if (spanLast - spanFirst > 2 * around) {
    const from = Math.max(0, spanFirst - around);
    const to = Math.min(spanLast + around, from + MAX_SPAN_SNIPPET_LINES - 1);
    return snippetOfLines(text, index, { first: from, last: to, focusLine, focusOffset: focus, whole }, limits.maxSnippetLineChars);
  }
  let first = Math.min(focusLine - around, spanFirst);
  first = Math.max(first, spanLast - 2 * around);
  // Near the file's edges, show more of the file rather than fewer lines.
  first = Math.max(0, Math.min(first, index.lineCount - 1 - 2 * around));
  return snippetOfLines(text, index, { first, last: first + 2 * around, focusLine, focusOffset: focus, whole }, limits.maxSnippetLineChars);
}
