/**
 * The fixes a failure offers, in the order they are shown. The code action
 * provider and the notification for failures with no place in a document both
 * read this one list, so they always offer the same actions.
 */
import { localized } from '../platform/localized';
import type { ErrorCode } from '../../core/index';
import { COMMANDS } from '../platform/ids';
import type { Failure } from './failure';

export interface QuickFix {
  readonly title: string;
  readonly command: string;
  readonly preferred: boolean;
  /** "request" fixes act on the whole request: shown once even when several of its diagnostics meet. */
  readonly scope: 'failure' | 'request';
}

/** The failures a retry or re-run can help; others need the request itself changed. */
const RERUN_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['STALE_CONTENT', 'MATCH_NOT_FOUND']);

export function quickFixesFor(failure: Failure): QuickFix[] {
  const fixes: QuickFix[] = [];
  const failed = failure.status === 'failed';
  const ambiguous = failed && failure.code === 'AMBIGUOUS_MATCH';
  const matches = failure.placement?.matches.length ?? 0;
  if (failed && matches > 0) {
    const total = Math.max(failure.totalMatches ?? 0, matches);
    fixes.push({ title: localized('Peek all {0} match locations', total), command: COMMANDS.peekMatches, preferred: ambiguous, scope: 'failure' });
  }
  if (ambiguous && failure.editIndex !== undefined) {
    fixes.push({ title: localized('Retry edit {0} with replace_all', failure.editIndex + 1), command: COMMANDS.retryWithReplaceAll, preferred: false, scope: 'failure' });
  }
  const comparable = failed && failure.code === 'MATCH_NOT_FOUND' && failure.editIndex !== undefined && failure.placement !== undefined;
  if (comparable) {
    fixes.push({ title: localized('Compare edit {0}\'s old_string with the file', (failure.editIndex ?? 0) + 1), command: COMMANDS.compareWithFile, preferred: true, scope: 'failure' });
  }
  if (failed && failure.code === 'SYNTAX_REGRESSION') {
    fixes.push({ title: localized('Apply anyway'), command: COMMANDS.applyAnyway, preferred: false, scope: 'request' });
  }
  // Fixing the request comes before running it again: a re-run of the same request fails the same way
  // unless the file changed since.
  fixes.push({ title: localized('Open the failed request'), command: COMMANDS.openFailedRequest, preferred: false, scope: 'request' });
  if (failed && RERUN_CODES.has(failure.code)) {
    fixes.push({ title: localized('Re-run the request'), command: COMMANDS.rerunRequest, preferred: false, scope: 'request' });
  }
  fixes.push(
    { title: localized('Show envelope'), command: COMMANDS.showEnvelope, preferred: false, scope: 'request' },
    { title: localized('Copy envelope'), command: COMMANDS.copyEnvelope, preferred: false, scope: 'request' },
  );
  if (failed && failure.hints.length > 0) {
    fixes.push({ title: localized('Copy hints'), command: COMMANDS.copyHints, preferred: false, scope: 'failure' });
  }
  fixes.push({ title: localized('Dismiss'), command: COMMANDS.dismissDiagnostic, preferred: false, scope: 'failure' });
  return fixes;
}
