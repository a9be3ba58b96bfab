/**
 * A lenient look at a request before (or without) validation: which files it
 * names and how many edits each has. Used for invocation messages, confirmations
 * and the log, so it must cope with any input, however malformed.
 */
import { TOOL_MULTI_EDIT, type ToolName } from '../../core/ids';

export interface RequestedFile {
  readonly filePath: string;
  readonly edits: number;
}

export interface RequestSummary {
  readonly files: readonly RequestedFile[];
  readonly totalEdits: number;
  readonly dryRun: boolean;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function requestedFile(value: unknown): RequestedFile | undefined {
  const record = asRecord(value);
  if (!record || typeof record.file_path !== 'string') {
    return undefined;
  }
  return { filePath: record.file_path, edits: Array.isArray(record.edits) ? record.edits.length : 0 };
}

export function summarizeRequest(tool: ToolName, input: unknown): RequestSummary {
  const record = asRecord(input);
  const candidates = tool === TOOL_MULTI_EDIT ? [input] : Array.isArray(record?.files) ? record.files : [];
  const files = candidates.map(requestedFile).filter((file): file is RequestedFile => file !== undefined);
  return {
    files,
    totalEdits: files.reduce((sum, file) => sum + file.edits, 0),
    dryRun: record?.dry_run === true,
  };
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
