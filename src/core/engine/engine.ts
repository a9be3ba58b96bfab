/**
 * The multi-edit engine: validate, plan every file in memory, then commit through
 * the FileStore. Every failure, even a bug, comes back as an ErrorEnvelope; nothing
 * here throws to the caller.
 */
import { commitFiles, type CommitResult } from './commit';
import { engineContext, type EngineContext } from './engineContext';
import { envelopeFor } from '../contract/envelope';
import { codeInfo, type ErrorCode } from '../contract/errorCodes';
import { failureEnvelope } from '../report/failureReport';
import { findElsewhere } from './elsewhere';
import { DEFAULT_LIMITS } from '../contract/limits';
import type { PathCheckResult } from '../store/paths';
import type { EngineOptions } from './options';
import type { FileStat, FileStore, StoreFailure, StoreResult } from '../store/fileStore';
import { statWithRetry } from './planFile';
import { planOperation } from './fileOperations';
import type { FileFailure, FilePlan, PlannedFile, RefusedEditPlace } from '../plan/filePlan';
import type { ParsedRequest, ParseResult, ResolvedFile, ResolvedRequest } from '../request/request';
import { parseRequest } from '../formats/inputFormats';
import type { EngineResponse, ErrorEnvelope, SuccessResponse, SuccessResponseWith, Warning } from '../contract/schemas';
import { streamedSuccessResponse, successResponse, type SuccessInput } from '../report/successReport';
import type { DiffPieces } from '../report/diff';
import { syntaxRegressions } from '../syntax/syntaxGate';
import { syntaxFailure, syntaxWarning } from '../syntax/syntaxReport';
import { editCountProblem, SPLIT_HINT } from '../request/requestLimits';

export type { PlannedFile } from '../plan/filePlan';

export interface RequestPlan {
  /** The request this plan was made from. */
  readonly request: ResolvedRequest;
  readonly dryRun: boolean;
  readonly includeDiff: boolean;
  readonly files: readonly PlannedFile[];
  readonly warnings: readonly Warning[];
}

/** A failed plan still carries the request when it parsed, so every surface can show where it failed. */
export type PlanResult =
  | { readonly ok: true; readonly plan: RequestPlan }
  | { readonly ok: false; readonly envelope: ErrorEnvelope; readonly request?: ResolvedRequest; readonly refusedEdits?: readonly RefusedEditPlace[] };

/** A finished request: the response, beside the request as parsed when it parsed. */
export interface RequestRun<Success = SuccessResponse> {
  readonly request?: ResolvedRequest;
  readonly response: Success | ErrorEnvelope;
  /** Where the edits refused after planning (a syntax regression) are in their files as read. */
  readonly refusedEdits?: readonly RefusedEditPlace[];
}

/** How a success response is made from a plan: with its diffs as strings, or as pieces. */
type SuccessMaker<Success> = (input: SuccessInput) => Success;

/**
 * Validates and plans a request without writing anything. `tool` is a ToolName; any
 * other string gets UNKNOWN_TOOL.
 */
export function planRequest(tool: string, input: unknown, options: EngineOptions): Promise<PlanResult> {
  return planParsedRequest(parseRequest(tool, input, engineContext(options).limits), options);
}

/** planRequest for a request the surface has already read with parseRequest: it is not read again. */
export async function planParsedRequest(parsed: ParseResult | Promise<ParseResult>, options: EngineOptions): Promise<PlanResult> {
  const context = engineContext(options);
  return guardedPlanning(async () => {
    const drafted = await draftChecked(await parsed, context);
    return drafted.ok ? gateChecked(drafted.draft, context) : drafted;
  }, options);
}

async function guardedPlanning<T>(plan: () => Promise<T>, options: EngineOptions): Promise<T | PlanFailure> {
  try {
    return await plan();
  } catch (error) {
    return { ok: false, envelope: internalError('while planning the edits', error, options) };
  }
}

/** Writes a plan made by planRequest, or renders its dry run. */
export function commitPlan(plan: RequestPlan, options: EngineOptions): Promise<EngineResponse> {
  return commitWith(plan, options, successResponse);
}

async function commitWith<Success>(plan: RequestPlan, options: EngineOptions, makeSuccess: SuccessMaker<Success>): Promise<Success | ErrorEnvelope> {
  try {
    return await commitChecked(plan, engineContext(options), makeSuccess);
  } catch (error) {
    return internalError('while writing the files', error, options);
  }
}

/**
 * Plans and commits one request. Never throws. When another writer commits first, the
 * request is planned again against the new text: the caller sent edits, not a
 * version, so applying them to the current file is what it asked for. A plan made
 * for someone to confirm (planRequest, then commitPlan) is never re-planned.
 */
export function runRequest(tool: string, input: unknown, options: EngineOptions): Promise<RequestRun> {
  return runWith(readOnce(() => parseRequest(tool, input, engineContext(options).limits)), options, successResponse);
}

/**
 * runRequest for a request the surface has already read with parseRequest (to take its
 * turn on the files it names): the engine plans from that reading and does not read the input again.
 */
export function runParsedRequest(parsed: ParseResult | Promise<ParseResult>, options: EngineOptions): Promise<RequestRun> {
  return runWith(async () => parsed, options, successResponse);
}

/**
 * runRequest for a caller that writes the response out as it goes (the CLI): each diff
 * comes as DiffPieces, made while it is written, and never clipped.
 */
export function runRequestWithDiffPieces(tool: string, input: unknown, options: EngineOptions): Promise<RequestRun<SuccessResponseWith<DiffPieces | string>>> {
  return runWith(readOnce(() => parseRequest(tool, input, engineContext(options).limits)), options, streamedSuccessResponse);
}

/** runRequestWithDiffPieces for a request already read, as runParsedRequest is for runRequest. */
export function runParsedRequestWithDiffPieces(parsed: ParseResult | Promise<ParseResult>, options: EngineOptions): Promise<RequestRun<SuccessResponseWith<DiffPieces | string>>> {
  return runWith(async () => parsed, options, streamedSuccessResponse);
}

/** The reading of a request, made on first use (inside the guard that makes a throw INTERNAL_ERROR) and kept for each re-plan. */
type RequestReading = () => Promise<ParseResult>;

function readOnce(read: RequestReading): RequestReading {
  let reading: Promise<ParseResult> | undefined;
  return () => (reading ??= read());
}

async function runWith<Success extends { readonly success: true }>(
  read: RequestReading, options: EngineOptions, makeSuccess: SuccessMaker<Success>,
): Promise<RequestRun<Success>> {
  let run: RequestRun<Success> | undefined;
  for (let attempt = 0; attempt < REPLANS_AFTER_STALE + 1; attempt++) {
    const tried = await planAndCommit(read, options, makeSuccess);
    run = tried.run;
    const { response } = run;
    if (!tried.committed || response.success || response.error_code !== 'STALE_CONTENT' || response.rolled_back !== undefined) {
      return run;
    }
  }
  return run as RequestRun<Success>;
}

/** Enough for a handful of writers racing on one file; a file that keeps changing is reported. */
const REPLANS_AFTER_STALE = 4;

/** One plan and its commit; `committed` is false when the plan was refused and nothing was tried. */
interface Attempt<Success> {
  readonly run: RequestRun<Success>;
  readonly committed: boolean;
}

/**
 * Plans and commits once. When the store can stage before the syntax gate's verdict,
 * the gate parses while the store waits for the disk (commitWhileGating); otherwise
 * the gate runs first, as in planRequest.
 */
async function planAndCommit<Success>(read: RequestReading, options: EngineOptions, makeSuccess: SuccessMaker<Success>): Promise<Attempt<Success>> {
  const context = engineContext(options);
  const drafted = await guardedPlanning(async () => draftChecked(await read(), context), options);
  if (!drafted.ok) {
    return refusedAttempt(drafted);
  }
  const { draft } = drafted;
  const commitWhenCleared = context.store.commitWhenCleared?.bind(context.store);
  if (context.syntax && !draft.request.dryRun && commitWhenCleared) {
    return commitWhileGating(draft, commitWhenCleared, context, options, makeSuccess);
  }
  const planned = await guardedPlanning(() => gateChecked(draft, context), options);
  if (!planned.ok) {
    return refusedAttempt(planned);
  }
  return { run: { request: planned.plan.request, response: await commitWith(planned.plan, options, makeSuccess) }, committed: true };
}

function refusedAttempt<Success>({ envelope, request, refusedEdits }: PlanFailure): Attempt<Success> {
  return { run: { ...(request ? { request } : {}), response: envelope, ...(refusedEdits ? { refusedEdits } : {}) }, committed: false };
}

/**
 * Commits a draft while the syntax gate judges it: the store locks, stages and syncs,
 * the gate parses meanwhile, and the store publishes only on its go-ahead. A refusal
 * is answered as if the gate had run first: the store undid its staging, so no file
 * changed. The durability point does not move: the answer still waits for the commit.
 */
async function commitWhileGating<Success>(
  draft: DraftPlan,
  commitWhenCleared: NonNullable<FileStore['commitWhenCleared']>,
  context: EngineContext,
  options: EngineOptions,
  makeSuccess: SuccessMaker<Success>,
): Promise<Attempt<Success>> {
  const { request } = draft;
  let verdict: Promise<PlanResult> | undefined;
  const gate = (): Promise<PlanResult> => (verdict ??= guardedPlanning(() => gateChecked(draft, context), options));
  let success: Success | undefined;
  let failure: unknown;
  const goAhead = async (): Promise<boolean> => {
    try {
      const planned = await gate();
      if (!planned.ok) {
        return false;
      }
      // Before anything is published.
      success ??= successFor(planned.plan, context, makeSuccess);
      return !context.isCancelled();
    } catch (error) {
      failure ??= error;
      return false;
    }
  };
  if (context.planningStopped()) {
    return refusedAttempt({ ok: false, envelope: cancelled(request, context), request });
  }
  const result: CommitResult | undefined = await commitFiles(draft.planned.map(({ file }) => file), context, async (changes) => {
    const committed = await commitWhenCleared(changes, goAhead, context.isCancelled);
    // While a file is busy the verdict is reached anyway, and a refusal ends the waiting.
    return !committed.ok && committed.code === 'FILE_BUSY' && !(await goAhead()) ? heldBack() : committed;
  }).catch((error: unknown) => {
    failure ??= error;
    return undefined;
  });
  const planned = await gate();
  if (!planned.ok) {
    return refusedAttempt(planned);
  }
  if (result === undefined || failure !== undefined) {
    return { run: { request, response: internalError('while writing the files', failure, options) }, committed: true };
  }
  const response = result.ok ? success ?? successFor(planned.plan, context, makeSuccess) : commitFailure(result, planned.plan.files, !planned.plan.request.singleFile, context);
  return { run: { request, response }, committed: true };
}

function heldBack(): StoreFailure {
  return { ok: false, code: 'CANCELLED', detail: 'the commit was held back before anything was written' };
}

/** A request planned in memory, before the syntax gate's verdict. */
interface DraftPlan {
  readonly request: ResolvedRequest;
  readonly planned: readonly { readonly file: PlannedFile; readonly fileIndex: number }[];
  /** Every warning but the gate's. */
  readonly warnings: readonly Warning[];
}

type PlanFailure = Extract<PlanResult, { ok: false }>;

const TIME_LIMIT_HINT = 'Planning was stopped by the time limit the server or command was started with (--max-time), not by the user: split the request, or ask the user to raise the limit';

async function draftChecked(parsed: ParseResult, context: EngineContext): Promise<{ ok: true; draft: DraftPlan } | PlanFailure> {
  const maxBytes = context.limits.maxEnvelopeBytes;
  if (!parsed.ok) {
    const { code, message, hints, fileIndex, filePath, issues, ownHintsOnly } = parsed.problem;
    return refuse(envelopeFor(code, message, {
      ...(hints ? { hints } : {}),
      ...(ownHintsOnly ? { ownHintsOnly } : {}),
      ...(issues ? { validation_issues: issues } : {}),
      ...(fileIndex !== undefined ? { file_index: fileIndex } : {}),
      ...(filePath !== undefined ? { file_path: filePath } : {}),
      maxBytes,
    }));
  }
  const parsedRequest = parsed.request;
  const tooMany = editCountProblem(parsedRequest, context.limits);
  if (tooMany) {
    return refuse(envelopeFor('VALIDATION_FAILED', tooMany, { hints: [SPLIT_HINT], ownHintsOnly: true, dry_run: parsedRequest.dryRun, maxBytes }));
  }
  if (context.planningStopped()) {
    return refuse(cancelled(parsedRequest, context), parsedRequest);
  }
  const requested = (path: string): string => (parsedRequest.rootRelative ? context.underRoot(path) : path);
  const checkAndStat = async (path: string): Promise<CheckedPath> => {
    const check = rootRelativeRefusal(await context.checkPath(requested(path)), parsedRequest.rootRelative === true);
    return { requestedPath: requested(path), pathCheck: check, stat: check.ok ? await statWithRetry(check.path, context) : { ok: false, code: check.code, detail: check.detail } };
  };
  const sources: CheckedPath[] = [];
  const destinations: (CheckedPath | undefined)[] = [];
  for (const file of parsedRequest.files) {
    sources.push(await checkAndStat(file.filePath));
    destinations.push(file.moveTo === undefined ? undefined : await checkAndStat(file.moveTo));
  }
  const request: ResolvedRequest = {
    ...parsedRequest,
    files: parsedRequest.files.map((file, index): ResolvedFile => {
      const check = sources[index].pathCheck;
      const destination = destinations[index]?.pathCheck;
      return { ...file, ...(check.ok ? { path: check.path } : {}), ...(destination?.ok ? { movePath: destination.path } : {}) };
    }),
  };
  const duplicate = duplicateFile(request, sources, destinations, context);
  if (duplicate) {
    return refuse(duplicate, request);
  }
  const plans: FilePlan[] = [];
  for (const [fileIndex, file] of request.files.entries()) {
    if (context.planningStopped()) {
      return refuse(cancelled(request, context), request);
    }
    const destination = destinations[fileIndex];
    plans.push(await planOperation({
      fileIndex,
      ...sources[fileIndex],
      edits: file.edits,
      ...(file.encoding !== undefined ? { encoding: file.encoding } : {}),
      ...(file.operation ? { operation: file.operation } : {}),
      ...(file.content !== undefined ? { content: file.content } : {}),
      ...(file.hunks ? { hunks: file.hunks } : {}),
      ...(file.patchLine !== undefined ? { patchLine: file.patchLine } : {}),
      ...(destination ? { destination } : {}),
      dryRun: request.dryRun,
    }, context));
  }
  if (context.planningStopped()) {
    return refuse(cancelled(request, context), request);
  }
  const failures: FileFailure[] = plans.flatMap((plan) => (plan.ok ? [] : [plan.failure]));
  if (failures.length > 0) {
    const requestTexts = plans.flatMap((plan) => (plan.ok
      ? [{ path: plan.file.path, text: plan.file.original.text }]
      : plan.failure.text !== undefined ? [{ path: plan.failure.filePath, text: plan.failure.text }] : []));
    const elsewhere = await findElsewhere(failures, (fileIndex, editIndex) => request.files[fileIndex]?.edits[editIndex]?.old_string, requestTexts, context);
    return refuse(failureEnvelope({
      elsewhere,
      multiFile: !request.singleFile,
      failures,
      totalEdits: request.files.reduce((sum, file) => sum + file.edits.length, 0),
      dryRun: request.dryRun,
      maxEnvelopeBytes: maxBytes,
    }), request);
  }
  const planned = plans.flatMap((plan, fileIndex) => (plan.ok ? [{ file: plan.file, fileIndex }] : []));
  const pathWarnings = sources.map((source) => source.pathCheck).flatMap((check) => (check.ok && check.warning ? [check.warning] : []));
  return { ok: true, draft: { request, planned, warnings: [...pathWarnings, ...plans.flatMap((plan) => (plan.ok ? plan.warnings : []))] } };
}

/** The syntax gate's verdict on a draft: the plan to commit, or the refusal. */
async function gateChecked(draft: DraftPlan, context: EngineContext): Promise<PlanResult> {
  const { request, planned } = draft;
  const syntax = await syntaxVerdict(planned, request, context);
  if (!syntax.ok) {
    return { ok: false, envelope: syntax.envelope, request, refusedEdits: syntax.refusedEdits };
  }
  if (context.planningStopped()) {
    return refuse(cancelled(request, context), request);
  }
  return {
    ok: true,
    plan: {
      request,
      dryRun: request.dryRun,
      includeDiff: request.includeDiff,
      files: planned.map(({ file }) => file),
      warnings: [...draft.warnings, ...syntax.warnings],
    },
  };
}

/** The syntax gate's answer for a request that planned: a refusal, or the warnings its policy asks for. */
async function syntaxVerdict(
  planned: readonly { readonly file: PlannedFile; readonly fileIndex: number }[], request: ResolvedRequest, context: EngineContext,
): Promise<{ ok: true; warnings: Warning[] } | { ok: false; envelope: ErrorEnvelope; refusedEdits: RefusedEditPlace[] }> {
  if (!context.syntax) {
    return { ok: true, warnings: [] };
  }
  const regressions = await syntaxRegressions(planned, context.syntax.checker, context.planningStopped);
  if (context.syntax.policy === 'warn' || regressions.length === 0) {
    return { ok: true, warnings: regressions.map((regression) => syntaxWarning(regression, request.files[regression.fileIndex].edits.length, request.dryRun)) };
  }
  return {
    ok: false,
    envelope: failureEnvelope({
      multiFile: !request.singleFile,
      failures: regressions.map((regression) => syntaxFailure(regression, request.files[regression.fileIndex].edits, context.limits)),
      totalEdits: request.files.reduce((sum, file) => sum + file.edits.length, 0),
      dryRun: request.dryRun,
      maxEnvelopeBytes: context.limits.maxEnvelopeBytes,
    }),
    refusedEdits: regressions.map(({ fileIndex, editIndex, replaced }) => ({ fileIndex, editIndex, ...replaced })),
  };
}

/** The success response for a plan, built before anything is written so that nothing after the commit can fail. */
function successFor<Success>(plan: RequestPlan, context: EngineContext, makeSuccess: SuccessMaker<Success>): Success {
  return makeSuccess({ multiFile: !plan.request.singleFile, ...plan, ...(plan.request.fullDiff ? { fullDiff: true } : {}), maxDiffBytes: context.limits.maxDiffBytes, ...(context.requestId !== undefined ? { requestId: context.requestId } : {}) });
}

async function commitChecked<Success>(plan: RequestPlan, context: EngineContext, makeSuccess: SuccessMaker<Success>): Promise<Success | ErrorEnvelope> {
  const success = successFor(plan, context, makeSuccess);
  if (plan.dryRun) {
    return success;
  }
  if (context.isCancelled()) {
    return envelopeFor('CANCELLED', 'The request was cancelled before anything was written; no file was changed', {
      dry_run: false,
      maxBytes: context.limits.maxEnvelopeBytes,
    });
  }
  const result = await commitFiles(plan.files, context);
  return result.ok ? success : commitFailure(result, plan.files, !plan.request.singleFile, context);
}

/** The envelope of a commit that failed; `files` are the planned files, for their names. */
export function commitFailure(failure: Exclude<CommitResult, { ok: true }>, files: readonly PlannedFile[], multiFile: boolean, context: EngineContext): ErrorEnvelope {
  const code = commitCode(failure.code);
  const fileIndex = files.findIndex((file) => file.path === failure.failedPath);
  const file = files[fileIndex];
  const target = file ? file.displayPath : multiFile ? 'the files' : files[0].displayPath;
  const restored = failure.rolledBack.length > 0
    ? `; ${failure.rolledBack.map(context.displayPath).join(', ')} ${failure.rolledBack.length === 1 ? 'was' : 'were'} written and then restored`
    : '';
  const lost = failure.notRestored.length > 0;
  const notRestored = lost
    ? `; putting back ${failure.notRestored.map(context.displayPath).join(', ')} failed too, so ${failure.notRestored.length === 1 ? 'it holds' : 'they hold'} the new text for now`
    : '';
  const unchanged = lost ? '' : '; no file was changed';
  const message = code === 'STALE_CONTENT'
    ? `${target} changed after it was read${restored}${notRestored}${unchanged}`
    : code === 'CANCELLED'
      ? `The request was interrupted while writing${restored}${notRestored}${unchanged}`
      : code === 'USER_DENIED'
        ? `${failure.detail}${unchanged}`
        : code === 'SAVE_REDIRECTED'
          ? `${target} was edited, but ${failure.detail}`
          : `Could not write ${target}: ${failure.detail}${restored}${notRestored}${unchanged}`;
  return envelopeFor(code, message, {
    ...(file ? { file_path: file.path } : {}),
    ...(file && multiFile ? { file_index: fileIndex } : {}),
    rolled_back: failure.rolledBack,
    ...(lost ? { hints: [`Tell the user that ${failure.notRestored.map(context.displayPath).join(', ')} could not be put back; the next run that touches them finishes the rollback`] } : {}),
    dry_run: false,
    maxBytes: context.limits.maxEnvelopeBytes,
  });
}

/**
 * A store's write failure as the caller should read it: a file that vanished or
 * became a directory since it was read is stale, and an input or match code (which
 * a write cannot really cause) is a plain WRITE_FAILED. VALIDATION_FAILED stays: a
 * store finds two paths of the request naming one file where the file system ignores
 * case and its inode numbers could not tell (FAT).
 */
function commitCode(code: ErrorCode): ErrorCode {
  if (code === 'FILE_NOT_FOUND' || code === 'IS_DIRECTORY') {
    return 'STALE_CONTENT';
  }
  if (code === 'VALIDATION_FAILED') {
    return code;
  }
  const category = codeInfo(code).category;
  // A name the file system refuses (too long, or one file named twice) is the caller's to change, at commit as at planning.
  return category === 'input' || category === 'match' ? 'WRITE_FAILED' : code;
}

/**
 * The same file twice in one request would make the order of its edits unclear (and
 * a patch that adds, deletes or moves a file twice is contradictory). Two paths name
 * the same file when they are equal, or when the store says they lead to one file
 * (a symbolic or hard link). A move's destination counts as a path of its own.
 */
function duplicateFile(
  request: ParsedRequest,
  sources: readonly CheckedPath[],
  destinations: readonly (CheckedPath | undefined)[],
  context: EngineContext,
): ErrorEnvelope | undefined {
  const firstIndexOf = new Map<string, number>();
  for (const [fileIndex] of request.files.entries()) {
    for (const checked of [sources[fileIndex], destinations[fileIndex]]) {
      if (checked === undefined) {
        continue;
      }
      const { pathCheck, stat } = checked;
      const path = pathCheck.ok ? pathCheck.path : checked.requestedPath;
      // A file not made yet has no identity; where its name leads (through links) tells two names of it apart.
      const key = stat.ok && stat.value.identity !== undefined ? `identity:${stat.value.identity}` : `path:${(pathCheck.ok ? pathCheck.realPath : undefined) ?? path}`;
      const earlier = firstIndexOf.get(key);
      if (earlier !== undefined) {
        return envelopeFor('VALIDATION_FAILED', duplicateMessage(request, fileIndex, earlier), {
          file_path: path,
          file_index: fileIndex,
          hints: [request.patch === undefined ? 'Put all edits of one file in one entry of files, in the order they should apply' : 'Put all hunks of one file under one file header, in order'],
          dry_run: request.dryRun,
          maxBytes: context.limits.maxEnvelopeBytes,
        });
      }
      firstIndexOf.set(key, fileIndex);
    }
  }
  return undefined;
}

function duplicateMessage(request: ParsedRequest, fileIndex: number, earlier: number): string {
  const line = request.files[fileIndex].patchLine;
  const earlierLine = request.files[earlier].patchLine;
  return line !== undefined && earlierLine !== undefined
    ? `patch line ${line}: the file operation names a file that the one at line ${earlierLine} already names`
    : `files[${fileIndex}].file_path: the same file as files[${earlier}].file_path`;
}

function cancelled(request: ParsedRequest, context: EngineContext): ErrorEnvelope {
  const reason = context.stopMessage();
  return envelopeFor('CANCELLED', `${reason.charAt(0).toUpperCase()}${reason.slice(1)}; no file was changed`, {
    ...(context.isCancelled() ? {} : { hints: [TIME_LIMIT_HINT], ownHintsOnly: true }),
    dry_run: request.dryRun,
    maxBytes: context.limits.maxEnvelopeBytes,
  });
}

function internalError(phase: string, error: unknown, options: EngineOptions): ErrorEnvelope {
  options.onInternalError?.(phase, error);
  return envelopeFor('INTERNAL_ERROR', `An internal error occurred ${phase}; no file was changed`, {
    maxBytes: options.limits?.maxEnvelopeBytes ?? DEFAULT_LIMITS.maxEnvelopeBytes,
  });
}

function refuse(envelope: ErrorEnvelope, request?: ResolvedRequest): PlanFailure {
  return { ok: false, envelope, ...(request ? { request } : {}) };
}

/** A path of a request as the engine checked and stat'ed it. */
/**
 * A patch names its files relative to its root: a ".." that leaves it is answered with that, not
 * with the general hint to pass an absolute path, which a patch does not take.
 */
function rootRelativeRefusal(check: PathCheckResult, rootRelative: boolean): PathCheckResult {
  if (!rootRelative || check.ok || check.code !== 'PATH_TRAVERSAL') {
    return check;
  }
  return { ...check, hints: [ROOT_RELATIVE_HINT, ...(check.hints ?? [])], ownHintsOnly: true };
}

const ROOT_RELATIVE_HINT = 'Write the path relative to the root without ".." segments: a patch changes only files under its root';

interface CheckedPath {
  readonly requestedPath: string;
  readonly pathCheck: PathCheckResult;
  readonly stat: StoreResult<FileStat>;
}
