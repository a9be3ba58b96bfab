/**
 * Every surface (tools, commands, chat) reports each finished request here, so
 * diagnostics, "show last envelope" and the log see one stream of outcomes.
 */
import * as vscode from 'vscode';
import type { EngineResponse, ToolName } from '../core/index';

export type OutcomeSource = 'tool' | 'command' | 'chat' | 'quickfix';

export interface RequestOutcome {
  readonly tool: ToolName;
  /** The request as it was given (already parsed JSON, possibly invalid). */
  readonly input: unknown;
  readonly response: EngineResponse;
  readonly source: OutcomeSource;
}

export class OutcomeBus implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<RequestOutcome>();
  private last: RequestOutcome | undefined;

  readonly onDidFinish = this.emitter.event;

  get lastOutcome(): RequestOutcome | undefined {
    return this.last;
  }

  publish(outcome: RequestOutcome): void {
    this.last = outcome;
    this.emitter.fire(outcome);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
