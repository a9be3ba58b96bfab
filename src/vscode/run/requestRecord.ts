/**
 * Every surface (tools, commands, chat, quick fixes, the preview) runs its requests
 * through the runner, which publishes one record per finished request here, so the
 * diagnostics, "show last envelope", the chat and the log see one stream.
 */
import * as vscode from 'vscode';
import type { EngineResponse, RefusedEditPlace, ResolvedRequest, ToolName } from '../../core/index';

export type RequestSource = 'tool' | 'command' | 'chat' | 'quickfix';

/** Where a request's JSON text lives when it came from a document (a request file or a selection). */
export interface RequestOrigin {
  readonly uri: vscode.Uri;
  readonly range: vscode.Range;
}

/** One finished request, as every consumer sees it. */
export interface RequestRecord {
  /** Unique within this extension host, in the order requests started. */
  readonly id: number;
  readonly source: RequestSource;
  readonly tool: ToolName;
  /** The request as the engine parsed it, with resolved paths; absent when it did not parse. */
  readonly request?: ResolvedRequest;
  readonly response: EngineResponse;
  /** Where the engine found the edits it refused after planning (a syntax regression), in the files as read. */
  readonly refusedEdits?: readonly RefusedEditPlace[];
  readonly origin?: RequestOrigin;
}

export class RequestBus implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<RequestRecord>();
  private last: RequestRecord | undefined;

  readonly onDidFinish = this.emitter.event;

  get lastOutcome(): RequestRecord | undefined {
    return this.last;
  }

  publish(record: RequestRecord): void {
    this.last = record;
    this.emitter.fire(record);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
