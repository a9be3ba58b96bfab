/**
 * The one path every VS Code surface takes to the engine: it builds the engine
 * options from the settings and the workspace, runs (or plans and commits) the
 * request, logs it, and publishes the outcome on the OutcomeBus.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { commitPlan, planRequest, runRequest, type PlanResult, type RequestPlan } from '../core/engine';
import type { ToolName } from '../core/ids';
import type { EngineOptions } from '../core/options';
import type { EngineResponse } from '../core/schemas';
import { logOutcome, type OutcomeRecord } from './log';
import type { OutcomeBus, OutcomeSource } from './outcomes';
import { createPathCheck, PLATFORM_IGNORES_CASE, type PathPolicyConfig, type WorkspaceFolderInfo } from '../shared/pathPolicy';
import { engineLimits, retryPolicy, type MultiEditSettings, type SettingsReader } from './settings';
import { summarizeRequest } from './tools/requestSummary';
import { WorkspaceFileStore, type StoreHooks } from './workspaceFileStore';

export interface RunOptions {
  readonly source: OutcomeSource;
  readonly token?: vscode.CancellationToken;
  /** The user confirmed this request's targets outside the workspace (the tools' prepareInvocation). */
  readonly outsideWorkspaceConfirmed?: boolean;
}

export type { PlanResult, RequestPlan };

export interface RequestRunnerDeps {
  readonly bus: OutcomeBus;
  readonly log: vscode.LogOutputChannel;
  readonly settings: SettingsReader;
  readonly hooks: StoreHooks;
}

export function currentWorkspaceFolders(): WorkspaceFolderInfo[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => ({ name: folder.name, path: folder.uri.fsPath }));
}

export function pathPolicyConfig(settings: MultiEditSettings, outsideWorkspaceConfirmed = false): PathPolicyConfig {
  return {
    folders: currentWorkspaceFolders(),
    protectedGlobs: settings.protectedGlobs,
    allowOutsideWorkspace: settings.allowOutsideWorkspace || outsideWorkspaceConfirmed,
    ignoreCase: PLATFORM_IGNORES_CASE,
  };
}

/** How a path reads in summaries: relative to its workspace folder (named when several are open); other paths as given. */
export function displayPath(requestedPath: string): string {
  if (!path.isAbsolute(requestedPath)) {
    return requestedPath;
  }
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  return vscode.workspace.asRelativePath(vscode.Uri.file(requestedPath), multiRoot);
}

export class RequestRunner {
  /** The input each pending plan was made from, so its commit publishes the request as given. */
  private readonly planInputs = new WeakMap<RequestPlan, unknown>();

  constructor(private readonly deps: RequestRunnerDeps) {}

  async run(tool: ToolName, input: unknown, options: RunOptions): Promise<EngineResponse> {
    const started = performance.now();
    const response = await runRequest(tool, input, this.engineOptions(options));
    this.report(tool, input, response, options, started, 'run');
    return response;
  }

  /** Validates and matches without writing, for previews; a failed plan is a finished request. */
  async plan(tool: ToolName, input: unknown, options: RunOptions): Promise<PlanResult> {
    const started = performance.now();
    const result = await planRequest(tool, input, this.engineOptions(options));
    if (!result.ok) {
      this.report(tool, input, result.envelope, options, started, 'plan');
      return result;
    }
    this.planInputs.set(result.plan, input);
    this.deps.log.debug(`${tool} (${options.source}, plan) ready: ${result.plan.files.length} file(s) in ${Math.round(performance.now() - started)} ms`);
    return result;
  }

  async commit(tool: ToolName, plan: RequestPlan, options: RunOptions): Promise<EngineResponse> {
    const started = performance.now();
    const response = await commitPlan(tool, plan, this.engineOptions(options));
    this.report(tool, this.planInputs.get(plan), response, options, started, 'commit');
    this.planInputs.delete(plan);
    return response;
  }

  private engineOptions(options: RunOptions): EngineOptions {
    const settings = this.deps.settings.current();
    const cancellation = options.token;
    return {
      store: new WorkspaceFileStore({
        saveAfterEdit: settings.saveAfterEdit,
        displayPath,
        cancellation,
        hooks: this.deps.hooks,
        log: this.deps.log,
      }),
      limits: engineLimits(settings),
      retry: retryPolicy(settings),
      checkPath: createPathCheck(pathPolicyConfig(settings, options.outsideWorkspaceConfirmed)),
      displayPath,
      cancellation,
    };
  }

  /** Logs a finished request and publishes it; `started` is its performance.now() at the start. */
  report(tool: ToolName, input: unknown, response: EngineResponse, options: RunOptions, started: number, phase: OutcomeRecord['phase']): void {
    const request = summarizeRequest(tool, input);
    logOutcome(this.deps.log, {
      tool,
      source: options.source,
      request: { ...request, files: request.files.map((file) => ({ ...file, filePath: displayPath(file.filePath) })) },
      response,
      durationMs: performance.now() - started,
      phase,
    });
    this.deps.bus.publish({ tool, input, response, source: options.source });
  }
}
