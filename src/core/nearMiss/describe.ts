/**
 * The words of a walk-based diagnosis: which characters, which whitespace, which
 * line of old_string against which line of the file.
 */
import { isSpaceLike, lookalikeOf } from './lookalikes';
import type { Difference, NearMissKind } from './lineWalk';
import type { NearMiss } from './walkMiss';
import type { LineIndex } from '../text/lineIndex';
import type { CharacterDifference, Diagnosis } from '../contract/schemas';
import type { TextSpan } from './closestMatch';

/** A diagnosis and the text it points at: the near miss, or the new_string already present. */
export interface LocatedDiagnosis {
  readonly diagnosis: Diagnosis;
  readonly span: TextSpan;
  /** Offset of the first difference the detail names. */
  readonly focus: number;
}

const PRECEDENCE: readonly NearMissKind[] = ['EOL_MISMATCH', 'ESCAPED_NEWLINES', 'UNICODE_LOOKALIKE', 'INDENTATION', 'WHITESPACE_ONLY'];

function codePointLabel(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

const ASCII_NAMES: ReadonlyMap<string, string> = new Map([
  ["'", "an ASCII apostrophe (')"],
  ['"', 'an ASCII double quote (")'],
  ['-', 'an ASCII hyphen-minus (-)'],
  ['...', 'three ASCII full stops (...)'],
  ['.', 'an ASCII full stop (.)'],
  ['/', 'an ASCII slash (/)'],
  [';', 'an ASCII semicolon (;)'],
  [' ', 'a space'],
  ['\t', 'a tab'],
]);

/** Names the characters of a short piece of text, e.g. "U+2019 RIGHT SINGLE QUOTATION MARK". */
function describeCharacters(piece: string): string {
  if (piece === '') {
    return 'nothing';
  }
  const asciiName = ASCII_NAMES.get(piece);
  if (asciiName) {
    return asciiName;
  }
  const code = piece.charCodeAt(0);
  const lookalike = lookalikeOf(code);
  if (piece.length === 1 && lookalike) {
    return `${codePointLabel(code)} ${lookalike.name}`;
  }
  if (piece.length > 1 && /^[\x21-\x7e]+$/.test(piece)) {
    return `the ASCII characters "${piece}"`;
  }
  return piece.length === 1 ? `"${piece}" (${codePointLabel(code)})` : `"${piece}"`;
}

/** Names a run of whitespace, e.g. "2 spaces", "a tab then 4 spaces", "no whitespace". */
export function describeWhitespace(run: string): string {
  if (run === '') {
    return 'no whitespace';
  }
  const groups: string[] = [];
  for (let at = 0; at < run.length;) {
    let end = at;
    while (end < run.length && run[end] === run[at]) {
      end++;
    }
    const count = end - at;
    const name = run[at] === ' ' ? 'space' : run[at] === '\t' ? 'tab' : describeCharacters(run[at]);
    const plain = run[at] === ' ' || run[at] === '\t';
    groups.push(plain ? (count === 1 ? `a ${name}` : `${count} ${name}s`) : count === 1 ? name : `${count} × ${name}`);
    at = end;
  }
  return groups.join(' then ');
}

function describeBreak(lineBreak: string): string {
  return lineBreak === 'CR' ? 'a lone CR' : lineBreak;
}

function describe(difference: Difference, index: LineIndex): string {
  const { line, column } = index.position(difference.at);
  const needleLine = `line ${difference.needleLine + 1} of old_string`;
  switch (difference.kind) {
    case 'EOL_MISMATCH':
      return `file line ${line} ends with ${describeBreak(difference.fileText)} where old_string has ${describeBreak(difference.needleText)} after its line ${difference.needleLine + 1}; the file mixes line endings`;
    case 'ESCAPED_NEWLINES': {
      const { breaks, tabs } = difference.escapes ?? { breaks: 0, tabs: 0 };
      const parts = [breaks > 0 ? `${breaks} literal \\n` : '', tabs > 0 ? `${tabs} literal \\t` : ''].filter((part) => part !== '');
      return `old_string contains ${parts.join(' and ')} (a backslash followed by a letter) where the file has real ${[breaks > 0 ? 'line breaks' : '', tabs > 0 ? 'tabs' : ''].filter((part) => part !== '').join(' and ')}; the text it was meant to match starts at file line ${line}`;
    }
    case 'UNICODE_LOOKALIKE': {
      const isSpace = (piece: string): boolean => piece !== '' && [...piece].every((ch) => isSpaceLike(ch.charCodeAt(0)));
      const show = (piece: string): string => (isSpace(piece) ? describeWhitespace(piece) : describeCharacters(piece));
      return `${needleLine} has ${show(difference.needleText)} where the file has ${show(difference.fileText)} at line ${line}, column ${column}`;
    }
    case 'INDENTATION':
      return `${needleLine} is indented with ${describeWhitespace(difference.needleText)} where the file has ${describeWhitespace(difference.fileText)} at line ${line}`;
    case 'WHITESPACE_ONLY':
      if (difference.where === 'end of text') {
        return `old_string ends with a line break, but the file ends at line ${line} without one`;
      }
      return difference.where === 'line end'
        ? `${needleLine} ends with ${describeWhitespace(difference.needleText)} where file line ${line} ends with ${describeWhitespace(difference.fileText)}`
        : `${needleLine} has ${describeWhitespace(difference.needleText)} where the file has ${describeWhitespace(difference.fileText)} at line ${line}, column ${column}`;
  }
}

const KIND_WORDS: Readonly<Record<NearMissKind, string>> = {
  EOL_MISMATCH: 'line endings',
  ESCAPED_NEWLINES: 'literal escapes',
  UNICODE_LOOKALIKE: 'look-alike characters',
  INDENTATION: 'indentation',
  WHITESPACE_ONLY: 'other whitespace',
};

/** The kind that leads by precedence, named at its first difference. */
export function diagnosisOf(nearMiss: NearMiss, index: LineIndex): LocatedDiagnosis | undefined {
  const kinds = PRECEDENCE.filter((kind) => nearMiss.differences.some((d) => d.kind === kind));
  if (kinds.length === 0) {
    return undefined;
  }
  const [kind, ...others] = kinds;
  const ofKind = nearMiss.differences.filter((d) => d.kind === kind);
  let detail = describe(ofKind[0], index);
  if (ofKind.length > 1) {
    detail += ` (${ofKind.length - 1} more difference${ofKind.length > 2 ? 's' : ''} of this kind)`;
  }
  if (others.length > 0) {
    detail += `; it also differs in ${others.map((other) => KIND_WORDS[other]).join(', ')}`;
  }
  const { line, column } = index.position(ofKind[0].at);
  const listed = listedDifferences(nearMiss, index);
  return {
    diagnosis: { kind, detail, line, column, old_string_line: ofKind[0].needleLine + 1, ...(listed ? { differences: listed } : {}) },
    span: nearMiss.span,
    focus: ofKind[0].at,
  };
}

/** Kinds whose differences are listed one by one: each is a stretch of one line a reader can copy. */
const LISTED_KINDS: ReadonlySet<NearMissKind> = new Set(['WHITESPACE_ONLY', 'UNICODE_LOOKALIKE', 'INDENTATION']);
const MAX_LISTED_DIFFERENCES = 32;

/**
 * Every difference of a near miss that only whitespace and look-alikes separate from old_string,
 * with both sides' text, so a reader can write its new_string the way the file has it. Undefined
 * when the near miss also differs in line breaks or escapes, or has too many differences to list.
 */
function listedDifferences(nearMiss: NearMiss, index: LineIndex): CharacterDifference[] | undefined {
  const listed = nearMiss.differences.filter((d) => d.where !== 'end of text');
  if (listed.length === 0 || listed.length > MAX_LISTED_DIFFERENCES || listed.some((d) => !LISTED_KINDS.has(d.kind))) {
    return undefined;
  }
  // A look-alike space that is also other whitespace is noted twice at one place: list it once.
  const seen = new Set<number>();
  // In old_string's order: a first line is walked from its end, so its differences arrive last first.
  const inOrder = [...listed].sort((x, y) => x.needleLine - y.needleLine || x.needleColumn - y.needleColumn);
  return inOrder.filter((d) => !seen.has(d.at) && seen.add(d.at)).map((d) => {
    const { line, column } = index.position(d.at);
    const aligned = alignedColumn(index, line - 1, column - 1, d.fileText);
    return {
      old_string_line: d.needleLine + 1,
      old_string_column: d.needleColumn + 1,
      line,
      column,
      old_string_has: d.needleText,
      file_has: d.fileText,
      ...(aligned !== undefined ? { aligned_column: aligned } : {}),
    };
  });
}

/**
 * The 1-based column the character after a run of two or more spaces stands at, when the line
 * above or below also has a character there right after a space: the run pads text into columns.
 */
function alignedColumn(index: LineIndex, line: number, column: number, run: string): number | undefined {
  if (run.length < 2 || !/^ +$/.test(run)) {
    return undefined;
  }
  const next = column + run.length;
  const text = index.lineText(line);
  if (next >= text.length) {
    return undefined;
  }
  const startsColumn = (other: number): boolean => {
    if (other < 0 || other >= index.lineCount) {
      return false;
    }
    const neighbour = index.lineText(other);
    return next < neighbour.length && neighbour[next - 1] === ' ' && neighbour[next] !== ' ';
  };
  return startsColumn(line - 1) || startsColumn(line + 1) ? next + 1 : undefined;
}
