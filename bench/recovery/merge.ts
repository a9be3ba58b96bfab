/**
 * A reader's way to carry its own change over to the text the file really has: a
 * three-way merge of lines. `base` is the old_string the reader wrote, `ours` the file
 * text it now knows stands there, `theirs` the new_string it wrote. Lines the reader
 * left alone take the file's text; lines it changed or added keep its text, with their
 * indentation translated the way the file's indentation differs from the reader's.
 * This is what an agent does by hand once it sees the real lines; it knows nothing of
 * the intended result.
 */

import { commonSubsequence } from '../../src/core/index';

type Pair = [number, number];

/** Above this many cells (characters of one side by the other), a line is not merged character by character. */
const MAX_CHARACTER_CELLS = 4_000_000;

/** A line reduced to what survives whitespace and look-alike differences. */
export function lineKey(line: string): string {
  return line
    .normalize('NFC')
    .replace(/[\u2018\u2019\u201a\u201b]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\s\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]+/g, ' ')
    .trim();
}

/** Pairs of a longest common subsequence under `same`, in order. */
export function commonLines(a: readonly string[], b: readonly string[], same: (x: string, y: string) => boolean): Pair[] {
  return commonSubsequence(a.length, b.length, (i, j) => same(a[i], b[j]));
}

/** A run of base lines [from, to) that one side replaced with `lines` (to === from: an insertion). */
interface Hunk {
  readonly from: number;
  readonly to: number;
  readonly lines: readonly string[];
}

function hunksOf(baseCount: number, side: readonly string[], pairs: readonly Pair[]): Hunk[] {
  const hunks: Hunk[] = [];
  let base = 0;
  let other = 0;
  for (const [b, s] of [...pairs, [baseCount, side.length] as Pair]) {
    if (b > base || s > other) {
      hunks.push({ from: base, to: b, lines: side.slice(other, s) });
    }
    base = b + 1;
    other = s + 1;
  }
  return hunks;
}

const indentOf = (line: string): string => /^[ \t]*/.exec(line)?.[0] ?? '';

/** How the file's indentation differs from the reader's, learned from lines both have. */
function indentTranslator(pairs: readonly Pair[], base: readonly string[], ours: readonly string[]): (line: string) => string {
  const known = new Map<string, string>();
  let spacesPerTab = 0;
  // Trailing whitespace the reader wrote and the file does not have goes from its new lines too.
  const trailing = /[ \t]+$/;
  const dropTrailing = pairs.some(([b, o]) => trailing.test(base[b]) && !trailing.test(ours[o]));
  const end = (line: string): string => (dropTrailing ? line.replace(trailing, '') : line);
  for (const [b, o] of pairs) {
    if (base[b].trim() === '') {
      continue;
    }
    const from = indentOf(base[b]);
    const to = indentOf(ours[o]);
    known.set(from, to);
    const tabs = to.length - to.replace(/\t/g, '').length;
    if (tabs > 0 && !from.includes('\t') && spacesPerTab === 0) {
      spacesPerTab = from.length / tabs;
    }
  }
  return (line) => end(reindent(line));

  function reindent(line: string): string {
    const indent = indentOf(line);
    if (known.has(indent)) {
      return (known.get(indent) ?? '') + line.slice(indent.length);
    }
    // The longest known indentation this one starts with, and the rest converted like it.
    const prefix = [...known.keys()].filter((from) => indent.startsWith(from)).sort((x, y) => y.length - x.length)[0];
    if (prefix === undefined) {
      return line;
    }
    let rest = indent.slice(prefix.length);
    if (spacesPerTab > 0) {
      rest = rest.replace(new RegExp(` {${spacesPerTab}}`, 'g'), '\t');
    }
    return (known.get(prefix) ?? '') + rest + line.slice(indent.length);
  }
}

/** Lines of a text and the break that joins them (the text's first break, or LF). */
export function splitText(text: string): { lines: string[]; eol: string } {
  return { lines: text.split(/\r\n|\n/), eol: /\r\n/.test(text) ? '\r\n' : '\n' };
}

/**
 * `theirs` carried over from `base` to `ours`; `ours` keeps its line endings. Undefined when
 * the reader's change and the file's difference touch the same characters of a line, or
 * change the same lines into different numbers of lines: there no merge can tell what to keep.
 */
export function mergeChange(base: string, ours: string, theirs: string, knownPairs?: readonly Pair[]): string | undefined {
  const b = splitText(base).lines;
  const { lines: o, eol } = splitText(ours);
  const t = splitText(theirs).lines;
  // Pairs the reader was told (a diagnosis' line map) may join lines whose text differs; those are merged character by character.
  const oursPairs = knownPairs ? [...knownPairs] : commonLines(b, o, (x, y) => lineKey(x) === lineKey(y));
  const theirsPairs = commonLines(b, t, (x, y) => x === y);
  const oursOf = new Map(oursPairs);
  const translate = indentTranslator(oursPairs, b, o);
  const oursHunks = hunksOf(b.length, o, oursPairs);
  const theirsHunks = hunksOf(b.length, t, theirsPairs);
  const out: string[] = [];
  let line = 0;
  let oh = 0;
  let th = 0;
  for (;;) {
    // Insertions before this base line: the file's lines first, then the reader's.
    if (oursHunks[oh]?.from === line && oursHunks[oh].to === line) {
      out.push(...oursHunks[oh++].lines);
    }
    if (theirsHunks[th]?.from === line && theirsHunks[th].to === line) {
      out.push(...theirsHunks[th++].lines.map(translate));
    }
    if (line >= b.length) {
      break;
    }
    const ourHunk = oursHunks[oh]?.from === line ? oursHunks[oh] : undefined;
    const theirHunk = theirsHunks[th]?.from === line ? theirsHunks[th] : undefined;
    if (ourHunk && theirHunk) {
      // Both sides changed these lines: line for line, only the reader's own change goes onto the file's line.
      const merged = mergeLines(b.slice(line, ourHunk.to), ourHunk, theirHunk);
      if (merged === undefined) {
        return undefined;
      }
      out.push(...merged);
      line = ourHunk.to;
    } else if (ourHunk) {
      out.push(...ourHunk.lines);
      line = ourHunk.to;
    } else if (theirHunk) {
      const lineForLine = theirHunk.to - theirHunk.from === theirHunk.lines.length;
      const changed = theirHunk.lines.map((theirLine, k) => {
        const mapped = oursOf.get(line + k);
        return lineForLine && mapped !== undefined && lineKey(o[mapped]) !== lineKey(b[line + k]) ? mergeCharacters(b[line + k], o[mapped], theirLine) : translate(theirLine);
      });
      if (changed.some((merged) => merged === undefined)) {
        return undefined;
      }
      out.push(...(changed as string[]));
      line = theirHunk.to;
    } else {
      const mapped = oursOf.get(line);
      out.push(mapped === undefined ? translate(b[line]) : o[mapped]);
      line++;
    }
    // Hunks that began inside the lines just consumed are part of the same change.
    while (oursHunks[oh] && oursHunks[oh].from < line) {
      oh++;
    }
    while (theirsHunks[th] && theirsHunks[th].from < line) {
      th++;
    }
  }
  return out.join(eol);
}

/** The base lines both sides replaced, merged line by line; undefined unless both kept the line count and no change overlaps. */
function mergeLines(baseLines: readonly string[], ours: Hunk, theirs: Hunk): string[] | undefined {
  if (ours.to !== theirs.to || ours.lines.length !== baseLines.length || theirs.lines.length !== baseLines.length) {
    return undefined;
  }
  const merged: string[] = [];
  for (const [at, baseLine] of baseLines.entries()) {
    const line = mergeCharacters(baseLine, ours.lines[at], theirs.lines[at]);
    if (line === undefined) {
      return undefined;
    }
    merged.push(line);
  }
  return merged;
}

/** A character-level three-way merge of one line: both sides' changes, or undefined when they overlap or touch. */
export function mergeCharacters(base: string, ours: string, theirs: string): string | undefined {
  const oursHunks = characterHunks(base, ours);
  const theirsHunks = characterHunks(base, theirs);
  if (oursHunks === undefined || theirsHunks === undefined) {
    return undefined;
  }
  if (oursHunks.some((o) => theirsHunks.some((t) => o.from <= t.to && t.from <= o.to))) {
    return undefined;
  }
  const hunks = [...oursHunks, ...theirsHunks].sort((x, y) => x.from - y.from);
  let out = '';
  let at = 0;
  for (const hunk of hunks) {
    out += base.slice(at, hunk.from) + hunk.text;
    at = hunk.to;
  }
  return out + base.slice(at);
}

/** The stretches [from, to) of `base` that `side` replaced with `text`. */
function characterHunks(base: string, side: string): { from: number; to: number; text: string }[] | undefined {
  const { head, tail } = sharedEnds(base, side);
  const baseMiddle = base.slice(head, base.length - tail);
  const sideMiddle = side.slice(head, side.length - tail);
  if (baseMiddle.length * sideMiddle.length > MAX_CHARACTER_CELLS) {
    return undefined;
  }
  const pairs = commonSubsequence(baseMiddle.length, sideMiddle.length, (i, j) => baseMiddle[i] === sideMiddle[j]);
  return hunksOf(baseMiddle.length, [...sideMiddle], pairs).map((hunk) => ({ from: head + hunk.from, to: head + hunk.to, text: hunk.lines.join('') }));
}

/** How many characters two texts share at their start (head) and, after that, at their end (tail). */
export function sharedEnds(before: string, after: string): { head: number; tail: number } {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) {
    head++;
  }
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) {
    tail++;
  }
  return { head, tail };
}
