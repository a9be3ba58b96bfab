/** How many files and edits a parsed request holds: for invocation messages, confirmations and the log. */
import type { ParsedRequest } from '../../core/index';

export interface RequestedFile {
  readonly filePath: string;
  readonly edits: number;
}

export interface RequestSummary {
  readonly files: readonly RequestedFile[];
  readonly totalEdits: number;
  readonly dryRun: boolean;
}

export function summarizeRequest(request: ParsedRequest): RequestSummary {
  const files = request.files.map((file) => ({ filePath: file.filePath, edits: file.edits.length }));
  return { files, totalEdits: files.reduce((sum, file) => sum + file.edits, 0), dryRun: request.dryRun };
}
