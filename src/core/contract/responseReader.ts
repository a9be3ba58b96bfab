/**
 * How every surface reads a response, in one place: which failure the envelope leads with (its
 * message, hints, diagnosis and context describe that one), the other failed edits, each entry
 * with its own code, file, cause and context merged with the envelope's, and whether the user
 * chose the outcome (a cancel or a refusal is not a problem to show).
 */
import { codeInfo, type ErrorCode } from './errorCodes';
import type { Diagnosis, EditStatus, EngineResponse, EnvelopeContext, ErrorEnvelope } from './schemas';

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

/** One failure of an envelope, complete: a failed or skipped edit, or the failure of a whole file or request. */
export interface FailureEntry {
  readonly status: 'failed' | 'skipped';
  /** Its own code, else the envelope's (a skipped edit's is the envelope's: use its depends_on for the cause). */
  readonly code: ErrorCode;
  /** Its file: its own index, else the lead file (0 for a one-file request). */
  readonly fileIndex: number;
  /** Whether the envelope numbers files (a request of several files): labels then name the file. */
  readonly numbersFiles: boolean;
  /** Absent for the failure of a whole file or request. */
  readonly editIndex?: number;
  /** Its file's path as the response names it: its own, else the envelope's when it is in the lead file. */
  readonly filePath?: string;
  readonly message: string;
  /** The failure the envelope's message, hints, diagnosis and context describe. */
  readonly lead: boolean;
  /** For a skipped edit: the failed edits of its file it waits on. */
  readonly dependsOn?: readonly number[];
  /** Its own cause and context: the envelope's for the lead, its edit_status entry's for the others. */
  readonly diagnosis?: Diagnosis;
  readonly context?: EnvelopeContext;
}

/** The cause and context fields of an entry, present only when there are some. */
function causeOf(context: EnvelopeContext | undefined, diagnosis: Diagnosis | undefined): Pick<FailureEntry, 'context' | 'diagnosis'> {
  return { ...(context ? { context } : {}), ...(diagnosis ? { diagnosis } : {}) };
}

function entryOfStatus(status: EditStatus, envelope: ErrorEnvelope): FailureEntry {
  const fileIndex = fileIndexOfStatus(status, envelope);
  const lead = isLeadStatus(status, envelope);
  const filePath = status.file_path ?? (fileIndex === leadFileIndex(envelope) ? envelope.file_path : undefined);
  return {
    status: status.status,
    code: status.error_code ?? envelope.error_code,
    fileIndex,
    numbersFiles: status.file_index !== undefined,
    editIndex: status.edit_index,
    ...(filePath !== undefined ? { filePath } : {}),
    message: status.message,
    lead,
    ...(status.depends_on ? { dependsOn: status.depends_on } : {}),
    ...(lead ? causeOf(envelope.context, envelope.diagnosis) : causeOf(status.context, status.diagnosis)),
  };
}

/**
 * Every failure of the envelope, in its order, the lead first when edit_status does not list it
 * (a failure of a whole file or request, or of an edit the envelope alone reports).
 */
export function failureEntries(envelope: ErrorEnvelope): FailureEntry[] {
  const entries = envelope.edit_status.map((status) => entryOfStatus(status, envelope));
  if (entries.some((entry) => entry.lead)) {
    return entries;
  }
  const lead: FailureEntry = {
    status: 'failed',
    code: envelope.error_code,
    fileIndex: leadFileIndex(envelope),
    numbersFiles: envelope.file_index !== undefined,
    ...(envelope.edit_index !== undefined ? { editIndex: envelope.edit_index } : {}),
    ...(envelope.file_path !== undefined ? { filePath: envelope.file_path } : {}),
    message: envelope.message,
    lead: true,
    ...causeOf(envelope.context, envelope.diagnosis),
  };
  return [lead, ...entries];
}
