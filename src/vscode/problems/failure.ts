/** What the editor keeps about each failed request and each diagnostic it shows. */
import type * as vscode from 'vscode';
import type { Diagnosis, ErrorCode, ErrorEnvelope } from '../../core/index';
import type { RequestRecord } from '../run/requestRecord';

/** A failed request: its record (id, request, origin), its envelope, and the files it meant to change. */
export interface FailedRequest extends RequestRecord {
  readonly envelope: ErrorEnvelope;
  /** Absolute paths of the files the request meant to change; a later outcome for one supersedes this. */
  readonly targets: readonly string[];
}

/** Where a failure shows: a diagnostic in a document, or (with no place to show it) a notification. */
export interface Placement {
  readonly uri: vscode.Uri;
  readonly range: vscode.Range;
  /** Every reported match location, in order (ambiguous matches). */
  readonly matches: readonly vscode.Location[];
}

/** One failed or skipped edit (or a failure of a whole file or request). */
export interface Failure {
  readonly id: number;
  readonly request: FailedRequest;
  readonly status: 'failed' | 'skipped';
  /** The error code; for a skipped edit, the code of the failure it depends on. */
  readonly code: ErrorCode;
  readonly fileIndex: number;
  /** Absent for a failure of a whole file or request. */
  readonly editIndex?: number;
  /** The absolute path of the file the failed edit targets, when it is known. */
  readonly targetPath?: string;
  /** The number of matches, never capped (ambiguous matches). */
  readonly totalMatches?: number;
  readonly diagnosis?: Diagnosis;
  readonly hints: readonly string[];
  readonly message: string;
  /** For a skipped edit: the failure it waits on. */
  readonly dependsOn?: number;
  placement?: Placement;
  diagnostic?: vscode.Diagnostic;
}

export type FailureDraft = Omit<Failure, 'id' | 'request' | 'dependsOn' | 'diagnostic'> & {
  /** Index into the same list of drafts. */
  readonly dependsOnDraft?: number;
};

/**
 * What commands and quick fixes pass around: plain data, so it survives any
 * serialisation. The request outlives the failure's diagnostic (see FailureRegistry).
 */
export interface FailureRef {
  readonly failureId: number;
  readonly requestId: number;
}

export function failureRef(failure: Failure): FailureRef {
  return { failureId: failure.id, requestId: failure.request.id };
}

export function isFailureRef(value: unknown): value is FailureRef {
  const candidate = value as Partial<FailureRef> | undefined;
  return typeof candidate?.failureId === 'number' && typeof candidate.requestId === 'number';
}
