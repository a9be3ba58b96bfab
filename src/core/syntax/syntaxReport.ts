/** How a syntax regression reads: a failed edit in the envelope, or a warning when the gate only warns. */
import type { Limits } from '../contract/limits';
import type { FileFailure } from '../plan/filePlan';
import { oldStringExcerpt } from '../contract/format';
import { snippetAround } from '../nearMiss/context';
import type { Edit, Warning } from '../contract/schemas';
import type { SyntaxRegression } from './syntaxGate';

/** "line 12" or "lines 12-14". */
function linesText({ first, last }: { first: number; last: number }): string {
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
}

/** "Edit 2 of 3 would leave a.ts unparsable at line 40, column 1" (1-based, as a person counts). */
function whereItBroke(regression: SyntaxRegression, editCount: number, verb: 'would leave' | 'leaves'): string {
  const { file, errors, editIndex } = regression;
  return `Edit ${editIndex + 1} of ${editCount} ${verb} ${file.displayPath} unparsable at line ${errors[0].line}, column ${errors[0].column}`;
}

/** The edit's own lines, when the parser noticed the error elsewhere (a dropped brace is often found further down). */
function editPlace(regression: SyntaxRegression): string {
  const { editLines, errors } = regression;
  const line = errors[0].line;
  return line >= editLines.first && line <= editLines.last ? '' : ` (its new text is at ${linesText(editLines)})`;
}

export function syntaxFailure(regression: SyntaxRegression, edits: readonly Edit[], limits: Limits): FileFailure {
  const { file, fileIndex, errors, editIndex, firstOffset, newIndex } = regression;
  const broke = `${whereItBroke(regression, edits.length, 'would leave')}${editPlace(regression)}`;
  const more = errors.length > 1 ? [`context.syntax_errors lists the ${errors.length} new errors; the first is the one to fix`] : [];
  return {
    fileIndex,
    filePath: file.path,
    displayPath: file.displayPath,
    editCount: edits.length,
    problems: [{
      editIndex,
      status: 'failed',
      code: 'SYNTAX_REGRESSION',
      message: broke,
      oldStringPreview: oldStringExcerpt(edits[editIndex]?.old_string ?? ''),
    }],
    lead: () => ({
      code: 'SYNTAX_REGRESSION',
      editIndex,
      message: `${broke}; nothing was written`,
      hints: [
        `The edit left the file unparsable at line ${errors[0].line}: check brackets, quotes and indentation in its new_string against context.snippet (the text as it would be written)`,
        ...more,
      ],
      context: { ...snippetAround(file.newText.whole(), newIndex, firstOffset, limits), syntax_errors: errors.map((error) => ({ ...error })) },
    }),
  };
}

export function syntaxWarning(regression: SyntaxRegression, editCount: number, dryRun: boolean): Warning {
  return {
    code: 'SYNTAX_REGRESSION',
    message: `${whereItBroke(regression, editCount, dryRun ? 'would leave' : 'leaves')}${editPlace(regression)}; ${dryRun ? 'it would be written' : 'it was written'} because the syntax check is set to warn`,
    file_path: regression.file.path,
    line: regression.errors[0].line,
  };
}
