/**
 * The "Multi-Edit" LogOutputChannel: one line per finished request with the
 * tool, where it came from, the files, the edit count, the outcome and the time.
 * Not translated: the log is read with the envelopes, in their language.
 */
import * as vscode from 'vscode';
import { plural, userChoseOutcome } from '../../core/index';
import type { RequestRecord } from './requestRecord';
import { summarizeRequest, type RequestSummary } from './requestSummary';
import { OUTPUT_CHANNEL_NAME } from '../platform/ids';
import { displayPath } from '../platform/workspacePaths';

export function createLogChannel(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
}

export interface OutcomeRecord {
  readonly record: RequestRecord;
  readonly durationMs: number;
  /** run: planned and committed at once; plan: a request that failed to plan; commit: a planned request committed. */
  readonly phase: 'run' | 'plan' | 'commit';
}

const MAX_LOGGED_FILES = 5;

function describeFiles(request: RequestSummary): string {
  const shown = request.files.slice(0, MAX_LOGGED_FILES).map((file) => displayPath(file.filePath));
  const more = request.files.length - shown.length;
  return `[${shown.join(', ')}${more > 0 ? `, +${more} more` : ''}]`;
}

/** The request part of a log line; a request that did not parse has no files or edits to count. */
function describeRequest(record: RequestRecord): string {
  if (!record.request) {
    return 'invalid request';
  }
  const request = summarizeRequest(record.request);
  return `${plural(request.files.length, 'file')} ${describeFiles(request)}, ${plural(request.totalEdits, 'edit')}${request.dryRun ? ', dry run' : ''}`;
}

export function formatOutcome(outcome: OutcomeRecord): string {
  const { record } = outcome;
  const { response } = record;
  const head = `${record.tool} (${record.source}${outcome.phase === 'run' ? '' : `, ${outcome.phase}`}) ${describeRequest(record)}`;
  const result = response.success
    ? `success: ${response.summary}`
    : `${response.error_code}: ${response.message}`;
  return `${head} -> ${result} (${Math.round(outcome.durationMs)} ms) #${record.id}`;
}

export function logOutcome(log: vscode.LogOutputChannel, outcome: OutcomeRecord): void {
  const line = formatOutcome(outcome);
  const { response } = outcome.record;
  if (response.success) {
    log.info(line);
  } else if (response.category === 'internal' && !userChoseOutcome(response)) {
    log.error(line);
  } else {
    log.warn(line);
  }
}
