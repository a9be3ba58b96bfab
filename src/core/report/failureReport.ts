/**
 * The envelope for a request whose planning failed: it leads with the first failure
 * (file order, then edit order), lists every failed and skipped edit of every file,
 * and sums it up in one line.
 */
import { envelopeFor, sanitizeText } from '../contract/envelope';
import { codeInfo, type NextAction } from '../contract/errorCodes';
import { plural } from '../contract/format';
import { findingKey, type EditProblem, type ElsewhereFindings, type FileFailure } from '../plan/filePlan';
import type { Diagnosis, EditStatus, ErrorEnvelope, FileToFix } from '../contract/schemas';
import { hintsForDiagnosis } from '../nearMiss/diagnosis';

export interface FailureReportInput {
  readonly multiFile: boolean;
  /** Failing files, in request order; never empty. */
  readonly failures: readonly FileFailure[];
  /** Edits in the whole request. */
  readonly totalEdits: number;
  readonly dryRun: boolean;
  readonly maxEnvelopeBytes: number;
  /** Failed edits whose old_string occurs verbatim in another file (engine/elsewhere.ts). */
  readonly elsewhere?: ElsewhereFindings;
}

/** Diagnoses that a verbatim occurrence elsewhere does not replace: they say more about this file. */
const KEPT_OVER_ELSEWHERE: readonly string[] = ['ALREADY_APPLIED', 'STALE_CONTENT', 'INSIDE_TOKEN', 'INDENTATION'];

/** The detail of a failed edit, its diagnosis replaced by IN_OTHER_FILE when the text is elsewhere. */
function withElsewhere<T extends { readonly diagnosis?: Diagnosis }>(detail: T, found: Diagnosis | undefined): T {
  return found && !(detail.diagnosis && KEPT_OVER_ELSEWHERE.includes(detail.diagnosis.kind)) ? { ...detail, diagnosis: found } : detail;
}

/** How the summary opens, by what the caller should do next. */
const LEAD_WORD: Record<NextAction, string> = {
  fix_and_resubmit: 'Fix',
  reread_and_retry: 'Re-read and fix',
  retry_later: 'Retry later',
  ask_user: 'Ask the user',
  stop: 'Failed',
};

/** Failures named one by one in the summary; the rest are counted. */
const SUMMARY_ITEMS = 5;

export function failureEnvelope(input: FailureReportInput): ErrorEnvelope {
  const { multiFile, failures } = input;
  const leadFile = failures[0];
  const elsewhere = (failure: FileFailure, editIndex: number | undefined): Diagnosis | undefined =>
    editIndex === undefined ? undefined : input.elsewhere?.get(findingKey(failure.fileIndex, editIndex));
  const firstFailure = leadFile.lead();
  const lead = withElsewhere(firstFailure, elsewhere(leadFile, firstFailure.editIndex));
  const leadHints = lead.diagnosis?.kind === 'IN_OTHER_FILE' ? [...hintsForDiagnosis('IN_OTHER_FILE'), ...lead.hints] : lead.hints;
  const isLead = (failure: FileFailure, problem: EditProblem): boolean => failure === leadFile && problem.editIndex === lead.editIndex;
  const editStatus: EditStatus[] = failures.flatMap((failure) => failure.problems.map((problem) => ({
    edit_index: problem.editIndex,
    status: problem.status,
    ...(problem.code ? { error_code: problem.code } : {}),
    message: problem.message,
    ...(problem.oldStringPreview !== undefined ? { old_string_preview: problem.oldStringPreview } : {}),
    ...(problem.dependsOn ? { depends_on: [...problem.dependsOn] } : {}),
    ...(multiFile ? { file_index: failure.fileIndex, file_path: failure.filePath } : {}),
    ...(isLead(failure, problem) || !problem.detail ? {} : withElsewhere(problem.detail(), elsewhere(failure, problem.editIndex))),
  })));
  const failedEdits = (failure: FileFailure): number[] => failure.problems.filter((problem) => problem.status === 'failed').map((problem) => problem.editIndex);
  const filesToFix = failures
    .map((failure) => ({ file_index: failure.fileIndex, file_path: failure.filePath, edits: failedEdits(failure), ...fileLevelDetail(failure) }))
    .filter((file) => file.edits.length > 0 || failures.length > 1);
  return envelopeFor(lead.code, lead.message, {
    file_path: leadFile.filePath,
    ...(multiFile ? { file_index: leadFile.fileIndex } : {}),
    ...(lead.editIndex !== undefined ? { edit_index: lead.editIndex } : {}),
    hints: leadHints,
    ...(lead.ownHintsOnly ? { ownHintsOnly: true } : {}),
    ...(lead.diagnosis ? { diagnosis: lead.diagnosis } : {}),
    ...(lead.context ? { context: lead.context } : {}),
    ...(lead.action ? { action: lead.action } : {}),
    edit_status: editStatus,
    edits_to_fix: failedEdits(leadFile),
    ...(multiFile ? { files_to_fix: filesToFix } : {}),
    summary: failureSummary(input, lead.action ?? codeInfo(lead.code).nextAction),
    dry_run: input.dryRun,
    maxBytes: input.maxEnvelopeBytes,
  });
}

/** Why a file that could not be edited at all failed, for its files_to_fix entry: every such file is explained, not only the first. */
function fileLevelDetail(failure: FileFailure): Partial<FileToFix> {
  if (failure.fileCode === undefined) {
    return {};
  }
  const { code, message, hints, ownHintsOnly, context } = failure.lead();
  return {
    error_code: code,
    message: sanitizeText(message),
    recovery_hints: [...new Set([...hints, ...(ownHintsOnly ? [] : codeInfo(code).hints)])],
    ...(context ? { context } : {}),
  };
}

/** "Fix: edit 1 (MATCH_NOT_FOUND); 3 other edits would apply" */
function failureSummary({ multiFile, failures, totalEdits }: FailureReportInput, action: NextAction): string {
  const items: string[] = [];
  let skippedEdits = 0;
  let notCheckedEdits = 0;
  let problemEdits = 0;
  for (const failure of failures) {
    const where = multiFile ? `${failure.displayPath} ` : '';
    problemEdits += failure.problems.length;
    if (failure.fileCode !== undefined) {
      notCheckedEdits += failure.editCount;
      items.push(`${failure.displayPath} (${failure.fileCode})`);
      continue;
    }
    for (const problem of failure.problems) {
      if (problem.status === 'failed') {
        items.push(`${where}edit ${problem.editIndex + 1} (${problem.code})`);
      } else {
        skippedEdits++;
      }
    }
  }
  const named = items.length > SUMMARY_ITEMS ? [...items.slice(0, SUMMARY_ITEMS), `${items.length - SUMMARY_ITEMS} more`] : items;
  const parts = [`${LEAD_WORD[action]}: ${named.join(', ')}`];
  if (skippedEdits > 0) {
    parts.push(`${plural(skippedEdits, 'edit')} skipped`);
  }
  if (notCheckedEdits > 0) {
    parts.push(`${plural(notCheckedEdits, 'edit')} not checked`);
  }
  const wouldApply = totalEdits - problemEdits;
  parts.push(wouldApply === 0 ? 'no other edit would apply' : `${wouldApply} other ${wouldApply === 1 ? 'edit' : 'edits'} would apply`);
  return parts.join('; ');
}
