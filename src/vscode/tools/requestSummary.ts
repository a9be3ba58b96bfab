/**
 * A lenient look at a request before (or without) validation: which files it
 * names and how many edits each has. Used for invocation messages, confirmations
 * and the log, so it must cope with any input, however malformed.
 */
import type { ToolName } from '../../core/index';
import { isRecord, requestFiles } from '../diagnostics/requestFiles';

export interface RequestedFile {
  readonly filePath: string;
  readonly edits: number;
}

export interface RequestSummary {
  readonly files: readonly RequestedFile[];
  readonly totalEdits: number;
  readonly dryRun: boolean;
}

export function summarizeRequest(tool: ToolName, input: unknown): RequestSummary {
  const files = requestFiles(tool, input).flatMap((file): RequestedFile[] => (
    file.filePath === undefined ? [] : [{ filePath: file.filePath, edits: file.edits.length }]
  ));
  return {
    files,
    totalEdits: files.reduce((sum, file) => sum + file.edits, 0),
    dryRun: isRecord(input) && input.dry_run === true,
  };
}
