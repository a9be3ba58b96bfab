/**
 * Two readers that turn a failed edit into the next request, as an agent would.
 * Both are generic: they know the request they sent, what came back and, like an
 * agent, the place they meant to edit (a line they know is near it); never the
 * intended result.
 * - The envelope reader reads only the envelope's structured fields.
 * - The message reader sees only the message text, as most tools return it; it may
 *   re-read the file or list a directory (each costs a round) and work from that.
 */
import { nearestNames } from '../../src/core/index';
import { commonLines, lineKey, mergeChange, sharedEnds, splitText } from './merge';

export interface EditPair {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export interface EditRequest {
  file_path: string;
  edits: EditPair[];
}

/** A request: one file (sent as multi_edit) or several (sent as multi_edit_files). */
export interface Request {
  files: EditRequest[];
}

/** What a tool returned: always a message; the envelope only where the tool has one. */
export interface ToolReply {
  readonly success: boolean;
  readonly message: string;
  readonly envelope?: Envelope;
}

/** The envelope fields the envelope reader uses (a subset of the ErrorEnvelope). */
export interface Envelope {
  readonly error_code?: string;
  readonly file_index?: number;
  readonly edit_index?: number;
  readonly diagnosis?: Diagnosis;
  readonly context?: Context;
  readonly edit_status?: readonly { edit_index: number; file_index?: number; status: string; error_code?: string; diagnosis?: Diagnosis; context?: Context }[];
  readonly next_action?: { action: string; files_to_fix?: readonly { file_index: number; error_code?: string; context?: Context }[] };
}

/** Where old_string and the file differ in whitespace or look-alike characters, and what each has there. */
interface CharacterDifference {
  readonly old_string_line: number;
  readonly old_string_column: number;
  readonly old_string_has: string;
  readonly file_has: string;
  readonly aligned_column?: number;
}

interface FileLine {
  readonly line: number;
  readonly text: string;
}

interface MatchLocation {
  readonly line: number;
  readonly start_line?: number;
  readonly snippet: string;
  readonly distinct_above?: FileLine;
  readonly distinct_below?: FileLine;
}

interface Diagnosis {
  readonly kind: string;
  readonly differences?: readonly CharacterDifference[];
  readonly other_file?: string;
  readonly parts?: readonly { first_old_string_line: number; last_old_string_line: number; line: number }[];
  readonly line_map?: readonly { old_string_line: number; line: number; last_line?: number; differs?: boolean }[];
  readonly markers_in_new_string?: boolean;
  readonly near_match?: { start_line: number; start_column: number; end_line: number; end_column: number };
}

interface Context {
  readonly snippet?: string;
  readonly start_line?: number;
  readonly match_locations?: readonly MatchLocation[];
  readonly match_lines?: readonly number[];
  readonly nearby_names?: readonly string[];
  readonly existing_path?: string;
}

/** What the agent knows besides the tool's reply: a line near the place it meant. */
export interface AgentKnowledge {
  readonly anchor?: string;
}

export type ReaderStep =
  | { readonly kind: 'send'; readonly request: Request }
  | { readonly kind: 'read'; readonly paths: readonly string[] }
  | { readonly kind: 'list'; readonly directories: readonly string[] }
  | { readonly kind: 'done'; readonly dropped: number }
  | { readonly kind: 'give_up'; readonly why: string };

/** What a reader has seen since its last request. */
export interface Observations {
  /** The text of each file read, by path. */
  readonly fileTexts?: ReadonlyMap<string, string>;
  /** The names in each directory listed, by directory. */
  readonly names?: ReadonlyMap<string, readonly string[]>;
}

export interface Reader {
  readonly name: string;
  next(request: Request, reply: ToolReply, knows: AgentKnowledge, seen: Observations): ReaderStep;
}

/** The request without the edits the reader dropped, and without files left with no edit. */
function remaining(request: Request, edits: readonly (readonly (EditPair | undefined)[])[]): Request {
  return {
    files: request.files
      .map((file, at) => ({ ...file, edits: edits[at].filter((edit): edit is EditPair => edit !== undefined) }))
      .filter((file) => file.edits.length > 0),
  };
}

const directoryOf = (path: string): string => path.slice(0, path.lastIndexOf('/'));

const isMissingPath = (code: string | undefined): boolean => code === 'FILE_NOT_FOUND' || code === 'RELATIVE_PATH';

// ---- shared moves ----

/** The text of a 1-based line/column range, cut from a raw snippet that starts at `startLine`. */
function textOfRange(snippet: string, startLine: number, range: NonNullable<Diagnosis['near_match']>): string | undefined {
  const lines = snippet.split('\n');
  const first = range.start_line - startLine;
  const last = range.end_line - startLine;
  if (first < 0 || last >= lines.length) {
    return undefined;
  }
  let offset = 0;
  for (let at = 0; at < first; at++) {
    offset += lines[at].length + 1;
  }
  let end = 0;
  for (let at = 0; at < last; at++) {
    end += lines[at].length + 1;
  }
  return snippet.slice(offset + range.start_column - 1, end + range.end_column - 1);
}

const LINE_NUMBER = /^[ \t]*\d+(?:\t|→|: ?| ?\| ?)/;

/** A text without the marker a diff puts first on each line that is not empty. */
const withoutDiffMarkers = (text: string): string => text.split('\n').map((line) => (/^[ +-]/.test(line) ? line.slice(1) : line)).join('\n');

/** new_string undone the way the diagnosis says old_string must be undone; `fileText` is the near match. */
function undoInNewString(kind: string, text: string, fileText: string): string {
  switch (kind) {
    case 'UNICODE_NORMALIZATION':
      return text.normalize(fileText === fileText.normalize('NFD') ? 'NFD' : 'NFC');
    case 'LINE_NUMBER_PREFIX':
      return text.split('\n').map((line) => line.replace(LINE_NUMBER, '')).join('\n');
    case 'ESCAPED_TEXT':
      return /&(?:lt|gt|amp|quot);/.test(text)
        ? text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
        : text.replace(/\\(["\\/nrt])/g, (_m, c: string) => ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[c] ?? c);
    case 'ESCAPED_NEWLINES':
      return text.replace(/\\r\\n|\\n/g, '\n').replace(/\\t/g, '\t');
    default:
      return text;
  }
}

/** The lines of a match location's snippet and the line of its first. */
function locationLines(location: MatchLocation): { lines: string[]; first: number } {
  const lines = splitText(location.snippet).lines;
  return { lines, first: location.start_line ?? Math.max(1, location.line - 3) };
}

/** old_string grown by `up` lines above and `down` lines below, from the lines around its match. */
function grownEdit(edit: EditPair, lines: readonly string[], matchIndex: number, up: number, down = up): EditPair | undefined {
  const oldLines = edit.old_string.split('\n').length;
  const above = lines.slice(Math.max(0, matchIndex - up), matchIndex);
  const below = lines.slice(matchIndex + oldLines, matchIndex + oldLines + down);
  if (above.length === 0 && below.length === 0) {
    return undefined;
  }
  const wholeLines = lines.slice(matchIndex, matchIndex + oldLines).join('\n');
  if (!wholeLines.includes(edit.old_string)) {
    return undefined;
  }
  const newWhole = wholeLines.replace(edit.old_string, () => edit.new_string);
  return {
    old_string: [...above, wholeLines, ...below].join('\n'),
    new_string: [...above, newWhole, ...below].join('\n'),
  };
}

/**
 * An old_string that stopped inside a word, grown over the file's text (the near
 * match: old_string and the rest of its line) up to where new_string's own ending
 * stands there, as an agent lines its edit up by eye; new_string stays as written.
 */
function grownOverCut(edit: EditPair, nearText: string): EditPair | undefined {
  const { old_string: oldString, new_string: newString } = edit;
  if (nearText.startsWith(oldString)) {
    const after = nearText.slice(oldString.length);
    for (let length = Math.min(newString.length, after.length); length > 0; length--) {
      const at = after.indexOf(newString.slice(-length));
      if (at !== -1) {
        return { ...edit, old_string: oldString + after.slice(0, at + length) };
      }
    }
  }
  if (nearText.endsWith(oldString)) {
    const before = nearText.slice(0, nearText.length - oldString.length);
    for (let length = Math.min(newString.length, before.length); length > 0; length--) {
      const at = before.lastIndexOf(newString.slice(0, length));
      if (at !== -1) {
        return { ...edit, old_string: before.slice(at) + oldString };
      }
    }
  }
  return undefined;
}

/** new_string's lines put in the file's order, as the line map says old_string's lines stand there. */
function reorderedEdit(edit: EditPair, nearText: string, lineMap: NonNullable<Diagnosis['line_map']>): EditPair | undefined {
  const newLines = edit.new_string.split('\n');
  if (newLines.length !== lineMap.length) {
    return undefined;
  }
  const top = Math.min(...lineMap.map((entry) => entry.line));
  const ordered: string[] = [];
  lineMap.forEach((entry, at) => {
    ordered[entry.line - top] = newLines[at];
  });
  return { ...edit, old_string: nearText, new_string: ordered.join('\n') };
}

/**
 * The line map of a CONTENT_MISMATCH as (old_string line, near-match line) pairs, 0-based: the lines each
 * side has one for one. Lines the file joined or split are left out, so the merge takes the file's lines there.
 */
function mappedPairs(diagnosis: Diagnosis): [number, number][] | undefined {
  const first = diagnosis.near_match?.start_line;
  if (!diagnosis.line_map || first === undefined) {
    return undefined;
  }
  const shared = (line: number): boolean => diagnosis.line_map?.filter((entry) => entry.line === line).length === 1;
  return diagnosis.line_map.filter((entry) => entry.last_line === undefined && shared(entry.line)).map((entry) => [entry.old_string_line - 1, entry.line - first]);
}

/** One edit per part of old_string, new_string cut at the same lines (it must have as many). */
function splitEdit(edit: EditPair, parts: NonNullable<Diagnosis['parts']>): { split: EditPair[] } | undefined {
  const oldLines = edit.old_string.split('\n');
  const newLines = edit.new_string.split('\n');
  if (oldLines.length !== newLines.length) {
    return undefined;
  }
  const cut = (lines: string[], part: (typeof parts)[number]): string => lines.slice(part.first_old_string_line - 1, part.last_old_string_line).join('\n');
  return { split: parts.map((part) => ({ old_string: cut(oldLines, part), new_string: cut(newLines, part) })) };
}

/**
 * The reader's change (old_string to new_string) made in the file's own text, which has
 * the same characters with other whitespace: the unchanged head and tail are found in
 * the file by counting their non-whitespace characters, and the changed middle goes between.
 */
function spliceIgnoringWhitespace(oldString: string, newString: string, fileText: string): string {
  const { head, tail } = sharedEnds(oldString, newString);
  const solid = (text: string): number => text.replace(/\s/g, '').length;
  /** The offset in fileText after `count` non-whitespace characters. */
  const after = (count: number): number => {
    let seen = 0;
    let at = 0;
    while (seen < count && at < fileText.length) {
      if (!/\s/.test(fileText[at])) {
        seen++;
      }
      at++;
    }
    return at;
  };
  const from = after(solid(oldString.slice(0, head)));
  const to = after(solid(fileText) - solid(oldString.slice(oldString.length - tail)));
  return fileText.slice(0, from) + newString.slice(head, newString.length - tail) + fileText.slice(Math.max(from, to));
}

/**
 * The match the agent meant, picked by the line it knows is near its target: first among the
 * lines that tell each match apart, then in the snippets, and only when one location holds it
 * (several would be a guess). old_string grows up to the line that makes it occur once.
 */
function fixAmbiguous(edit: EditPair, locations: readonly MatchLocation[], knows: AgentKnowledge): Fix {
  const anchor = knows.anchor;
  if (anchor === undefined) {
    return 'the agent knows no line near its target';
  }
  const holds = (line: FileLine | undefined): boolean => line !== undefined && line.text.includes(anchor);
  const byDistinctLine = locations.filter((location) => holds(location.distinct_above) || holds(location.distinct_below));
  const bySnippet = locations.filter((location) => location.snippet.includes(anchor));
  const chosen = byDistinctLine.length === 1 ? byDistinctLine[0] : byDistinctLine.length === 0 && bySnippet.length === 1 ? bySnippet[0] : undefined;
  if (!chosen) {
    return bySnippet.length === 0 ? 'no match location holds the line the agent knows is near its target' : 'several match locations hold the line the agent knows, and nothing tells them apart';
  }
  const { lines, first } = locationLines(chosen);
  const matchIndex = chosen.line - first;
  const oldLineCount = edit.old_string.split('\n').length;
  const { distinct_above: above, distinct_below: below } = chosen;
  // Towards the line the agent knows when it is the distinct one, else towards the nearer distinct line.
  const useAbove = above !== undefined && (holds(above) || (!holds(below) && (below === undefined || chosen.line - above.line <= below.line - (chosen.line + oldLineCount - 1))));
  const grown = useAbove
    ? grownEdit(edit, lines, matchIndex, chosen.line - above.line, 0)
    : below !== undefined
      ? grownEdit(edit, lines, matchIndex, 0, below.line - (chosen.line + oldLineCount - 1))
      : grownEdit(edit, lines, matchIndex, 1 + Math.floor(oldLineCount / 4));
  return grown ?? 'the match location shows no lines to add';
}

/**
 * new_string written the way the file has its text: each difference the diagnosis lists is
 * made in the part of the line the agent left alone (before or after its change), and a run of
 * spaces that pads to a column keeps that column when the change made the text before it
 * longer or shorter. Undefined unless the differences turn old_string into the file's text
 * exactly, line for line.
 */
function carryDifferences(edit: EditPair, nearText: string, differences: readonly CharacterDifference[]): EditPair | undefined {
  const oldLines = edit.old_string.split('\n');
  const newLines = edit.new_string.split('\n');
  const fileLines = nearText.split('\n').map((line) => line.replace(/\r$/, ''));
  if (oldLines.length !== newLines.length || oldLines.length !== fileLines.length) {
    return undefined;
  }
  const ofLine = (line: number): CharacterDifference[] => differences.filter((d) => d.old_string_line === line + 1).sort((x, y) => x.old_string_column - y.old_string_column);
  const written = newLines.map((newLine, at) => carryIntoLine(oldLines[at], newLine, ofLine(at)));
  const rebuilt = oldLines.map((oldLine, at) => carryIntoLine(oldLine, oldLine, ofLine(at)));
  if (rebuilt.some((line, at) => line !== fileLines[at])) {
    return undefined;
  }
  return { ...edit, old_string: nearText, new_string: written.join(/\r\n/.test(nearText) ? '\r\n' : '\n') };
}

function carryIntoLine(oldLine: string, newLine: string, differences: readonly CharacterDifference[]): string {
  const shared = sharedEnds(oldLine, newLine);
  let head = shared.head;
  let tailStart = oldLine.length - shared.tail;
  // A difference across either edge of the change belongs to the change.
  for (const d of differences) {
    const from = d.old_string_column - 1;
    const to = from + d.old_string_has.length;
    if (from < head && to > head) {
      head = from;
    }
    if (from < tailStart && to > tailStart) {
      tailStart = to;
    }
  }
  // A sign typed as several ASCII characters ("->" for an arrow) is written the file's way in the reader's own text too.
  const middle = differences
    .filter((d) => d.old_string_has.length > 1 && d.file_has.trim() !== '' && d.old_string_has.trim() === d.old_string_has)
    .reduce((text, d) => text.split(d.old_string_has).join(d.file_has), newLine.slice(head, newLine.length - (oldLine.length - tailStart)));
  const copy = (from: number, to: number, out: string, aligning: boolean): string => {
    let text = out;
    let at = from;
    for (const d of differences) {
      const start = d.old_string_column - 1;
      if (start < from || start >= to || (start === to && d.old_string_has.length > 0)) {
        continue;
      }
      text += oldLine.slice(at, start);
      const pad = aligning && d.aligned_column !== undefined ? d.aligned_column - 1 - text.length : 0;
      text += pad >= 1 ? ' '.repeat(pad) : aligning && d.aligned_column !== undefined ? ' ' : d.file_has;
      at = start + d.old_string_has.length;
    }
    return text + oldLine.slice(at, to);
  };
  const before = copy(0, head, '', false);
  return copy(tailStart, oldLine.length, before + middle, middle.length !== tailStart - head);
}

/** A text as the body of a JSON string. */
const jsonBody = (text: string): string => JSON.stringify(text).slice(1, -1);

/**
 * The edit written as a list of JSON strings, one per line (a notebook cell's source), when
 * the file's text is old_string in that form: each line's string ends in an escaped \n, and
 * the strings are separated the way the file separates its first two.
 */
function asJsonStrings(edit: EditPair, nearText: string): EditPair | undefined {
  const encodeLines = (text: string, separator: string): string => {
    const lines = text.split('\n');
    return lines.map((line, at) => jsonBody(at < lines.length - 1 ? `${line}\n` : line)).join(separator);
  };
  const firstLine = jsonBody(`${edit.old_string.split('\n')[0]}\n`);
  const separator = nearText.startsWith(firstLine) ? /^"\s*,\s*"/.exec(nearText.slice(firstLine.length))?.[0] : undefined;
  if (separator === undefined || encodeLines(edit.old_string, separator) !== nearText) {
    return undefined;
  }
  return { ...edit, old_string: nearText, new_string: encodeLines(edit.new_string, separator) };
}

// ---- the envelope reader ----

/** The fix of one failed edit from its code, diagnosis and context; 'drop' when it is already applied. */
/** A failed edit's fix: the edit rewritten, several edits, the edit moved to another file, dropped, or why not. */
type Fix = EditPair | { readonly split: readonly EditPair[] } | { readonly moveTo: string; readonly edit: EditPair } | 'drop' | string;

function fixFromEnvelope(edit: EditPair, code: string | undefined, diagnosis: Diagnosis | undefined, context: Context | undefined, knows: AgentKnowledge): Fix {
  if (diagnosis?.kind === 'IN_OTHER_FILE' && diagnosis.other_file !== undefined) {
    return { moveTo: diagnosis.other_file, edit };
  }
  if (code === 'AMBIGUOUS_MATCH') {
    return fixAmbiguous(edit, context?.match_locations ?? [], knows);
  }
  if (code !== 'MATCH_NOT_FOUND' || !diagnosis) {
    return `nothing structured to act on for ${code}`;
  }
  if (diagnosis.kind === 'ALREADY_APPLIED') {
    return 'drop';
  }
  if (!diagnosis.near_match || context?.snippet === undefined || context.start_line === undefined) {
    return `${diagnosis.kind} without the text it compared`;
  }
  const nearText = textOfRange(context.snippet, context.start_line, diagnosis.near_match);
  if (nearText === undefined) {
    return 'the near match is not inside the snippet';
  }
  if (diagnosis.kind === 'ESCAPED_TEXT' && jsonBody(edit.old_string) === nearText) {
    // The file holds the text JSON-encoded: write both strings in that form.
    return { ...edit, old_string: nearText, new_string: jsonBody(edit.new_string) };
  }
  const asStrings = diagnosis.kind === 'ESCAPED_TEXT' ? asJsonStrings(edit, nearText) : undefined;
  if (asStrings) {
    return asStrings;
  }
  if (diagnosis.kind === 'SPLIT_HUNKS' && diagnosis.parts) {
    return splitEdit(edit, diagnosis.parts) ?? 'old_string and new_string do not split the same way';
  }
  // With a line of new_string for each line of old_string, the lines move as the map says; otherwise the merge places them.
  const reordered = diagnosis.kind === 'REORDERED_LINES' && diagnosis.line_map ? reorderedEdit(edit, nearText, diagnosis.line_map) : undefined;
  if (reordered) {
    return reordered;
  }
  if (diagnosis.kind === 'DIFF_MARKERS') {
    const newString = diagnosis.markers_in_new_string === true ? withoutDiffMarkers(edit.new_string) : edit.new_string;
    const merged = mergeChange(withoutDiffMarkers(edit.old_string), nearText, newString);
    return merged === undefined ? 'its change and the file\'s difference touch the same text' : { ...edit, old_string: nearText, new_string: merged };
  }
  if (diagnosis.kind === 'REWRAPPED_LINES') {
    return { ...edit, old_string: nearText, new_string: spliceIgnoringWhitespace(edit.old_string, edit.new_string, nearText) };
  }
  if (diagnosis.kind === 'INSIDE_TOKEN') {
    return grownOverCut(edit, nearText) ?? 'old_string cut a token, and new_string lines up with nothing after the cut';
  }
  const carried = diagnosis.differences ? carryDifferences(edit, nearText, diagnosis.differences) : undefined;
  if (carried) {
    return carried;
  }
  const base = undoInNewString(diagnosis.kind, edit.old_string, nearText);
  const merged = mergeChange(base, nearText, undoInNewString(diagnosis.kind, edit.new_string, nearText), diagnosis.kind === 'CONTENT_MISMATCH' ? mappedPairs(diagnosis) : undefined);
  return merged === undefined ? 'its change and the file\'s difference touch the same text' : { ...edit, old_string: nearText, new_string: merged };
}

export const envelopeReader: Reader = {
  name: 'envelope reader',
  next(request, reply, knows) {
    const envelope = reply.envelope;
    if (!envelope) {
      return { kind: 'give_up', why: 'no envelope' };
    }
    const leadFile = envelope.file_index ?? 0;
    // Every file whose path names nothing: the lead's reasons are top-level, each other file's are in its files_to_fix entry.
    const missing = [
      ...(isMissingPath(envelope.error_code) ? [{ file_index: leadFile, context: envelope.context }] : []),
      ...(envelope.next_action?.files_to_fix ?? []).filter((file) => isMissingPath(file.error_code) && file.file_index !== leadFile),
    ];
    const files = request.files.map((file) => ({ ...file }));
    for (const { file_index: fileIndex, context } of missing) {
      const nearest = context?.nearby_names?.[0];
      const meant = context?.existing_path ?? (nearest === undefined ? undefined : `${directoryOf(files[fileIndex].file_path)}/${nearest}`);
      if (meant === undefined) {
        return { kind: 'give_up', why: 'no existing path and no nearby names' };
      }
      files[fileIndex] = { ...files[fileIndex], file_path: meant };
    }
    const edits: (EditPair | undefined)[][] = request.files.map((file) => [...file.edits]);
    let dropped = 0;
    for (const status of envelope.edit_status ?? []) {
      if (status.status !== 'failed') {
        continue;
      }
      const fileIndex = status.file_index ?? 0;
      const lead = status.edit_index === envelope.edit_index && fileIndex === leadFile;
      const fix = fixFromEnvelope(request.files[fileIndex].edits[status.edit_index], status.error_code, lead ? envelope.diagnosis : status.diagnosis, lead ? envelope.context : status.context, knows);
      if (typeof fix === 'string' && fix !== 'drop') {
        return { kind: 'give_up', why: fix };
      }
      if (fix === 'drop') {
        dropped++;
      }
      if (typeof fix === 'object' && 'moveTo' in fix) {
        edits[fileIndex][status.edit_index] = undefined;
        const target = files.findIndex((file) => file.file_path === fix.moveTo);
        if (target === -1) {
          files.push({ file_path: fix.moveTo, edits: [] });
          edits.push([fix.edit]);
        } else {
          edits[target].push(fix.edit);
        }
        continue;
      }
      if (typeof fix === 'object' && 'split' in fix) {
        edits[fileIndex].splice(status.edit_index, 1, undefined);
        edits[fileIndex].push(...fix.split);
        continue;
      }
      edits[fileIndex][status.edit_index] = fix === 'drop' ? undefined : fix;
    }
    const next = remaining({ files }, edits);
    return next.files.length === 0 ? { kind: 'done', dropped } : { kind: 'send', request: next };
  },
};

// ---- the message reader ----

/** Where an old_string's lines stand in the file, found by its first and last lines, whitespace aside. */
function findBlock(fileLines: readonly string[], oldLines: readonly string[], anchor: string | undefined): number | undefined {
  const content = oldLines.map(lineKey);
  const firstKey = content.find((key) => key !== '');
  if (firstKey === undefined) {
    return undefined;
  }
  const offset = content.indexOf(firstKey);
  const candidates: number[] = [];
  fileLines.forEach((line, at) => {
    if (lineKey(line) === firstKey && at - offset >= 0) {
      candidates.push(at - offset);
    }
  });
  if (candidates.length === 0) {
    return undefined;
  }
  const score = (start: number): number => commonLines(oldLines.map(lineKey), fileLines.slice(start, start + oldLines.length + 4).map(lineKey), (x, y) => x === y).length;
  const nearAnchor = (start: number): number => (anchor === undefined ? 0 : Math.abs(fileLines.findIndex((l) => l.includes(anchor)) - start));
  return candidates.sort((x, y) => score(y) - score(x) || nearAnchor(x) - nearAnchor(y))[0];
}

/** An edit rebuilt against the file's own lines, as an agent does after re-reading. */
function fixFromFile(edit: EditPair, fileText: string, knows: AgentKnowledge): EditPair | undefined {
  const occurrences = fileText.split(edit.old_string).length - 1;
  const { lines } = splitText(fileText);
  if (occurrences === 1) {
    return edit;
  }
  if (occurrences > 1) {
    const anchorLine = knows.anchor === undefined ? -1 : lines.findIndex((line) => line.includes(knows.anchor as string));
    const firstOld = edit.old_string.split('\n')[0];
    const hits = lines.map((line, at) => (line.includes(firstOld) ? at : -1)).filter((at) => at >= 0);
    const target = hits.sort((x, y) => Math.abs(x - anchorLine) - Math.abs(y - anchorLine))[0];
    return target === undefined ? undefined : grownEdit(edit, lines, target, 2);
  }
  const oldLines = edit.old_string.split(/\r?\n/);
  const start = findBlock(lines, oldLines, knows.anchor);
  if (start === undefined) {
    return undefined;
  }
  // The same number of lines, or up to the line that matches old_string's last line.
  const lastKey = lineKey(oldLines[oldLines.length - 1]);
  let end = start + oldLines.length;
  for (let at = start + 1; at < Math.min(lines.length, start + oldLines.length + 40); at++) {
    if (lastKey !== '' && lineKey(lines[at]) === lastKey) {
      end = at + 1;
      break;
    }
  }
  const eol = /\r\n/.test(fileText) ? '\r\n' : '\n';
  const block = lines.slice(start, end).join(eol);
  const merged = mergeChange(edit.old_string, block, edit.new_string);
  return merged === undefined ? undefined : { ...edit, old_string: block, new_string: merged };
}

const MISSING_FILE = /ENOENT|no such file|not found at|No file exists|does not exist|FILE_NOT_FOUND/i;

export const messageReader: Reader = {
  name: 'message reader',
  next(request, reply, knows, seen) {
    if (MISSING_FILE.test(reply.message)) {
      const directories = [...new Set(request.files.map((file) => directoryOf(file.file_path)))];
      if (!seen.names) {
        return { kind: 'list', directories };
      }
      const files = request.files.map((file) => {
        const names = seen.names?.get(directoryOf(file.file_path)) ?? [];
        const name = file.file_path.slice(file.file_path.lastIndexOf('/') + 1);
        const nearest = names.includes(name) ? name : nearestNames(name, names)[0];
        return nearest === undefined ? file : { ...file, file_path: `${directoryOf(file.file_path)}/${nearest}` };
      });
      return { kind: 'send', request: { files } };
    }
    if (!seen.fileTexts) {
      return { kind: 'read', paths: request.files.map((file) => file.file_path) };
    }
    let dropped = 0;
    const edits: EditPair[][] = [];
    for (const file of request.files) {
      const fileText = seen.fileTexts.get(file.file_path);
      if (fileText === undefined) {
        return { kind: 'give_up', why: `cannot read ${file.file_path}` };
      }
      const fixedEdits: EditPair[] = [];
      for (const edit of file.edits) {
        if (!fileText.includes(edit.old_string) && edit.new_string.trim().length > 2 && fileText.includes(edit.new_string)) {
          dropped++;
          continue;
        }
        const fixed = fixFromFile(edit, fileText, knows);
        if (!fixed) {
          return { kind: 'give_up', why: 'cannot find the lines of old_string in the file' };
        }
        fixedEdits.push(fixed);
      }
      edits.push(fixedEdits);
    }
    const next = remaining(request, edits);
    return next.files.length === 0 ? { kind: 'done', dropped } : { kind: 'send', request: next };
  },
};
