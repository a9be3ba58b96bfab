/**
 * How every surface reads a response, in one place: which failure the envelope leads with (its
 * message, hints, diagnosis and context describe that one), the other failed edits, and whether
 * the user chose the outcome (a cancel or a refusal is not a problem to show).
 */
import { codeInfo } from './errorCodes';
import type { EditStatus, EngineResponse, ErrorEnvelope } from './schemas';

/** Whether the user chose this outcome; a success is not a choice. */
export function userChoseOutcome(response: EngineResponse): boolean {
  return !response.success && codeInfo(response.error_code).userChose;
}

/** The file the envelope leads with; a one-file request (no file_index) is file 0. */
export function leadFileIndex(envelope: ErrorEnvelope): number {
  return envelope.file_index ?? 0;
}

/** The file an edit_status entry belongs to: its own index, else the lead file. */
export function fileIndexOfStatus(status: Pick<EditStatus, 'file_index'>, envelope: ErrorEnvelope): number {
  return status.file_index ?? leadFileIndex(envelope);
}

/** Whether the edit at (fileIndex, editIndex) is the one the envelope leads with; a missing file index is file 0. */
export function isLeadPlace(envelope: ErrorEnvelope, fileIndex: number | undefined, editIndex: number | undefined): boolean {
  return (fileIndex ?? 0) === leadFileIndex(envelope) && editIndex === envelope.edit_index;
}

/** Whether an edit_status entry is the failure the envelope leads with. */
export function isLeadStatus(status: EditStatus, envelope: ErrorEnvelope): boolean {
  return status.status === 'failed' && isLeadPlace(envelope, fileIndexOfStatus(status, envelope), status.edit_index);
}

/** The edit_status entry of the lead failure; undefined when the envelope leads with a file or the request as a whole. */
export function leadFailure(envelope: ErrorEnvelope): EditStatus | undefined {
  return envelope.edit_status.find((status) => isLeadStatus(status, envelope));
}

/** The failed edits other than the lead, in the envelope's order. */
export function otherFailures(envelope: ErrorEnvelope): EditStatus[] {
  return envelope.edit_status.filter((status) => status.status === 'failed' && !isLeadStatus(status, envelope));
}
