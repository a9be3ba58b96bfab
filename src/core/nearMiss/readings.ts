/**
 * Causes that show as a whole-needle rewrite rather than line by line: line-number
 * prefixes copied from a read tool, a diff's line markers copied from a diff view,
 * HTML or JSON escaping, and Unicode normalisation (NFC against NFD). Each reading undoes one such change and asks
 * whether the result occurs verbatim: one indexOf scan per reading that applies, and
 * the diagnosis then states where, never the rewritten text.
 */
import type { TextSpan } from './closestMatch';
import type { TextSearch } from './textSearch';
import type { LocatedDiagnosis } from './describe';
import type { LineIndex } from '../text/lineIndex';
import type { Diagnosis, DiagnosisKind } from '../contract/schemas';

interface Reading {
  readonly kind: DiagnosisKind;
  /** The needle with this one change undone, or undefined when the change is not there. */
  readonly undo: (needle: string) => string | undefined;
  readonly explain: (needle: string, line: number, newString: string) => string;
  /** Fields the diagnosis adds about new_string. */
  readonly about?: (newString: string) => Partial<Diagnosis>;
}

/** A read tool's line-number gutter: "  12\t", "12: ", "12 | ", "12→". */
const LINE_NUMBER_PREFIX = /^[ \t]*(\d+)(?:\t|→|: ?| ?\| ?)/;

function withoutLineNumbers(needle: string): string | undefined {
  const parts = needle.split(/(\r\n|\r|\n)/);
  let expected: number | undefined;
  let numbered = 0;
  for (let at = 0; at < parts.length; at += 2) {
    if (parts[at] === '' && at === parts.length - 1) {
      continue;
    }
    const prefix = LINE_NUMBER_PREFIX.exec(parts[at]);
    const number = prefix ? Number(prefix[1]) : NaN;
    // Consecutive numbers on every line: a gutter, not content that happens to start with digits.
    if (!prefix || (expected !== undefined && number !== expected)) {
      return undefined;
    }
    expected = number + 1;
    numbered++;
    parts[at] = parts[at].slice(prefix[0].length);
  }
  return numbered > 0 ? parts.join('') : undefined;
}

const DIFF_MARKER = /^[ +-]/;

/** The lines of a text and the breaks between them, alternating (as split with a capturing group). */
function linesAndBreaks(text: string): string[] {
  return text.split(/(\r\n|\r|\n)/);
}

/**
 * The needle without the marker a diff puts before each line (" " for context, "-" for a
 * removed line, "+" for an added one): every line that is not empty starts with one, and at
 * least one is a "-" or "+" line (context alone reads as indentation, which the walk names).
 */
function withoutDiffMarkers(needle: string): string | undefined {
  const parts = linesAndBreaks(needle);
  let changed = false;
  for (let at = 0; at < parts.length; at += 2) {
    if (parts[at] === '') {
      continue;
    }
    if (!DIFF_MARKER.test(parts[at])) {
      return undefined;
    }
    changed ||= parts[at][0] !== ' ';
    parts[at] = parts[at].slice(1);
  }
  return changed ? parts.join('') : undefined;
}

/** Whether new_string is written as a diff's new side too: every line marked, and at least one "+" line. */
function hasDiffMarkers(newString: string): boolean {
  const lines = linesAndBreaks(newString).filter((_part, at) => at % 2 === 0 && _part !== '');
  return lines.length > 0 && lines.every((line) => DIFF_MARKER.test(line)) && lines.some((line) => line.startsWith('+'));
}

const HTML_ENTITY = /&(?:lt|gt|amp|quot|apos|#39|#\d+|#x[0-9a-fA-F]+);/g;
const NAMED_ENTITIES: Readonly<Record<string, string>> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&apos;': "'" };

function htmlDecoded(needle: string): string | undefined {
  if (needle.search(HTML_ENTITY) === -1) {
    return undefined;
  }
  return needle.replace(HTML_ENTITY, (entity) => {
    const named = NAMED_ENTITIES[entity];
    if (named) {
      return named;
    }
    const code = entity[2] === 'x' ? parseInt(entity.slice(3, -1), 16) : parseInt(entity.slice(2, -1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

const JSON_ESCAPE = /\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/g;
const JSON_SIMPLE: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The needle read as the body of a JSON string: one level of escaping undone, \\n becoming \n. */
function jsonDecoded(needle: string): string | undefined {
  if (!/\\["\\]|\\u[0-9a-fA-F]{4}/.test(needle)) {
    return undefined;
  }
  return needle.replace(JSON_ESCAPE, (_escape, what: string) => JSON_SIMPLE[what] ?? String.fromCharCode(parseInt(what.slice(1), 16)));
}

/**
 * The needle as the file would hold it inside a JSON string (a notebook cell, code kept
 * in a JSON file): quotes, backslashes, tabs and line breaks escaped.
 */
function jsonEncoded(needle: string): string | undefined {
  const encoded = JSON.stringify(needle).slice(1, -1);
  return encoded === needle ? undefined : encoded;
}

function normalized(form: 'NFC' | 'NFD'): (needle: string) => string | undefined {
  return (needle) => {
    const other = needle.normalize(form);
    return other === needle ? undefined : other;
  };
}

const READINGS: readonly Reading[] = [
  {
    kind: 'LINE_NUMBER_PREFIX',
    undo: withoutLineNumbers,
    explain: (_needle, line) => `every line of old_string starts with a line number, as a read tool shows it, which is not part of the file; without them old_string occurs at line ${line}`,
  },
  {
    kind: 'DIFF_MARKERS',
    undo: withoutDiffMarkers,
    explain: (_needle, line, newString) => `every line of old_string starts with a diff's marker (" " for context, "-" for a removed line, "+" for an added one), copied from a diff or patch view; the markers are not part of the file, and without them old_string occurs at line ${line}. ${hasDiffMarkers(newString) ? 'new_string carries the markers too: take them off its lines as well' : 'new_string carries no markers'}`,
    about: (newString) => ({ markers_in_new_string: hasDiffMarkers(newString) }),
  },
  {
    kind: 'ESCAPED_TEXT',
    undo: jsonDecoded,
    explain: (_needle, line) => `old_string is JSON-escaped (\\", \\\\ or \\uXXXX written for the characters, \\\\n for \\n); with one level of escaping undone it occurs at line ${line}`,
  },
  {
    kind: 'ESCAPED_TEXT',
    undo: jsonEncoded,
    explain: (_needle, line) => `the file holds this text JSON-encoded, inside a JSON string (a notebook cell, code kept in a JSON file): with its quotes, backslashes and line breaks escaped (\\", \\\\, \\n), old_string occurs at line ${line}; old_string and new_string must be written in that encoded form`,
  },
  {
    kind: 'ESCAPED_TEXT',
    undo: htmlDecoded,
    explain: (_needle, line) => `old_string holds HTML escapes (&lt;, &gt;, &amp;, &quot;) where the file has the characters themselves; decoded, it occurs at line ${line}`,
  },
  {
    kind: 'UNICODE_NORMALIZATION',
    undo: normalized('NFC'),
    explain: (_needle, line) => `old_string writes accented letters decomposed (NFD: a letter then a combining mark) where the file has them composed (NFC); they look identical. Composed, old_string occurs at line ${line}`,
  },
  {
    kind: 'UNICODE_NORMALIZATION',
    undo: normalized('NFD'),
    explain: (_needle, line) => `old_string writes accented letters composed (NFC) where the file has them decomposed (NFD: a letter then a combining mark); they look identical. Decomposed, old_string occurs at line ${line}`,
  },
];

/** Where the needle, with one change undone, occurs; the text's CRLF endings are tried for decoded breaks. */
function occurrenceOf(search: TextSearch, candidate: string): TextSpan | undefined {
  let at = search.indexOf(candidate);
  if (at === -1 && candidate.includes('\n') && search.indexOf('\r\n') !== -1) {
    const crlf = candidate.replace(/\r?\n/g, '\r\n');
    at = search.indexOf(crlf);
    return at === -1 ? undefined : { offset: at, length: crlf.length };
  }
  return at === -1 ? undefined : { offset: at, length: candidate.length };
}

/** old_strings longer than this are not searched for as a list of JSON strings. */
const MAX_JSON_LINES_CHARS = 16 * 1024;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where the text holds the needle as a notebook cell's source does: each line its own JSON
 * string ending in an escaped \n, the strings separated by a comma and whitespace
 * (`"a = 1\n",` then `"b = 2"` on the next line). One regular-expression scan.
 */
function jsonLinesOccurrence(search: TextSearch, needle: string): TextSpan | undefined {
  const lines = needle.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') {
    lines.pop();
  }
  if (lines.length < 2 || needle.length > MAX_JSON_LINES_CHARS) {
    return undefined;
  }
  const bodies = lines.map((line, at) => JSON.stringify(at < lines.length - 1 ? `${line}\n` : line).slice(1, -1));
  // Every match starts with the first line's string, literally, so the search starts where that can first occur.
  const found = search.firstMatch(new RegExp(bodies.map(escapeRegExp).join('"\\s*,\\s*"')), bodies[0]);
  return found ? { offset: found.index, length: found[0].length } : undefined;
}

/** The first reading whose undone needle occurs verbatim, as a located diagnosis. */
export function rewrittenMiss(search: TextSearch, index: LineIndex, needle: string, newString: string): LocatedDiagnosis | undefined {
  for (const reading of READINGS) {
    const candidate = reading.undo(needle);
    const span = candidate === undefined || candidate === '' ? undefined : occurrenceOf(search, candidate);
    if (span) {
      const { line, column } = index.position(span.offset);
      return { diagnosis: { kind: reading.kind, detail: reading.explain(needle, line, newString), line, column, ...reading.about?.(newString) }, span, focus: span.offset };
    }
  }
  const cell = jsonLinesOccurrence(search, needle);
  if (cell) {
    const { line, column } = index.position(cell.offset);
    const lastLine = index.position(cell.offset + cell.length).line;
    const detail = `the file holds this text JSON-encoded, one JSON string per line (a notebook cell's "source" list): each line of old_string, escaped (\\", \\\\) and ending in \\n, is one string of the list from line ${line} to line ${lastLine}; old_string and new_string must be written in that form, the strings separated as the file separates them`;
    return { diagnosis: { kind: 'ESCAPED_TEXT', detail, line, column }, span: cell, focus: cell.offset };
  }
  return undefined;
}
