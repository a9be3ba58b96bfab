/**
 * Where old_string most nearly occurs in a text.
 *
 * Candidates come from two cheap sources: the first occurrence of the longest
 * prefix of the needle (binary search on the prefix length with indexOf), and the
 * occurrences of a few of the needle's longest tokens (runs of characters that
 * whitespace and look-alike differences cannot change). Each candidate places the
 * needle's lines on the text's lines, and the placement whose lines differ least
 * from the needle's, compared with whitespace collapsed and look-alikes folded, wins.
 * Every step is either an indexOf scan or bounded by the needle's size.
 */
import type { LineIndex } from '../text/lineIndex';
import { comparableKey, isLineBreak, isSpaceLike, lookalikeOf } from './lookalikes';
import { needleReadings, type NeedleReading } from './needle';
import { TextSearch } from './textSearch';

export interface TextSpan {
  readonly offset: number;
  readonly length: number;
}

export interface ClosestMatch extends TextSpan {
  /** Offset on the text line that differs least from the needle's lines. */
  readonly focus: number;
  /** Whether the span is the needle itself, occurring verbatim. */
  readonly exact: boolean;
}

/** Anchors searched for at most (each search is one indexOf scan). */
const MAX_ANCHORS = 8;
/** Votes at which a placement is settled: two anchors that occur once agree on it. */
const AGREEMENT = 2;
/** Placements one anchor may propose. */
const MAX_ANCHOR_HITS = 32;
/** Occurrences of one anchor looked at, so a token repeated all over one long line stays cheap. */
const MAX_OCCURRENCES_SEEN = 4 * MAX_ANCHOR_HITS;
/** Placements scored per reading of the needle. */
const MAX_CANDIDATES = 8;
/** Characters of a line that take part in comparisons; longer lines are compared by a window. */
const MAX_COMPARED_CHARS = 2048;
/** The score below which a placement tells the caller nothing. */
const MIN_USEFUL_SCORE = 0.2;

// ---- candidates ----

interface Candidate {
  /** 0-based text line the needle's first line is placed on. */
  readonly startLine: number;
  /** A text offset the placement passes through, for windows on long lines. */
  readonly hit: number;
  /** Needle line and column the hit stands for. */
  readonly hitLine: number;
  readonly hitColumn: number;
  /** Exact start of the needle's first line, when the longest prefix proposed it. */
  readonly prefixStart?: number;
}

interface Anchor {
  readonly token: string;
  readonly line: number;
  readonly column: number;
}

/** First occurrence of the longest prefix of `needle` in `text` (textSearch.ts). */
export function longestPrefixMatch(text: string, needle: string): TextSpan | undefined {
  return new TextSearch(text, needle).longestPrefix();
}

function isTokenChar(code: number): boolean {
  return !isSpaceLike(code) && !isLineBreak(code) && code !== 92 && lookalikeOf(code) === undefined;
}

/** Runs of token characters: text that whitespace and look-alike differences leave intact. */
function tokensOf(line: string): { token: string; column: number }[] {
  const tokens: { token: string; column: number }[] = [];
  let start = -1;
  for (let at = 0; at <= line.length; at++) {
    const inside = at < line.length && isTokenChar(line.charCodeAt(at));
    if (inside && start === -1) {
      start = at;
    } else if (!inside && start !== -1) {
      tokens.push({ token: line.slice(start, at), column: start });
      start = -1;
    }
  }
  return tokens;
}

/** The first run of token characters in a line, and its column. */
function firstTokenOf(line: string): { token: string; column: number } | undefined {
  return tokensOf(line)[0];
}

/** The longest run of token characters in a line (the first on a tie), and its column. */
function longestTokenOf(line: string): { token: string; column: number } | undefined {
  return tokensOf(line).reduce<{ token: string; column: number } | undefined>((best, t) => (!best || t.token.length > best.token.length ? t : best), undefined);
}

/** Letter and digit runs inside tokens that are more than the whole token: they survive a typo or an ASCII quote. */
function wordsInside(tokens: readonly { token: string; column: number }[]): { token: string; column: number }[] {
  const words: { token: string; column: number }[] = [];
  for (const { token, column } of tokens) {
    for (const word of token.matchAll(WORD)) {
      if (word[0] !== token) {
        words.push({ token: word[0], column: column + word.index });
      }
    }
  }
  return words;
}

/** A line's tokens and the words inside them, longest first: the pieces most likely to occur verbatim in a near miss. */
export function verbatimPiecesOf(line: string): { token: string; column: number }[] {
  const tokens = tokensOf(line);
  return [...tokens, ...wordsInside(tokens)].sort((a, b) => b.token.length - a.token.length || a.column - b.column);
}

const WORD = /\p{L}+|\p{N}+/gu;
const MIN_LINE_ANCHOR = 8;
const MIN_WORD_ANCHOR = 3;
const MAX_LINE_ANCHORS = 2;

const longestFirst = (a: Anchor, b: Anchor): number => b.token.length - a.token.length;

/**
 * Anchors in the order they are searched: whole lines without their indentation
 * (strongest), then each line's longest token (spread over the lines), then words
 * inside tokens, which survive a typo elsewhere in their token.
 */
function pickAnchors(reading: NeedleReading): Anchor[] {
  const wholeLines: Anchor[] = [];
  const lineTokens: Anchor[] = [];
  const words: Anchor[] = [];
  reading.lines.forEach((line, lineNumber) => {
    const content = line.text.trim();
    if (content.length >= MIN_LINE_ANCHOR) {
      wholeLines.push({ token: content, line: lineNumber, column: line.text.indexOf(content) });
    }
    const longest = longestTokenOf(line.text);
    if (longest) {
      lineTokens.push({ ...longest, line: lineNumber });
    }
    for (const word of wordsInside(tokensOf(line.text))) {
      if (word.token.length >= MIN_WORD_ANCHOR) {
        words.push({ ...word, line: lineNumber });
      }
    }
  });
  const ordered = [...wholeLines.sort(longestFirst).slice(0, MAX_LINE_ANCHORS), ...lineTokens.sort(longestFirst), ...words.sort(longestFirst)];
  const seen = new Set<string>();
  return ordered.filter((anchor) => !seen.has(anchor.token) && seen.add(anchor.token) !== undefined).slice(0, MAX_ANCHORS);
}

/**
 * Placements proposed by the longest prefix and by the anchors' occurrences. A hit
 * weighs 1 / (hits of its anchor), so rare anchors decide; the search stops early
 * once two rare anchors agree on a placement.
 */
function collectCandidates(search: TextSearch, index: LineIndex, prefix: TextSpan | undefined, reading: NeedleReading): Candidate[] {
  // On a long line, hits far apart are different placements.
  const placementKey = (candidate: Candidate): string => {
    const hitLine = candidate.startLine + candidate.hitLine;
    const long = index.lineEnd(hitLine) - index.lineStart(hitLine) > MAX_COMPARED_CHARS;
    return long ? `${candidate.startLine}:${Math.floor(candidate.hit / MAX_COMPARED_CHARS)}` : `${candidate.startLine}`;
  };
  const tally = new Map<string, { candidate: Candidate; weight: number; order: number }>();
  let bestWeight = 0;

  for (const anchor of pickAnchors(reading)) {
    if (bestWeight >= AGREEMENT) {
      break;
    }
    const hits = new Map<string, Candidate>();
    let at = search.indexOf(anchor.token);
    for (let seen = 0; at !== -1 && hits.size < MAX_ANCHOR_HITS && seen < MAX_OCCURRENCES_SEEN; seen++) {
      const startLine = index.lineOfOffset(at) - anchor.line;
      if (startLine >= 0) {
        const hit: Candidate = { startLine, hit: at, hitLine: anchor.line, hitColumn: anchor.column };
        const key = placementKey(hit);
        if (!hits.has(key)) {
          hits.set(key, hit);
        }
      }
      at = search.indexOf(anchor.token, at + anchor.token.length);
    }
    for (const [key, hit] of hits) {
      const entry = tally.get(key) ?? { candidate: hit, weight: 0, order: tally.size };
      entry.weight += 1 / hits.size;
      tally.set(key, entry);
      bestWeight = Math.max(bestWeight, entry.weight);
    }
  }

  const voted = [...tally.values()]
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .slice(0, MAX_CANDIDATES)
    .map((entry) => entry.candidate);
  const byPrefix: Candidate[] = prefix
    ? [{ startLine: index.lineOfOffset(prefix.offset), hit: prefix.offset, hitLine: 0, hitColumn: 0, prefixStart: prefix.offset }]
    : [];
  const reindented = placementIgnoringIndentation(search, index, reading);
  return [...(reindented ? [reindented] : []), ...byPrefix, ...voted];
}

// ---- a placement that only indentation keeps from matching ----

/** Occurrences of the key line looked at when placing a needle whose lines differ only in leading whitespace. */
const MAX_REINDENT_OCCURRENCES = 1024;

const LEADING_WHITESPACE = /^[ \t]*/;

function withoutIndentation(line: string): string {
  return line.slice(LEADING_WHITESPACE.exec(line)?.[0].length ?? 0);
}

/**
 * Where the needle's lines stand with other leading whitespace and nothing else changed,
 * wherever in the text that is. The needle's longest line, without its indentation, is
 * searched for (one indexOf scan); each occurrence that stands at its line's start after
 * whitespace only is checked line by line. Anchors can miss such a line when its words are
 * short and common ("    var fn;" in a file of var lines); this cannot.
 */
function placementIgnoringIndentation(search: TextSearch, index: LineIndex, reading: NeedleReading): Candidate | undefined {
  const { text } = search;
  const lines = reading.lines;
  const total = lines.length;
  const contents = lines.map((line) => withoutIndentation(line.text));
  // A line that starts its text line: every line after the first, and the first when old_string indents it.
  const startsLine = (at: number): boolean => at > 0 || lines[0].text !== contents[0];
  if (!startsLine(0) && total === 1) {
    return undefined;
  }
  let keyLine = -1;
  for (let at = 0; at < total; at++) {
    if (startsLine(at) && (keyLine === -1 || contents[at].length > contents[keyLine].length)) {
      keyLine = at;
    }
  }
  const key = contents[keyLine];
  if (key.trim() === '') {
    return undefined;
  }
  const fits = (at: number, fileLine: string): boolean => {
    const content = contents[at];
    if (!startsLine(at)) {
      return fileLine.endsWith(content);
    }
    const rest = withoutIndentation(fileLine);
    return at === total - 1 && total > 1 ? rest.startsWith(content) : total === 1 ? rest.startsWith(content) : rest === content;
  };
  let found = search.indexOf(key);
  for (let seen = 0; found !== -1 && seen < MAX_REINDENT_OCCURRENCES; seen++, found = search.indexOf(key, found + 1)) {
    const line = index.lineOfOffset(found);
    const startLine = line - keyLine;
    if (startLine < 0 || startLine + total > index.lineCount || !/^[ \t]*$/.test(text.slice(index.lineStart(line), found))) {
      continue;
    }
    let every = true;
    for (let at = 0; at < total && every; at++) {
      every = fits(at, index.lineText(startLine + at));
    }
    if (every) {
      return { startLine, hit: found, hitLine: keyLine, hitColumn: lines[keyLine].text.length - key.length };
    }
  }
  return undefined;
}

// ---- scoring a placement ----

/**
 * Where a needle line sits in the needle: the only line ('inner', anywhere inside a text line), the
 * first (it ends its text line), the last (it starts its text line), or one in the middle (all of it).
 */
export type LineRole = 'inner' | 'first' | 'middle' | 'last';

export function roleOf(lineNumber: number, lineTotal: number): LineRole {
  if (lineTotal === 1) {
    return 'inner';
  }
  if (lineNumber === 0) {
    return 'first';
  }
  return lineNumber === lineTotal - 1 ? 'last' : 'middle';
}

/** The part of a text line that takes part in comparisons: all of it, or a window around `near`. */
function comparedSpan(index: LineIndex, line: number, near: number | undefined): { start: number; end: number } {
  const start = index.lineStart(line);
  const end = index.lineEnd(line);
  if (end - start <= MAX_COMPARED_CHARS) {
    return { start, end };
  }
  const centre = near !== undefined && near >= start && near <= end ? near : start;
  const from = Math.max(start, centre - MAX_COMPARED_CHARS / 2);
  return { start: from, end: Math.min(end, from + MAX_COMPARED_CHARS) };
}

/** How alike two keys are, in [0, 1]; 1 only when the needle line fits the text line in its role. */
export function keySimilarity(needleKey: string, textKey: string, role: LineRole): number {
  const fits =
    role === 'inner' ? textKey.includes(needleKey)
      : role === 'first' ? textKey.endsWith(needleKey)
        : role === 'last' ? textKey.startsWith(needleKey)
          : textKey === needleKey;
  if (fits) {
    return 1;
  }
  if (needleKey.length === 0 || textKey.length === 0) {
    return 0;
  }
  let prefix = 0;
  const shorter = Math.min(needleKey.length, textKey.length);
  while (prefix < shorter && needleKey[prefix] === textKey[prefix]) {
    prefix++;
  }
  let suffix = 0;
  while (suffix < shorter - prefix && needleKey[needleKey.length - 1 - suffix] === textKey[textKey.length - 1 - suffix]) {
    suffix++;
  }
  const edges = (prefix + suffix) / Math.max(needleKey.length, textKey.length);
  const needleWords = needleKey.split(' ');
  const textWords = new Set(textKey.split(' '));
  const shared = needleWords.filter((word) => textWords.has(word)).length / needleWords.length;
  // Below 1, so that a line that fits always beats one that merely resembles.
  return 0.95 * Math.max(edges, shared);
}

interface Placement {
  readonly candidate: Candidate;
  readonly score: number;
  readonly focusLine: number;
  readonly reading: NeedleReading;
}

function scorePlacement(text: string, index: LineIndex, reading: NeedleReading, candidate: Candidate): Placement {
  let total = 0;
  let weights = 0;
  let focusLine = candidate.startLine;
  let focusSimilarity = -1;
  reading.lines.forEach((line, lineNumber) => {
    weights += line.weight;
    const textLine = candidate.startLine + lineNumber;
    if (textLine >= index.lineCount) {
      return;
    }
    const span = comparedSpan(index, textLine, lineNumber === candidate.hitLine ? candidate.hit : undefined);
    const similarity = keySimilarity(line.key, comparableKey(text.slice(span.start, span.end)), roleOf(lineNumber, reading.lines.length));
    total += similarity * line.weight;
    if (similarity > focusSimilarity) {
      focusSimilarity = similarity;
      focusLine = textLine;
    }
  });
  return { candidate, score: weights === 0 ? 0 : total / weights, focusLine, reading };
}

// ---- the span a placement covers ----

function spanOf(text: string, index: LineIndex, placement: Placement): ClosestMatch {
  const { candidate, reading } = placement;
  const lines = reading.lines;
  const lastLine = Math.min(index.lineCount - 1, candidate.startLine + lines.length - 1);
  const lineStart = index.lineStart(candidate.startLine);

  let start = candidate.prefixStart ?? Math.max(lineStart, candidate.hit - candidate.hitColumn);
  const first = firstTokenOf(lines[0].text);
  if (candidate.hitLine !== 0 && first) {
    const firstSpan = comparedSpan(index, candidate.startLine, undefined);
    const found = text.slice(firstSpan.start, firstSpan.end).indexOf(first.token);
    start = found === -1 ? lineStart : Math.max(lineStart, firstSpan.start + found - first.column);
  }

  const lastText = lines[lines.length - 1].text;
  let end: number;
  if (lines.length === 1) {
    end = Math.min(index.lineEnd(candidate.startLine), start + lastText.length);
  } else if (lastText.length === 0 && lastLine === candidate.startLine + lines.length - 1) {
    end = index.lineStart(lastLine);
  } else {
    end = Math.min(index.lineEnd(lastLine), index.lineStart(lastLine) + lastText.length);
  }
  end = Math.max(end, start);
  const focus = placement.focusLine === candidate.startLine ? start : index.lineStart(placement.focusLine);
  return { offset: start, length: end - start, focus, exact: false };
}

// ---- entry points ----

/**
 * The closest match with the line that differs least (`focus`), or undefined when
 * nothing in the text resembles the needle.
 */
export function locateClosestMatch(text: string, index: LineIndex, needle: string, search = new TextSearch(text, needle)): ClosestMatch | undefined {
  if (needle.length === 0 || text.length === 0) {
    return undefined;
  }
  const prefix = search.longestPrefix();
  if (prefix?.length === needle.length) {
    return { ...prefix, focus: prefix.offset, exact: true };
  }
  // A prefix of nothing but whitespace places nothing.
  const usefulPrefix = prefix && comparableKey(needle.slice(0, prefix.length)) !== '' ? prefix : undefined;
  const readings = needleReadings(needle);
  let best: Placement | undefined;
  let byPrefix: Placement | undefined;
  for (const reading of readings) {
    for (const candidate of collectCandidates(search, index, usefulPrefix, reading)) {
      const placement = scorePlacement(text, index, reading, candidate);
      if (!best || placement.score > best.score) {
        best = placement;
      }
      if (!byPrefix && candidate.prefixStart !== undefined) {
        byPrefix = placement;
      }
    }
  }
  // When no line resembles the needle, the longest prefix is still the closest match.
  const chosen = best && best.score >= MIN_USEFUL_SCORE ? best : byPrefix;
  return chosen && spanOf(text, index, chosen);
}

export function findClosestMatch(text: string, index: LineIndex, needle: string, search?: TextSearch): TextSpan | undefined {
  const closest = locateClosestMatch(text, index, needle, search);
  return closest && { offset: closest.offset, length: closest.length };
}
