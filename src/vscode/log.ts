/**
 * The "Multi-Edit" LogOutputChannel: one line per finished request with the
 * tool, where it came from, the files, the edit count, the outcome and the time.
 */
import * as vscode from 'vscode';
import { type EngineResponse, plural, type ToolName } from '../core/index';
import { OUTPUT_CHANNEL_NAME } from './platform/ids';
import type { OutcomeSource } from './outcomes';
import type { RequestSummary } from './tools/requestSummary';

export function createLogChannel(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
}

export interface OutcomeRecord {
  readonly tool: ToolName;
  readonly source: OutcomeSource;
  readonly request: RequestSummary;
  readonly response: EngineResponse;
  readonly durationMs: number;
  /** run: planned and committed at once; plan: a preview that failed to plan; commit: a previewed plan committed. */
  readonly phase: 'run' | 'plan' | 'commit';
}

const MAX_LOGGED_FILES = 5;

function describeFiles(request: RequestSummary): string {
  const shown = request.files.slice(0, MAX_LOGGED_FILES).map((file) => file.filePath);
  const more = request.files.length - shown.length;
  return `[${shown.join(', ')}${more > 0 ? `, +${more} more` : ''}]`;
}

export function formatOutcome(record: OutcomeRecord): string {
  const { request, response } = record;
  const head = `${record.tool} (${record.source}${record.phase === 'run' ? '' : `, ${record.phase}`})`
    + ` ${plural(request.files.length, 'file')} ${describeFiles(request)}, ${plural(request.totalEdits, 'edit')}`
    + `${request.dryRun ? ', dry run' : ''}`;
  const outcome = response.success
    ? `success: ${response.summary}`
    : `${response.error_code}: ${response.message}`;
  return `${head} -> ${outcome} (${Math.round(record.durationMs)} ms)`;
}

export function logOutcome(log: vscode.LogOutputChannel, record: OutcomeRecord): void {
  const line = formatOutcome(record);
  if (record.response.success) {
    log.info(line);
  } else if (record.response.category === 'internal' && record.response.error_code !== 'CANCELLED') {
    log.error(line);
  } else {
    log.warn(line);
  }
}
