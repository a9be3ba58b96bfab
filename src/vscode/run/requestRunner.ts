/**
 * The one path every VS Code surface takes to the engine: it builds the engine
 * options from the settings and the workspace, runs (or plans and commits) the
 * request, gives it an id, logs it, and publishes its record on the RequestBus.
 */
import type * as vscode from 'vscode';
import {
  commitPlan, type EngineOptions, type EngineResponse, planRequest, type RefusedEditPlace, type RepeatedFailures, type RequestPlan, runRequest, type ResolvedRequest, surfaceOptions, type SyntaxChecker, type SyntaxCheckPolicy, type ToolName,
} from '../../core/index';
import { logOutcome, type OutcomeRecord } from './requestLog';
import { RecentRecords } from './recentRecords';
import { createPathCheck } from '../../shared/pathPolicy';
import { engineLimits, retryPolicy, type SettingsReader } from '../platform/settings';
import { type ReviewResult, WorkspaceFileStore, type StoreHooks } from '../platform/workspaceFileStore';
import { displayPath, pathPolicyConfig } from '../platform/workspacePaths';
import type { RequestBus, RequestOrigin, RequestRecord, RequestSource } from './requestRecord';

export interface RunOptions {
  readonly source: RequestSource;
  readonly token?: vscode.CancellationToken;
  /** The user confirmed this request's targets outside the workspace (the tools' prepareInvocation). */
  readonly outsideWorkspaceConfirmed?: boolean;
  /** Where the request's JSON came from, so failures of the request as a whole can point there. */
  readonly origin?: RequestOrigin;
  /** Replaces the syntaxCheck setting for this request ("Apply anyway" runs at 'warn'). */
  readonly syntaxCheck?: SyntaxCheckPolicy;
  /**
   * The session whose loop breaker notes this request (the language-model tools): a failure it has
   * seen before escalates, and the record carries the response as the caller gets it.
   */
  readonly repeats?: RepeatedFailures;
}

/** A request planned for someone to confirm, under the id its record will carry. */
export type PlannedRequest =
  | { readonly ok: true; readonly id: number; readonly plan: RequestPlan }
  | { readonly ok: false; readonly record: RequestRecord };

export interface RequestRunnerDeps {
  readonly bus: RequestBus;
  readonly log: vscode.LogOutputChannel;
  readonly settings: SettingsReader;
  readonly hooks?: StoreHooks;
  /** Parses edited files for the syntax gate. */
  readonly syntaxChecker: SyntaxChecker;
}

export class RequestRunner {
  private nextId = 1;
  private readonly recent = new RecentRecords();

  constructor(private readonly deps: RequestRunnerDeps) {}

  /** Plans and commits a request as it asks (a dry run when it says so). */
  async run(tool: ToolName, input: unknown, options: RunOptions): Promise<RequestRecord> {
    const id = this.nextId++;
    const started = performance.now();
    const { request, response, refusedEdits } = await runRequest(tool, input, this.engineOptions(options));
    const answered = options.repeats ? options.repeats.note(tool, input, response) : response;
    return this.finish({ id, tool, request, response: answered, refusedEdits }, options, started, 'run');
  }

  /** A recent record by its id; undefined once many later requests have finished. */
  recordById(id: number): RequestRecord | undefined {
    return this.recent.get(id);
  }

  /** Checks a request as a dry run, whatever its own dry_run says: nothing is written. */
  async dryRun(tool: ToolName, input: unknown, options: RunOptions): Promise<RequestRecord> {
    const planned = await this.plan(tool, input, options);
    return planned.ok ? this.commit(withDryRun(planned.plan, true), planned.id, options) : planned.record;
  }

  /**
   * Commits what the user confirms in `review` (the Refactor Preview hands its own), in place of
   * the plain commit. The review is the dry run, so the request's own dry_run does not apply.
   */
  async runReviewed(tool: ToolName, input: unknown, options: RunOptions, review: (plan: RequestPlan) => Promise<ReviewResult>): Promise<{ readonly record: RequestRecord; readonly plan?: RequestPlan }> {
    const planned = await this.plan(tool, input, options);
    if (!planned.ok) {
      return { record: planned.record };
    }
    const plan = withDryRun(planned.plan, false);
    return { record: await this.commit(plan, planned.id, options, () => review(plan)), plan };
  }

  /** Validates and matches without writing, for a confirmation first; a failed plan is a finished request. */
  async plan(tool: ToolName, input: unknown, options: RunOptions): Promise<PlannedRequest> {
    const id = this.nextId++;
    const started = performance.now();
    const planned = await planRequest(tool, input, this.engineOptions(options));
    if (!planned.ok) {
      return { ok: false, record: this.finish({ id, tool, request: planned.request, response: planned.envelope, refusedEdits: planned.refusedEdits }, options, started, 'plan') };
    }
    this.deps.log.debug(`${tool} (${options.source}, plan) ready: ${planned.plan.files.length} file(s) in ${Math.round(performance.now() - started)} ms`);
    return { ok: true, id, plan: planned.plan };
  }

  /** Commits a plan made by plan(); `review` replaces the plain commit with one the user confirms. */
  async commit(plan: RequestPlan, id: number, options: RunOptions, review?: () => Promise<ReviewResult>): Promise<RequestRecord> {
    const started = performance.now();
    const response = await commitPlan(plan, this.engineOptions(options, review));
    return this.finish({ id, tool: plan.request.tool, request: plan.request, response }, options, started, 'commit');
  }

  private engineOptions(options: RunOptions, review?: () => Promise<ReviewResult>): EngineOptions {
    const settings = this.deps.settings.current();
    const cancellation = options.token;
    const config = pathPolicyConfig(settings, options.outsideWorkspaceConfirmed);
    return surfaceOptions({
      scope: { checkPath: createPathCheck(config), folders: config.folders.map((folder) => folder.path), displayPath },
      store: new WorkspaceFileStore({
        saveAfterEdit: settings.saveAfterEdit,
        displayPath,
        cancellation,
        ...(this.deps.hooks ? { hooks: this.deps.hooks } : {}),
        log: this.deps.log,
        ...(review ? { review } : {}),
      }),
      syntax: { policy: options.syntaxCheck ?? settings.syntaxCheck, checker: this.deps.syntaxChecker },
      limits: engineLimits(settings),
      retry: retryPolicy(settings),
      ...(cancellation ? { cancellation } : {}),
      onInternalError: (phase, error) => this.deps.log.error(`internal error ${phase}:`, error),
    });
  }

  /** Logs a finished request and publishes its record; `started` is its performance.now() at the start. */
  private finish(
    run: { id: number; tool: ToolName; request?: ResolvedRequest; response: EngineResponse; refusedEdits?: readonly RefusedEditPlace[] },
    options: RunOptions,
    started: number,
    phase: OutcomeRecord['phase'],
  ): RequestRecord {
    const record: RequestRecord = {
      id: run.id,
      source: options.source,
      tool: run.tool,
      ...(run.request ? { request: run.request } : {}),
      response: run.response,
      ...(run.refusedEdits ? { refusedEdits: run.refusedEdits } : {}),
      ...(options.origin ? { origin: options.origin } : {}),
    };
    logOutcome(this.deps.log, { record, durationMs: performance.now() - started, phase });
    this.recent.remember(record);
    this.deps.bus.publish(record);
    return record;
  }
}

function withDryRun(plan: RequestPlan, dryRun: boolean): RequestPlan {
  return { ...plan, dryRun, request: { ...plan.request, dryRun } };
}
