/**
 * Raw file lines around a position, for envelopes. Only the requested lines are
 * read (through the LineIndex), and long lines are clipped, so the work is bounded
 * by the snippet's size, never by the file's.
 */
import type { LineIndex } from '../text/lineIndex';
import { isHighSurrogate, isLowSurrogate } from '../text/surrogates';
import type { Limits } from '../contract/limits';
import type { MatchLocation } from '../contract/schemas';

/** Lines before and after each ambiguous match location. */
const MATCH_LOCATION_CONTEXT_LINES = 3;

const CLIP_MARK = '…';

/** The limits a snippet keeps to. */
export type SnippetLimits = Pick<Limits, 'contextLines' | 'maxSnippetLineChars'>;

/** `limits.contextLines` as a whole, non-negative number of lines. */
export function contextLineCount(limits: SnippetLimits): number {
  return Math.max(0, Math.trunc(limits.contextLines) || 0);
}

export interface Snippet {
  readonly snippet: string;
  /** 1-based line of the snippet's first line. */
  readonly start_line: number;
  /** 1-based lines shortened with '…'; absent when every line is whole. */
  readonly clipped_lines?: number[];
}

/** Lines of the near match itself are kept whole up to this many characters. */
const MAX_WHOLE_LINE_CHARS = 16 * 1024;

/**
 * `limits.contextLines` lines before and after the line holding `offset` (fewer at
 * the file's edges), joined with '\n'. The line holding `offset` is clipped around
 * the offset, so the interesting part of a very long line stays visible.
 */
export function snippetAround(
  text: string,
  index: LineIndex,
  offset: number,
  limits: SnippetLimits,
): Snippet {
  const before = contextLineCount(limits);
  const focusLine = index.lineOfOffset(offset);
  return snippetOfLines(text, index, {
    first: focusLine - before,
    last: focusLine + before,
    focusLine,
    focusOffset: offset,
  }, limits.maxSnippetLineChars);
}

export interface LineSpan {
  /** 0-based first and last line wanted; clamped to the text. */
  readonly first: number;
  readonly last: number;
  /** The line clipped around `focusOffset` instead of at its start. */
  readonly focusLine: number;
  readonly focusOffset: number;
  /** 0-based lines of the near match: a reader copies them, so they stay whole (up to a far higher bound). */
  readonly whole?: { readonly first: number; readonly last: number };
}

/**
 * The lines `span.first..span.last` of the text, raw: each keeps the line break the
 * file has (CRLF, LF), so the snippet can be copied byte for byte. A line that had
 * to be shortened is listed in clipped_lines.
 */
export function snippetOfLines(text: string, index: LineIndex, span: LineSpan, maxLineChars: number): Snippet {
  const first = Math.max(0, span.first);
  const last = Math.min(index.lineCount - 1, span.last);
  let snippet = '';
  const clipped: number[] = [];
  for (let line = first; line <= last; line++) {
    const start = index.lineStart(line);
    const end = index.lineEnd(line);
    const keepAround = line === span.focusLine ? span.focusOffset : start;
    const inNearMatch = span.whole !== undefined && line >= span.whole.first && line <= span.whole.last;
    const limit = inNearMatch ? Math.max(maxLineChars, MAX_WHOLE_LINE_CHARS) : maxLineChars;
    const shown = clipLine(text, start, end, keepAround, limit);
    if (shown.length !== end - start) {
      clipped.push(line + 1);
    }
    snippet += line < last ? shown + text.slice(end, index.lineStart(line + 1)) : shown;
  }
  return { snippet, start_line: first + 1, ...(clipped.length > 0 ? { clipped_lines: clipped } : {}) };
}

/** Lines searched above and below a match for the line that tells it apart from every other match. */
const MAX_DISTINCT_DISTANCE = 12;

/** Every match of an ambiguous old_string, so each location can say what tells it apart. */
export interface AllMatches {
  /** The offset of every match, in order. */
  readonly offsets: readonly number[];
  /** Line breaks inside old_string: a match ends that many lines below the line it starts on. */
  readonly breaks: number;
}

/**
 * One location per offset: 1-based line and column, and the lines around it. With every
 * match known, each location also names the nearest line above (and below) that makes the
 * lines from there to the match occur nowhere else, and its snippet reaches that line.
 */
export function matchLocations(
  text: string,
  index: LineIndex,
  offsets: readonly number[],
  limits: Pick<Limits, 'maxSnippetLineChars'>,
  all?: AllMatches,
): MatchLocation[] {
  const firstLines = all?.offsets.map((offset) => index.lineOfOffset(offset));
  return offsets.map((offset) => {
    const { line, column } = index.position(offset);
    const first = line - 1;
    const breaks = all?.breaks ?? 0;
    const above = firstLines && distinctLine(index, firstLines, first, -1);
    const below = firstLines && distinctLine(index, firstLines.map((start) => start + breaks), first + breaks, 1);
    const span = {
      first: Math.min(first - MATCH_LOCATION_CONTEXT_LINES, above ?? first),
      last: Math.max(first + MATCH_LOCATION_CONTEXT_LINES, below ?? first),
      focusLine: first,
      focusOffset: offset,
    };
    const shown = snippetOfLines(text, index, span, limits.maxSnippetLineChars);
    const named = (line0: number): { line: number; text: string } => ({ line: line0 + 1, text: clipLine(index.lineText(line0), 0, index.lineText(line0).length, 0, limits.maxSnippetLineChars) });
    return {
      line,
      column,
      start_line: shown.start_line,
      snippet: shown.snippet,
      ...(above !== undefined ? { distinct_above: named(above) } : {}),
      ...(below !== undefined ? { distinct_below: named(below) } : {}),
    };
  });
}

/**
 * The nearest 0-based line, going `step` from `own`, by which the lines between it and `own`
 * differ from the lines at the same distance from every other match (`lines` holds the line of
 * each match, `own` among them). Undefined when another match is on the same line, or no line
 * within MAX_DISTINCT_DISTANCE tells them all apart.
 */
function distinctLine(index: LineIndex, lines: readonly number[], own: number, step: 1 | -1): number | undefined {
  const ownAt = lines.indexOf(own);
  let others = lines.filter((_other, at) => at !== ownAt);
  if (others.includes(own)) {
    return undefined;
  }
  for (let distance = 1; distance <= MAX_DISTINCT_DISTANCE; distance++) {
    const candidate = own + step * distance;
    if (candidate < 0 || candidate >= index.lineCount) {
      return undefined;
    }
    const ownText = index.lineText(candidate);
    // Grown to this line, old_string would start with its end (above) or end with its start (below),
    // so a facing line only stays alike when it ends (or starts) with the same text.
    others = others.filter((other) => {
      const facing = other + step * distance;
      return facing >= 0 && facing < index.lineCount && (step < 0 ? index.lineText(facing).endsWith(ownText) : index.lineText(facing).startsWith(ownText));
    });
    if (others.length === 0) {
      return candidate;
    }
  }
  return undefined;
}

/**
 * text[start, end) when it fits in `maxChars`; otherwise a window of it that keeps
 * `keepAround` visible, with '…' marking each clipped side. The window never splits
 * a surrogate pair.
 */
function clipLine(text: string, start: number, end: number, keepAround: number, maxChars: number): string {
  // Three characters is the least that can show a clipped window with both marks.
  const limit = Math.max(3, Math.trunc(maxChars) || 3);
  if (end - start <= limit) {
    return text.slice(start, end);
  }
  const anchor = Math.min(Math.max(keepAround, start), end);
  if (anchor - start < limit - 1) {
    return text.slice(start, pairSafeEnd(text, start + limit - 1)) + CLIP_MARK;
  }
  const room = Math.max(0, limit - 2);
  let from = Math.max(start, anchor - (room >> 1));
  let to = from + room;
  if (to >= end) {
    to = end;
    from = Math.max(start, end - (limit - 1));
  }
  from = pairSafeStart(text, from);
  to = pairSafeEnd(text, to);
  const head = from > start ? CLIP_MARK : '';
  const tail = to < end ? CLIP_MARK : '';
  return head + text.slice(from, to) + tail;
}

/** Moves a window end back when it would cut a surrogate pair in two. */
function pairSafeEnd(text: string, end: number): number {
  return end > 0 && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end)) ? end - 1 : end;
}

/** Moves a window start forward when it would begin inside a surrogate pair. */
function pairSafeStart(text: string, start: number): number {
  return isLowSurrogate(text.charCodeAt(start)) && isHighSurrogate(text.charCodeAt(start - 1)) ? start + 1 : start;
}
