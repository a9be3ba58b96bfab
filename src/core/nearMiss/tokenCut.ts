/** The warning and the refusal for a match that cuts a word or a number (matching/insideToken.ts). */
import type { TokenCut } from '../matching/insideToken';
import type { EditToCheck } from '../matching/match';
import type { Diagnosis, EnvelopeContext, Warning } from '../contract/schemas';
import { LineIndex } from '../text/lineIndex';
import { contextLineCount, snippetOfLines, type SnippetLimits } from './context';
import { hintsForDiagnosis } from './diagnosis';

/** The rest of a token shown in a message, at most this many characters. */
const SHOWN_CHARS = 24;

function shown(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

/** "the number `3000`" or "the word `retryDelayMs`": the whole token around the cut. */
function tokenName(cut: TokenCut): string {
  const token = cut.side === 'end' ? cut.inside + cut.rest : cut.rest + cut.inside;
  return `${/^\p{N}+$/u.test(token) ? 'the number' : 'the word'} \`${shown(token)}\``;
}

function sideWords(cut: TokenCut): { edge: string; outside: string } {
  return cut.side === 'end'
    ? { edge: 'ends', outside: `the file goes on with \`${shown(cut.rest)}\`` }
    : { edge: 'starts', outside: `the file has \`${shown(cut.rest)}\` just before it` };
}

export function tokenCutWarning(editIndex: number, cut: TokenCut, filePath: string, displayPath: string): Warning {
  const { edge, outside } = sideWords(cut);
  return {
    code: 'MATCH_INSIDE_TOKEN',
    message: `Edit ${editIndex + 1}'s old_string ${edge} inside ${tokenName(cut)} in ${displayPath} (${outside}), and that part of the token was kept next to new_string; check the result`,
    file_path: filePath,
  };
}

/**
 * INSIDE_TOKEN: where the match cuts the token, and as near_match the matched text
 * grown to the whole line on the cut side, so the rest of the token and what follows
 * it can be copied.
 */
export function explainTokenCut(
  textBefore: string, edit: EditToCheck, cut: TokenCut, limits: SnippetLimits,
): { hints: readonly string[]; diagnosis: Diagnosis; context: EnvelopeContext } {
  const index = LineIndex.of(textBefore);
  const { line, column } = index.position(cut.offset);
  const matchStart = cut.side === 'end' ? cut.offset - edit.oldString.length : cut.offset;
  const matchEnd = matchStart + edit.oldString.length;
  const from = cut.side === 'end' ? matchStart : index.lineStart(line - 1);
  const to = cut.side === 'end' ? index.lineEnd(line - 1) : matchEnd;
  const start = index.position(from);
  const end = index.position(to);
  const { edge, outside } = sideWords(cut);
  const newEdge = cut.side === 'end' ? 'ends' : 'starts';
  const why = edit.newString.includes(cut.rest)
    ? `new_string already holds \`${shown(cut.rest)}\`, which the replacement would write twice`
    : `new_string ${newEdge} with another kind of character, so \`${shown(cut.rest)}\` would stay glued to it`;
  const oldLine = cut.side === 'end' ? edit.oldString.split('\n').length : 1;
  // The near match's lines stay whole (up to the snippet's far bound), so its text can be copied.
  const around = contextLineCount(limits);
  const whole = { first: start.line - 1, last: end.line - 1 };
  const snippet = snippetOfLines(textBefore, index, { first: whole.first - around, last: whole.last + around, focusLine: line - 1, focusOffset: cut.offset, whole }, limits.maxSnippetLineChars);
  return {
    diagnosis: {
      kind: 'INSIDE_TOKEN',
      detail: `old_string ${edge} inside ${tokenName(cut)} at line ${line}, column ${column}: ${outside}, and ${why}; the insideToken setting refuses such a match`,
      line, column, old_string_line: oldLine,
      near_match: { start_line: start.line, start_column: start.column, end_line: end.line, end_column: end.column },
      occurrences: 1, occurrence_lines: [start.line],
    },
    context: { ...snippet, closest_line: line },
    hints: hintsForDiagnosis('INSIDE_TOKEN'),
  };
}
