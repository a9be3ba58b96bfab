/**
 * What planning one file yields, as the engine hands it to the reports and the adapters:
 * a PlannedFile when every edit applies, or a FileFailure listing each failed and skipped edit.
 */
import type { ErrorCode, NextAction } from '../contract/errorCodes';
import type { Diagnosis, EnvelopeContext, FileOperation, Warning } from '../contract/schemas';
import type { AppliedEdit } from '../matching/match';
import type { StoredText } from '../store/fileStore';
import type { ReplacedSpan } from '../matching/replacedSpans';
import type { EditedText } from '../text/editedText';

export interface PlannedFile {
  /** The resolved path, as the store knows it. */
  readonly path: string;
  readonly displayPath: string;
  readonly original: StoredText;
  /** The text the edits make: a large one held unjoined until something needs it whole (editedText.ts). */
  readonly newText: EditedText;
  readonly editsApplied: number;
  readonly replacements: number;
  /** Where each edit replaced text, in the text the edits before it left. */
  readonly applied: readonly AppliedEdit[];
  /** Where the edits landed in the original text, in text order: what an editor applies and shows. Found on first read, then kept. */
  readonly spans: readonly ReplacedSpan[];
  /** Set for a patch's files: what happens to the file. An added file's original is empty; a deleted file's new text is empty. */
  readonly operation?: FileOperation;
  /** A move: the path the file leaves (`path` is where it goes). */
  readonly movedFrom?: string;
}

export interface EditProblem {
  readonly editIndex: number;
  readonly status: 'failed' | 'skipped';
  readonly code?: ErrorCode;
  readonly message: string;
  readonly oldStringPreview?: string;
  /** For a skipped edit: the failed edits (0-based, within its file) it waits on. */
  readonly dependsOn?: readonly number[];
  /** The cause and the text around a match failure, so every one can be fixed at once (the envelope's lead has them at the top level). */
  readonly detail?: () => EditDetail;
}

export interface EditDetail {
  readonly diagnosis?: Diagnosis;
  readonly context?: EnvelopeContext;
}

/** The first failure of a file, in full. */
export interface LeadFailure {
  readonly code: ErrorCode;
  readonly editIndex?: number;
  readonly message: string;
  readonly hints: readonly string[];
  readonly diagnosis?: Diagnosis;
  readonly context?: EnvelopeContext;
  readonly action?: NextAction;
  /** The hints above replace the code's general hints (a "did you mean" answers "check the path"). */
  readonly ownHintsOnly?: boolean;
}

export interface FileFailure {
  readonly fileIndex: number;
  readonly filePath: string;
  readonly displayPath: string;
  readonly editCount: number;
  /** Set when the file itself could not be checked; then every edit is skipped. */
  readonly fileCode?: ErrorCode;
  /** Failed and skipped edits, in order. */
  readonly problems: readonly EditProblem[];
  /** The file's text as read, when it was read: other failing edits may have been meant for it. */
  readonly text?: string;
  /** Explains the first failure; called only for the failure the envelope leads with. */
  readonly lead: () => LeadFailure;
}

export type FilePlan =
  | { readonly ok: true; readonly file: PlannedFile; readonly warnings: readonly Warning[] }
  | { readonly ok: false; readonly failure: FileFailure };

/**
 * Where a refused edit's text is in its file as read (offsets of the original text), for a failure
 * the engine found after planning the file: a syntax regression. Not on the wire.
 */
export interface RefusedEditPlace {
  readonly fileIndex: number;
  readonly editIndex: number;
  readonly start: number;
  readonly end: number;
}

/** `${fileIndex}:${editIndex}` of a failed edit -> the diagnosis that names the other file (engine/elsewhere.ts). */
export type ElsewhereFindings = ReadonlyMap<string, Diagnosis>;

export const findingKey = (fileIndex: number, editIndex: number): string => `${fileIndex}:${editIndex}`;
