/**
 * The text of a diagnostic: "Edit 2 · MATCH_NOT_FOUND: <message>", then the cause
 * and the recovery hints as short lines. Never a snippet: the Problems panel shows
 * one entry per line, and the file itself is one click away.
 */
import type { Diagnosis } from '../../core/index';

/** Longer lines are cut; a message is a pointer, not a report. */
const MAX_LINE_CHARS = 240;

export interface MessageParts {
  /** 0-based; shown 1-based. Absent for a failure of the whole file or request. */
  readonly editIndex?: number;
  /** Shown for multi-file requests only, where edit numbers count within a file. */
  readonly fileNumber?: number;
  /** An error code, or "skipped". */
  readonly label: string;
  readonly message: string;
  readonly diagnosis?: Diagnosis;
  readonly hints: readonly string[];
}

function clip(line: string): string {
  const oneLine = line.replace(/\s*\r?\n\s*/g, ' ').trim();
  return oneLine.length > MAX_LINE_CHARS ? `${oneLine.slice(0, MAX_LINE_CHARS - 1)}…` : oneLine;
}

function subject(parts: MessageParts): string {
  const edit = parts.editIndex === undefined ? undefined : `Edit ${parts.editIndex + 1}`;
  const file = parts.fileNumber === undefined ? undefined : `File ${parts.fileNumber}`;
  return [file, edit].filter((part) => part !== undefined).join(', ');
}

export function diagnosticMessage(parts: MessageParts): string {
  const head = subject(parts);
  const lines = [`${head === '' ? '' : `${head} · `}${parts.label}: ${clip(parts.message)}`];
  if (parts.diagnosis) {
    lines.push(clip(`Cause: ${parts.diagnosis.kind} (${parts.diagnosis.detail})`));
  }
  for (const hint of parts.hints) {
    lines.push(`• ${clip(hint)}`);
  }
  return lines.join('\n');
}
