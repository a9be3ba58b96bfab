/**
 * The one path every VS Code surface takes to the engine: it builds the engine
 * options from the settings and the workspace, runs (or plans and commits) the
 * request, gives it an id, logs it, and publishes its record on the RequestBus.
 * An applied request also gets its request_id and is kept in the request history
 * (editorHistory.ts), which undo from the history goes through as well.
 */
import type * as vscode from 'vscode';
import {
  commitPlan, type EngineOptions, type EngineResponse, type ErrorEnvelope, parseRequest, type ParseResult, planParsedRequest, type RefusedEditPlace, type RepeatedFailures, type RequestPlan, runParsedRequest, type ResolvedRequest,
  type SuccessResponse, surfaceOptions, type SyntaxChecker, type SyntaxCheckPolicy, type ToolName,
} from '../../core/index';
import type { EditorHistory, HistoryItem } from './editorHistory';
import { logOutcome, type OutcomeRecord } from './requestLog';
import { RecentRecords } from './recentRecords';
import { createPathCheck } from '../../shared/pathPolicy';
import { engineLimits, retryPolicy, type SettingsReader } from '../platform/settings';
import { type ReviewResult, WorkspaceFileStore, type StoreHooks } from '../platform/workspaceFileStore';
import { absoluteTarget, displayPath, pathPolicyConfig } from '../platform/workspacePaths';
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

/** The reading hook of the integration tests: told of every reading of a request, so a test can count them. */
export interface ReadHooks {
  afterRead?: (tool: ToolName) => void;
}

/** A request as the engine read it, or the reading still under way. */
export type Reading = ParseResult | Promise<ParseResult>;

export interface RequestRunnerDeps {
  readonly bus: RequestBus;
  readonly log: vscode.LogOutputChannel;
  readonly settings: SettingsReader;
  readonly hooks?: StoreHooks;
  readonly readHooks?: ReadHooks;
  /** Parses edited files for the syntax gate. */
  readonly syntaxChecker: SyntaxChecker;
  /** Where applied requests are kept, so they can be undone later from any surface. */
  readonly history: EditorHistory;
}

/** The engine's options for one request, and what to add to its answer once it ran. */
interface RecordedOptions {
  readonly options: EngineOptions;
  readonly finish: <Response extends EngineResponse>(response: Response) => Response;
}

export class RequestRunner {
  private nextId = 1;
  private readonly recent = new RecentRecords();

  constructor(private readonly deps: RequestRunnerDeps) {}

  /**
   * Reads a request as the engine does. Every reading the extension makes is this one, so a caller
   * that read a request already (to name its files, to ask about it) passes the reading on to
   * run, dryRun or plan, and the request is read once per call.
   */
  read(tool: ToolName, input: unknown): Promise<ParseResult> {
    const reading = parseRequest(tool, input);
    this.deps.readHooks?.afterRead?.(tool);
    return reading;
  }

  /** Plans and commits a request as it asks (a dry run when it says so); `reading` is its reading when the caller made it. */
  async run(tool: ToolName, input: unknown, options: RunOptions, reading: Reading = this.read(tool, input)): Promise<RequestRecord> {
    const id = this.nextId++;
    const started = performance.now();
    const read = await reading;
    const paths = read.ok && !read.request.dryRun ? read.request.files.flatMap((file) => absoluteTarget(file.filePath) ?? []) : undefined;
    const recorded = await this.recorded(this.engineOptions(options), paths);
    const ran = await runParsedRequest(read, recorded.options);
    const { request, refusedEdits } = ran;
    const response = recorded.finish(ran.response);
    const answered = options.repeats ? options.repeats.note(tool, input, response) : response;
    return this.finish({ id, tool, request, response: answered, refusedEdits }, options, started, 'run');
  }

  /** A recent record by its id; undefined once many later requests have finished. */
  recordById(id: number): RequestRecord | undefined {
    return this.recent.get(id);
  }

  /** Checks a request as a dry run, whatever its own dry_run says: nothing is written. */
  async dryRun(tool: ToolName, input: unknown, options: RunOptions, reading?: Reading): Promise<RequestRecord> {
    const planned = await this.plan(tool, input, options, reading);
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
  async plan(tool: ToolName, input: unknown, options: RunOptions, reading: Reading = this.read(tool, input)): Promise<PlannedRequest> {
    const id = this.nextId++;
    const started = performance.now();
    const planned = await planParsedRequest(reading, this.engineOptions(options));
    if (!planned.ok) {
      return { ok: false, record: this.finish({ id, tool, request: planned.request, response: planned.envelope, refusedEdits: planned.refusedEdits }, options, started, 'plan') };
    }
    this.deps.log.debug(`${tool} (${options.source}, plan) ready: ${planned.plan.files.length} file(s) in ${Math.round(performance.now() - started)} ms`);
    return { ok: true, id, plan: planned.plan };
  }

  /** Commits a plan made by plan(); `review` replaces the plain commit with one the user confirms. */
  async commit(plan: RequestPlan, id: number, options: RunOptions, review?: () => Promise<ReviewResult>): Promise<RequestRecord> {
    const started = performance.now();
    const recorded = await this.recorded(this.engineOptions(options, review), plan.dryRun ? undefined : plan.files.map((file) => file.path));
    const response = recorded.finish(await commitPlan(plan, recorded.options));
    return this.finish({ id, tool: plan.request.tool, request: plan.request, response }, options, started, 'commit');
  }

  /** The request history's recent requests, newest first, across the workspace folders. */
  historyItems(limit: number): Promise<HistoryItem[]> {
    return this.deps.history.list(this.engineOptions({ source: 'command' }).store, limit);
  }

  /** A request of the history by its id, with the folder whose history keeps it. */
  historyItem(id: string): Promise<HistoryItem | undefined> {
    return this.deps.history.find(id, this.engineOptions({ source: 'command' }).store);
  }

  /** A request of the history with the texts undo would restore, to show them. */
  historyItemWithTexts(item: HistoryItem): Promise<HistoryItem> {
    return this.deps.history.withKeptTexts(item, this.engineOptions({ source: 'command' }).store);
  }

  /**
   * Undoes a request of the history (a dry run shows the diff it would apply), through the
   * workspace's store and path check as any request: open editors show the restored text.
   */
  async undoFromHistory(item: HistoryItem, dryRun: boolean, options: RunOptions): Promise<SuccessResponse | ErrorEnvelope> {
    const started = performance.now();
    const response = await this.deps.history.undo(item.root, item.entry.request_id, dryRun, this.engineOptions(options));
    const outcome = response.success ? 'ok' : response.error_code;
    this.deps.log.info(`undo of request ${item.entry.request_id} (${options.source}${dryRun ? ', dry run' : ''}): ${outcome} in ${Math.round(performance.now() - started)} ms`);
    return response;
  }

  /** The editor's own undo took request `id` back: the history marks it undone. */
  async markUndoneInHistory(id: string): Promise<void> {
    try {
      await this.deps.history.markUndone(id, this.engineOptions({ source: 'command' }).store);
    } catch (error) {
      this.deps.log.warn(`Request ${id} was undone in the editor, but the request history could not be told: ${String(error)}`);
    }
  }

  /**
   * An applied request's options: its request_id, and its commit recorded in the history.
   * `paths`: the files it names (absolute), or undefined for a dry run, which gets neither.
   */
  private async recorded(options: EngineOptions, paths: readonly string[] | undefined): Promise<RecordedOptions> {
    if (paths === undefined) {
      return { options, finish: (response) => response };
    }
    const run = await this.deps.history.record(paths, options.store);
    return { options: { ...options, store: run.store, requestId: run.requestId }, finish: run.finish };
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
