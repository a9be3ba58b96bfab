/**
 * The CLI's --format text output: one greppable first line ("ok ..." or
 * "error code=... file=... edit=... msg=..."), then the detail a person needs to
 * fix the request: diagnosis, hints, the file's text around the failure (the closest
 * line marked), and the status of each failed or skipped edit.
 *
 * People count edits from 1, as the message does ("Edit 1 of 2 failed"); the JSON
 * keeps the 0-based edit_index that programs read.
 */
import { type EditStatus, type EngineResponse, errorDocLink, type ErrorEnvelope, escapeControls, plural, type SuccessResponse, type TextRange } from '../../core/index';

export type DisplayPath = (absolutePath: string) => string;

export function formatText(response: EngineResponse, displayPath: DisplayPath): string {
  const lines = response.success ? successLines(response, displayPath) : errorLines(response, displayPath);
  // File text reaches the terminal here: its line breaks stay, and every other control
  // character (ESC, BEL, a bare CR, bidi overrides) is shown as an escape, never obeyed.
  return `${escapeControls(lines.join('\n').replace(/\r\n/g, '\n'))}\n`;
}

function editCount(edits: number, replacements: number): string {
  return `${plural(edits, 'edit')} (${plural(replacements, 'replacement')})`;
}

function successLines(response: SuccessResponse, displayPath: DisplayPath): string[] {
  return response.undone_request_id !== undefined ? undoSuccessLines(response, displayPath) : appliedLines(response, displayPath);
}

/** An undo: its summary, then each file it put back. */
function undoSuccessLines(response: SuccessResponse, displayPath: DisplayPath): string[] {
  const first = `ok ${response.summary.charAt(0).toLowerCase()}${response.summary.slice(1)}`;
  const files = response.files.map((file) => `  ${UNDONE_AS[file.operation ?? 'update']} ${displayPath(file.file_path)}${file.moved_from !== undefined ? ` (from ${displayPath(file.moved_from)})` : ''}`);
  return [first, ...files, ...warningAndDiffLines(response, displayPath)];
}

const UNDONE_AS = { update: 'restore', add: 're-create', delete: 'remove', move: 'move back' } as const;

function appliedLines(response: SuccessResponse, displayPath: DisplayPath): string[] {
  if (response.files.some((file) => file.operation !== undefined)) {
    return patchSuccessLines(response, displayPath);
  }
  const edits = response.files.reduce((sum, file) => sum + file.edits_applied, 0);
  const replacements = response.files.reduce((sum, file) => sum + file.replacements, 0);
  const target = response.files.length === 1 ? displayPath(response.files[0].file_path) : plural(response.files.length, 'file');
  const lines = [
    response.dry_run
      ? `ok dry run: ${editCount(edits, replacements)} would apply to ${target}; nothing was written`
      : `ok applied ${editCount(edits, replacements)} to ${target}`,
  ];
  if (response.files.length > 1) {
    lines.push(...response.files.map((file) => `  ${displayPath(file.file_path)}: ${editCount(file.edits_applied, file.replacements)}`));
  }
  return [...lines, ...warningAndDiffLines(response, displayPath)];
}

function warningAndDiffLines(response: SuccessResponse, displayPath: DisplayPath): string[] {
  const lines: string[] = [];
  for (const warning of response.warnings ?? []) {
    const file = warning.file_path === undefined ? '' : ` file=${displayPath(warning.file_path)}`;
    lines.push(`warning code=${warning.code}${file} msg=${JSON.stringify(warning.message)}`);
  }
  for (const file of response.files) {
    if (file.diff) {
      lines.push(file.diff.replace(/\r?\n$/, ''));
    }
  }
  return lines;
}

function errorLines(envelope: ErrorEnvelope, displayPath: DisplayPath): string[] {
  const fields = [`code=${envelope.error_code}`];
  if (envelope.file_path !== undefined) {
    fields.push(`file=${displayPath(envelope.file_path)}`);
  }
  if (envelope.edit_index !== undefined) {
    fields.push(`edit=${editNumber(envelope.edit_index)}`);
  }
  fields.push(`msg=${JSON.stringify(envelope.message)}`);
  const lines = [`error ${fields.join(' ')}`, `summary: ${failureSummary(envelope, displayPath)}`];
  if (envelope.diagnosis) {
    lines.push(`diagnosis: ${envelope.diagnosis.kind}: ${envelope.diagnosis.detail}`, ...nearMatchLines(envelope.diagnosis.near_match, ''));
  }
  const issues = envelope.validation_issues ?? [];
  if (issues.length > 1) {
    lines.push('problems:', ...issues.map((issue) => `  - ${issue.field}: ${issue.message}`));
  }
  if (envelope.recovery_hints.length > 0) {
    lines.push('hints:', ...envelope.recovery_hints.map((hint) => `  - ${hint}`));
  }
  lines.push(...contextLines(envelope));
  if (envelope.edit_status.length > 0) {
    lines.push('edits:', ...envelope.edit_status.flatMap((status) => [`  ${editStatusLine(status, displayPath)}`, ...editDetailLines(status)]));
  }
  if (envelope.rolled_back && envelope.rolled_back.length > 0) {
    lines.push(`rolled back: ${envelope.rolled_back.map(displayPath).join(', ')}`);
  }
  const toFix = envelope.next_action.edits_to_fix;
  const fixList = toFix && toFix.length > 0 ? ` (${toFix.length === 1 ? 'edit' : 'edits'} ${toFix.map(editNumber).join(', ')})` : '';
  lines.push(`next: ${envelope.next_action.action}${fixList}; retryable: ${envelope.retryable ? 'yes' : 'no'}`);
  if (envelope.truncated) {
    lines.push('note: some detail was dropped to keep the response small');
  }
  lines.push(`docs: ${errorDocLink(envelope.error_code)}`);
  return lines;
}

/** The 1-based number people read for a 0-based edit_index. */
function editNumber(editIndex: number): number {
  return editIndex + 1;
}

/**
 * "fix edit 1 (MATCH_NOT_FOUND), edit 3 (AMBIGUOUS_MATCH); 1 edit skipped", numbered as people
 * count; a file that could not be edited at all is named with its code ("fix src/a.ts
 * (FILE_NOT_FOUND); 1 edit skipped").
 */
function failureSummary(envelope: ErrorEnvelope, displayPath: DisplayPath): string {
  const failed = envelope.edit_status.filter((status) => status.status === 'failed');
  const skipped = envelope.edit_status.length - failed.length;
  const items = [
    ...failedFiles(envelope, failed.length).map((file) => `${displayPath(file.path)} (${file.code})`),
    ...failed.map((status) => `${status.file_path === undefined ? '' : `${displayPath(status.file_path)} `}edit ${editNumber(status.edit_index)} (${status.error_code})`),
  ];
  const parts = [items.length > 0 ? `fix ${items.join(', ')}` : envelope.error_code];
  if (skipped > 0) {
    parts.push(`${plural(skipped, 'edit')} skipped`);
  }
  return parts.join('; ');
}

/** The files that failed as a whole (not found, refused, unreadable): those files_to_fix lists, or else the envelope's own file when no edit failed. */
function failedFiles(envelope: ErrorEnvelope, failedEdits: number): { path: string; code: string }[] {
  const listed = (envelope.next_action.files_to_fix ?? []).flatMap((file) => (file.error_code === undefined ? [] : [{ path: file.file_path, code: file.error_code }]));
  if (listed.length > 0) {
    return listed;
  }
  return failedEdits === 0 && envelope.edit_index === undefined && envelope.file_path !== undefined ? [{ path: envelope.file_path, code: envelope.error_code }] : [];
}

function contextLines(envelope: ErrorEnvelope): string[] {
  const context = envelope.context;
  if (!context) {
    return [];
  }
  const lines: string[] = [];
  if (context.snippet !== undefined) {
    const first = context.start_line ?? 1;
    const marked = context.closest_line === undefined ? '' : `; > marks line ${context.closest_line}, the closest`;
    const heading = context.syntax_errors === undefined ? 'text around the closest match' : 'text as it would be written, around the first new syntax error';
    lines.push(`${heading} (from line ${first}${marked}):`, ...numberedLines(context.snippet, first, context.closest_line));
  }
  if (context.nearby_names && context.nearby_names.length > 0) {
    lines.push(`nearby names: ${context.nearby_names.join(', ')}`);
  }
  const locations = context.match_locations ?? [];
  if (locations.length > 0) {
    const total = context.total_matches ?? locations.length;
    const shown = total > locations.length ? `, ${locations.length} shown` : '';
    lines.push(`matches: ${total}${shown}`);
    for (const location of locations) {
      const apart = [
        location.distinct_above ? `line ${location.distinct_above.line} above` : '',
        location.distinct_below ? `line ${location.distinct_below.line} below` : '',
      ].filter((part) => part !== '');
      lines.push(`  line ${location.line}, column ${location.column}${apart.length > 0 ? ` (told apart from the others by ${apart.join(' and ')})` : ''}:`);
      lines.push(...splitLines(location.snippet).map((line) => `    | ${line}`));
    }
  }
  return lines;
}

/** The snippet's lines with their numbers; `markedLine`, the closest one, starts with '>'. */
function numberedLines(snippet: string, firstLine: number, markedLine?: number): string[] {
  const lines = splitLines(snippet);
  const width = String(firstLine + lines.length - 1).length;
  return lines.map((line, index) => {
    const number = firstLine + index;
    return `${number === markedLine ? '> ' : '  '}${String(number).padStart(width)} | ${line}`;
  });
}

/** Splits raw file text for display; a CRLF line shows without its \r. */
function splitLines(text: string): string[] {
  return text.replace(/\r?\n$/, '').split(/\r?\n/);
}

/** A later failure's own cause and where to look; its full snippet is in the JSON. */
function editDetailLines(status: EditStatus): string[] {
  const lines: string[] = [];
  if (status.diagnosis) {
    lines.push(`    diagnosis: ${status.diagnosis.kind}: ${status.diagnosis.detail}`, ...nearMatchLines(status.diagnosis.near_match, '    '));
  }
  const locations = status.context?.match_locations;
  if (locations && locations.length > 0) {
    lines.push(`    matches at lines ${locations.map((location) => location.line).join(', ')} (${status.context?.total_matches ?? locations.length} in all)`);
  } else if (status.context?.start_line !== undefined) {
    lines.push(`    closest text from line ${status.context.start_line} (context.snippet in --format json)`);
  }
  return lines;
}

/** Where the file text the diagnosis compared old_string with stands. */
function nearMatchLines(range: TextRange | undefined, indent: string): string[] {
  if (range === undefined) {
    return [];
  }
  const end = range.end_line === range.start_line ? `column ${range.end_column}` : `line ${range.end_line}, column ${range.end_column}`;
  return [`${indent}near match: line ${range.start_line}, column ${range.start_column} to ${end}`];
}

function editStatusLine(status: EditStatus, displayPath: DisplayPath): string {
  const where = status.file_path === undefined ? '' : `${displayPath(status.file_path)} `;
  const code = status.error_code === undefined ? '' : ` ${status.error_code}`;
  return `${where}edit ${editNumber(status.edit_index)} ${status.status}${code}: ${status.message}`;
}

/** A patch: the summary, then each file with what happened to it. */
function patchSuccessLines(response: SuccessResponse, displayPath: DisplayPath): string[] {
  const lines = [`ok ${response.summary.charAt(0).toLowerCase()}${response.summary.slice(1)}`];
  for (const file of response.files) {
    const from = file.moved_from === undefined ? '' : ` from ${displayPath(file.moved_from)}`;
    const hunks = file.operation === 'update' || file.operation === 'move' ? `, ${plural(file.edits_applied, 'hunk')}` : '';
    lines.push(`  ${file.operation ?? 'update'} ${displayPath(file.file_path)}${from}${hunks}`);
  }
  return [...lines, ...warningAndDiffLines(response, displayPath)];
}
