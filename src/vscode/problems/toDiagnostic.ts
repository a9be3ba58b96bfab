/** The diagnostic a placed failure shows as. */
import * as vscode from 'vscode';
import { answersForOneFile, errorDocLink } from '../../core/index';
import { DIAGNOSTIC_SOURCE } from '../platform/ids';
import type { Failure, Placement } from './failure';
import { guidanceFor } from './guidance';
import { diagnosticMessage } from './message';

export function matchLabel(index: number, total: number): string {
  return `match ${index + 1} of ${total}`;
}

export function toDiagnostic(failure: Failure, placement: Placement): vscode.Diagnostic {
  const skipped = failure.status === 'skipped';
  const message = diagnosticMessage({
    ...(failure.editIndex !== undefined ? { editIndex: failure.editIndex } : {}),
    ...(!answersForOneFile(failure.request.tool) ? { fileNumber: failure.fileIndex + 1 } : {}),
    label: skipped ? 'skipped' : failure.code,
    message: failure.message,
    ...(failure.diagnosis ? { diagnosis: failure.diagnosis } : {}),
    // People read this, so one line of what to do here rather than the agent's hints.
    hints: skipped ? [] : [guidanceFor(failure.code, failure.diagnosis?.kind)],
  });
  const diagnostic = new vscode.Diagnostic(
    placement.range,
    message,
    skipped ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Error,
  );
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = { value: failure.code, target: vscode.Uri.parse(errorDocLink(failure.code)) };
  if (!skipped && placement.matches.length > 0) {
    const total = Math.max(failure.totalMatches ?? 0, placement.matches.length);
    diagnostic.relatedInformation = placement.matches.map(
      (location, index) => new vscode.DiagnosticRelatedInformation(location, matchLabel(index, total)),
    );
  }
  return diagnostic;
}
