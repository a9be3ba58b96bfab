/**
 * The fix a near miss in a request file offers a person, as the envelope offers it an agent: for a
 * miss that only the file's whitespace, line breaks or look-alike characters explain, its old_string
 * rewritten from the file's own text at the near match; for an edit already applied, its removal.
 */
import { applyEdits, modify } from 'jsonc-parser';
import type { Diagnosis, DiagnosisKind, TextRange } from '../../core/index';
import type { JsonPath } from './jsonLocate';

export type NearMissFix =
  | { readonly kind: 'useFileText'; readonly editPath: JsonPath; readonly filePath: string; readonly nearMatch: TextRange }
  | { readonly kind: 'removeEdit'; readonly editPath: JsonPath };

/** Kinds whose near match is the very text old_string meant. */
const FILE_TEXT_KINDS: ReadonlySet<DiagnosisKind> = new Set<DiagnosisKind>([
  'INDENTATION', 'WHITESPACE_ONLY', 'EOL_MISMATCH', 'UNICODE_LOOKALIKE', 'UNICODE_NORMALIZATION',
]);

export function nearMissFixFor(diagnosis: Diagnosis | undefined, editPath: JsonPath, filePath: string | undefined): NearMissFix | undefined {
  if (diagnosis?.kind === 'ALREADY_APPLIED') {
    return { kind: 'removeEdit', editPath };
  }
  if (diagnosis?.near_match && filePath !== undefined && FILE_TEXT_KINDS.has(diagnosis.kind)) {
    return { kind: 'useFileText', editPath, filePath, nearMatch: diagnosis.near_match };
  }
  return undefined;
}

export function isNearMissFix(value: unknown): value is NearMissFix {
  const fix = value as Partial<Record<string, unknown>> | undefined;
  return typeof fix === 'object' && fix !== null && Array.isArray(fix.editPath)
    && (fix.kind === 'removeEdit' || (fix.kind === 'useFileText' && typeof fix.filePath === 'string' && typeof fix.nearMatch === 'object'));
}

/**
 * The request's JSON with the fix made: `nearText` (the file's text at the near match) written as
 * old_string, escaped as JSON needs, or the edit removed. The rest of the text stays as it was.
 */
export function requestWithFix(json: string, fix: NearMissFix, nearText: string, eol: string): string {
  const options = { formattingOptions: { insertSpaces: true, tabSize: 2, eol } };
  return fix.kind === 'removeEdit'
    ? applyEdits(json, modify(json, [...fix.editPath], undefined, options))
    : applyEdits(json, modify(json, [...fix.editPath, 'old_string'], nearText, options));
}
