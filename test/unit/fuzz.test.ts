/**
 * Fuzzing the engine's public API (runRequest) over the whole request space: both
 * tools, well-formed and malformed input, hostile paths and strings. For every case:
 * no throw, no hang, a response that parses and is hygienic, no byte of any file
 * changed by a failure, a success equal to applying the edits one by one, and the
 * error code (and where it points) that the input class calls for.
 *
 * MULTI_EDIT_FUZZ_RUNS raises the number of cases (default 10,000).
 */
import { portablePathProblem } from '../../src/core/store/portableNames';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { runRequest } from '../../src/core/engine/engine';
import type { ErrorCode } from '../../src/core/contract/errorCodes';
import type { EngineResponse } from '../../src/core/contract/schemas';
import { assertHygienic } from '../shared/hygiene';
import { recordFigure, recordLostBytes } from './helpers/figures';
import { assertMatchesSchema, recordingSleep } from './helpers/engineRun';
import { AtomicMemoryStore, MemoryStore } from './helpers/memoryStore';

const RUNS = Number(process.env.MULTI_EDIT_FUZZ_RUNS ?? 10_000);
const CASE_TIMEOUT_MS = 5_000;

// ---- input rules that another branch is adding ----

/**
 * True until the branch that adds these input rules is merged; then flip it to false.
 * While true, a case of a class below may also get the outcome the code gives today.
 */
const AWAITING_INPUT_RULES = false;

/** The classes whose expected code is the new rule's, and what the engine gives for them today. */
const INPUT_RULES_BEING_ADDED = {
  drivePath: { expected: 'RELATIVE_PATH', today: 'FILE_NOT_FOUND (the path counts as absolute)' },
  uncPath: { expected: 'RELATIVE_PATH', today: 'FILE_NOT_FOUND (the path counts as absolute)' },
  // Today's envelope also echoes the NUL into message, summary and edit_status messages: a hygiene leak, excused while awaiting.
  nulInPath: { expected: 'VALIDATION_FAILED', today: 'FILE_NOT_FOUND (or RELATIVE_PATH when the NUL comes first)' },
  overlongPath: { expected: 'VALIDATION_FAILED', today: 'FILE_NOT_FOUND' },
  loneSurrogate: { expected: 'VALIDATION_FAILED', today: 'whatever the edits give: success or an edit-level code' },
} as const satisfies Record<string, { expected: ErrorCode; today: string }>;

/** Longer paths are over-long under the new rule (PATH_MAX on Linux). */
const MAX_PATH_CHARS = 4096;

// ---- the world the requests run in ----

const EXISTING = ['/w/a.txt', '/w/b.txt', '/w/c.txt'] as const;
const DIRECTORY = '/w/dir';
const MISSING = '/w/missing.txt';

interface Edit { old_string: string; new_string: string; replace_all?: boolean }
interface FileEntry { file_path: string; edits: Edit[] }
interface Seed { text: string; bom: boolean }

type Fault = { kind: 'batchCommit' } | { kind: 'nthWrite'; nth: number };

interface FuzzCase {
  readonly tool: string;
  /** Set for malformed input: no oracle beyond VALIDATION_FAILED is needed. */
  readonly malformed: boolean;
  readonly files: FileEntry[];
  readonly dryRun: boolean;
  readonly input: unknown;
  readonly seeds: Record<string, Seed>;
  readonly atomic: boolean;
  readonly fault?: Fault;
}

/** `arbitrary` one time in `oneIn`, null otherwise. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> =>
  fc.oneof({ arbitrary: fc.constant(null), weight: oneIn - 1 }, { arbitrary, weight: 1 });

// ---- strings ----

const PIECES = ['a', 'b', 'ab', ' ', '  ', '\n', '\r\n', '\r', '\t', '\u00a0', '\ufeff', '😀', 'é', '\u0000', '\u001b', '\u0085', '$&', '$1', '$$', 'x'];
const piece = fc.constantFrom(...PIECES);
const LONE = ['\ud83d', '\ude00'];
const text = (maxPieces: number) => fc.array(piece, { maxLength: maxPieces }).map((parts) => parts.join(''));
const withLoneSurrogate = fc.tuple(text(4), fc.constantFrom(...LONE), text(4)).map(([before, lone, after]) => `${before}${lone}${after}`);

// ---- paths ----

type PathClass = 'existing' | 'missing' | 'directory' | 'relative' | 'traversal' | keyof typeof INPUT_RULES_BEING_ADDED;

const PATHS: Record<Exclude<PathClass, 'existing' | 'loneSurrogate' | 'overlongPath'>, readonly string[]> = {
  missing: [MISSING, '/w/a.txt ', '/W/A.TXT', '/w/a.txt/'],
  directory: [DIRECTORY],
  relative: ['a.txt', 'w/a.txt', './a.txt', '~/a.txt', '', '   ', 'file:///w/a.txt'],
  traversal: ['/w/../w/a.txt', '../a.txt', '/w/..', 'C:\\w\\..\\a.txt', '..\\a.txt', '/w/./../a.txt'],
  drivePath: ['C:\\x', 'C:/w/a.txt', 'z:\\dir\\f.ts'],
  uncPath: ['\\\\srv\\share', '\\\\srv\\share\\a.txt'],
  nulInPath: ['/w/a.txt\u0000', '/w/\u0000a.txt', '\u0000/w/a.txt'],
};

const pathOf = (pathClass: Exclude<PathClass, 'loneSurrogate'>, existingIndex: number, length: number): string => {
  if (pathClass === 'existing') {
    return EXISTING[existingIndex % EXISTING.length];
  }
  if (pathClass === 'overlongPath') {
    return `/w/${'x'.repeat(MAX_PATH_CHARS - 3 + length)}`;
  }
  const choices = PATHS[pathClass];
  return choices[existingIndex % choices.length];
};

// ---- edits ----

interface EditSpec { cut: boolean; at: number; length: number; invented: string; replacement: string; replaceAll: boolean }

const editSpec = fc.record({
  cut: fc.constantFrom(true, true, true, false),
  at: fc.nat(),
  length: fc.integer({ min: 0, max: 8 }),
  invented: text(4),
  replacement: text(4),
  replaceAll: fc.constantFrom(false, false, false, true),
});

/**
 * Old strings cut from the text, mostly grown until they occur once (so most match;
 * some split a CRLF or an emoji), or invented.
 */
function editFrom(fileText: string, spec: EditSpec): Edit {
  const at = spec.at % (fileText.length + 1);
  let end = Math.min(fileText.length, at + spec.length);
  const occursOnce = () => fileText.indexOf(fileText.slice(at, end)) === at && fileText.indexOf(fileText.slice(at, end), at + 1) === -1;
  while (!spec.replaceAll && end < fileText.length && (end === at || !occursOnce())) {
    end++;
  }
  const oldString = spec.cut ? fileText.slice(at, end) : spec.invented;
  return { old_string: oldString, new_string: spec.replacement, ...(spec.replaceAll ? { replace_all: true } : {}) };
}

/** A thousand edits or more, each on its own line; `broken` spoils one of them. */
function hugeEdits(count: number, broken: number | undefined): { text: string; edits: Edit[] } {
  const lines = Array.from({ length: count }, (_, index) => `<${index}>`);
  const edits = lines.map((line, index) => ({ old_string: index === broken ? `${line}!` : line, new_string: `[${index}]` }));
  return { text: `${lines.join('\n')}\n`, edits };
}

// ---- whole requests ----

const seedArb = fc.record({ text: text(40), bom: fc.boolean() });

const fileShape = fc.record({
  pathClass: fc.constantFrom<Exclude<PathClass, 'loneSurrogate'>>(
    ...Array.from({ length: 24 }, () => 'existing' as const),
    'missing', 'directory', 'relative', 'traversal', 'drivePath', 'uncPath', 'nulInPath', 'overlongPath',
  ),
  pathPick: fc.nat(),
  extraLength: fc.integer({ min: 1, max: 2000 }),
  specs: fc.array(editSpec, { maxLength: 4 }),
  surrogateAt: rarely(fc.tuple(fc.nat(), fc.boolean(), withLoneSurrogate), 12),
});

const faultArb = rarely(fc.oneof(
  fc.constant<Fault>({ kind: 'batchCommit' }),
  fc.integer({ min: 1, max: 3 }).map((nth): Fault => ({ kind: 'nthWrite', nth })),
), 8);

type Malformation = (request: Record<string, unknown>) => unknown;

/** Values of the wrong type for each top-level field (an empty edits or files array is EMPTY_EDITS, not malformed). */
const WRONG_VALUES: Readonly<Record<string, readonly unknown[]>> = {
  file_path: [null, 42, true, {}, []],
  edits: [null, 42, true, 'text', {}],
  files: [null, 42, true, 'text', {}],
};

/** Ways to break a well-formed request; each must give VALIDATION_FAILED. */
const malformation: fc.Arbitrary<Malformation> = fc.oneof(
  fc.constantFrom<unknown>(null, undefined, 42, 'text', [], true).map((root): Malformation => () => root),
  fc.constantFrom(...Object.keys(WRONG_VALUES)).chain((key) => fc.constantFrom(...WRONG_VALUES[key]).map((value): Malformation => (request) => ({ ...request, [key]: value }))),
  fc.constantFrom('dry_run', 'include_diff').chain((key) => fc.constantFrom(null, 'yes', 1, []).map((value): Malformation => (request) => ({ ...request, [key]: value }))),
  fc.constantFrom('file_path', 'edits', 'files').map((key): Malformation => (request) => {
    const copy = { ...request };
    if (key in copy) {
      delete copy[key];
      return copy;
    }
    return { ...copy, [key]: [] };
  }),
  fc.record({ field: fc.constantFrom('old_string', 'new_string', 'replace_all', 'extra', 'whole'), value: fc.constantFrom(null, 3, false, 'x', [], {}) })
    .map(({ field, value }): Malformation => (request) => breakFirstEdit(request, field, value)),
);

/** Breaks the first edit of the request: a field of the wrong type, missing, or one too many. */
function breakFirstEdit(request: Record<string, unknown>, field: string, value: unknown): unknown {
  const edits = (Array.isArray(request.files) ? (request.files as FileEntry[])[0]?.edits : request.edits) as Edit[] | undefined;
  if (!edits || edits.length === 0) {
    return { ...request, extra: value };
  }
  const first = edits[0] as unknown as Record<string, unknown>;
  let broken: unknown;
  if (field === 'whole') {
    broken = value === null || typeof value !== 'object' || Array.isArray(value) ? value : 'not an edit';
  } else if (field === 'extra') {
    broken = { ...first, replace_al: value };
  } else if (field === 'replace_all' && typeof value === 'boolean') {
    broken = { ...first, replace_all: 'true' };
  } else if (typeof value === 'string' && field !== 'replace_all') {
    broken = Object.fromEntries(Object.entries(first).filter(([key]) => key !== field));
  } else {
    broken = { ...first, [field]: value };
  }
  const brokenEdits = [broken, ...edits.slice(1)];
  if (Array.isArray(request.files)) {
    const [firstFile, ...others] = request.files as FileEntry[];
    return { ...request, files: [{ ...firstFile, edits: brokenEdits }, ...others] };
  }
  return { ...request, edits: brokenEdits };
}

const caseArb: fc.Arbitrary<FuzzCase> = fc.record({
  tool: fc.oneof({ arbitrary: fc.constantFrom('multi_edit', 'multi_edit_files'), weight: 20 }, { arbitrary: fc.constantFrom('MultiEdit', '', 'multi_edit '), weight: 1 }),
  seeds: fc.tuple(seedArb, seedArb, seedArb),
  shapes: fc.array(fileShape, { minLength: 1, maxLength: 3 }),
  noFiles: rarely(fc.constant(true), 30),
  duplicateFile: rarely(fc.constant(true), 10),
  huge: rarely(fc.tuple(fc.integer({ min: 1000, max: 3000 }), rarely(fc.nat({ max: 2999 }), 2)), 150),
  dryRun: fc.option(fc.boolean(), { nil: undefined }),
  includeDiff: fc.option(fc.boolean(), { nil: undefined }),
  atomic: fc.boolean(),
  fault: faultArb,
  malform: rarely(malformation, 10),
}).map(({ tool, seeds, shapes: someShapes, noFiles, duplicateFile, huge, dryRun, includeDiff, atomic, fault, malform }): FuzzCase => {
  const shapes = noFiles ? [] : someShapes;
  const seedMap: Record<string, Seed> = Object.fromEntries(EXISTING.map((path, index) => [path, seeds[index]]));
  const files: FileEntry[] = shapes.map((shape, index) => {
    // Existing files by position, so a request names each at most once unless duplicateFile says so.
    const path = pathOf(shape.pathClass, shape.pathClass === 'existing' ? index : shape.pathPick, shape.extraLength);
    const baseText = seedMap[path]?.text ?? 'some text\n';
    const edits = shape.specs.map((spec) => editFrom(baseText, spec));
    if (shape.surrogateAt && edits.length > 0) {
      const [at, inOld, lone] = shape.surrogateAt;
      const target = edits[at % edits.length];
      edits[at % edits.length] = inOld ? { ...target, old_string: lone } : { ...target, new_string: lone };
    }
    return { file_path: path, edits };
  });
  if (huge && files.length > 0 && EXISTING.includes(files[0].file_path as (typeof EXISTING)[number])) {
    const [count, broken] = huge;
    const generated = hugeEdits(count, broken ?? undefined);
    seedMap[files[0].file_path] = { text: generated.text, bom: false };
    files[0] = { ...files[0], edits: generated.edits };
  }
  if (duplicateFile && files.length > 0) {
    files.push({ ...files[0] });
  }
  const options = { ...(dryRun !== undefined ? { dry_run: dryRun } : {}), ...(includeDiff !== undefined ? { include_diff: includeDiff } : {}) };
  const singleFile = tool !== 'multi_edit_files';
  const first = files[0] ?? { file_path: EXISTING[0], edits: [] };
  const wellFormed: Record<string, unknown> = singleFile ? { ...first, ...options } : { files, ...options };
  return {
    tool,
    malformed: malform !== null,
    files: singleFile ? [first] : files,
    dryRun: dryRun ?? false,
    input: malform === null ? wellFormed : malform(wellFormed),
    seeds: seedMap,
    atomic,
    ...(fault ? { fault } : {}),
  };
});

// ---- the oracle ----

type Outcome =
  | { readonly success: true; readonly texts: ReadonlyMap<string, string> }
  | { readonly success: false; readonly code: ErrorCode; readonly fileIndex?: number; readonly editIndex?: number };

type World = 'after the merge' | 'today';

const failure = (code: ErrorCode, fileIndex?: number, editIndex?: number): Outcome => ({
  success: false, code, ...(fileIndex !== undefined ? { fileIndex } : {}), ...(editIndex !== undefined ? { editIndex } : {}),
});

const hasLoneSurrogate = (value: string) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
const isDrivePath = (path: string) => /^[A-Za-z]:[\\/]/.test(path);
const isUncPath = (path: string) => /^\\\\[^\\]/.test(path);
const isDriveOrUnc = (path: string) => isDrivePath(path) || isUncPath(path);

type AwaitedRule = keyof typeof INPUT_RULES_BEING_ADDED;

/** The rules being added that this request meets. */
function awaitedRules(fuzzCase: FuzzCase): AwaitedRule[] {
  const paths = fuzzCase.files.map((file) => file.file_path);
  const strings = fuzzCase.files.flatMap((file) => file.edits.flatMap((edit) => [edit.old_string, edit.new_string]));
  const met: Record<AwaitedRule, boolean> = {
    drivePath: paths.some(isDrivePath),
    uncPath: paths.some(isUncPath),
    nulInPath: paths.some((path) => path.includes('\u0000')),
    overlongPath: paths.some((path) => path.length > MAX_PATH_CHARS),
    loneSurrogate: strings.some(hasLoneSurrogate),
  };
  return (Object.keys(met) as AwaitedRule[]).filter((rule) => met[rule]);
}

/** The path rules of each world; undefined when the path names a file to read. */
function pathFailure(path: string, world: World): ErrorCode | undefined {
  if (path.split(/[\\/]/).includes('..')) {
    return 'PATH_TRAVERSAL';
  }
  if (path.trim() === '') {
    return 'RELATIVE_PATH';
  }
  if (world === 'after the merge' && isDriveOrUnc(path)) {
    return INPUT_RULES_BEING_ADDED[isDrivePath(path) ? 'drivePath' : 'uncPath'].expected;
  }
  if (!path.startsWith('/') && !isDriveOrUnc(path)) {
    return 'RELATIVE_PATH';
  }
  // A name Windows reads as another (a trailing space or dot, a device name, a stream) is no target anywhere.
  return portablePathProblem(path) === undefined ? undefined : 'VALIDATION_FAILED';
}

function dominantEol(fileText: string): string {
  let crlf = 0;
  let lf = 0;
  for (let at = fileText.indexOf('\n'); at !== -1; at = fileText.indexOf('\n', at + 1)) {
    if (fileText[at - 1] === '\r') {
      crlf++;
    } else {
      lf++;
    }
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Applies one file's edits one at a time: its new text, or the first failing edit and why. */
function applyOneByOne(fileText: string, edits: readonly Edit[]): { text: string } | { editIndex: number; code: ErrorCode } {
  const eol = dominantEol(fileText);
  const inEol = (value: string) => (edits.some((edit) => edit.old_string.includes('\n') || edit.new_string.includes('\n')) ? value.replace(/\r?\n/g, eol) : value);
  const earlierOld = new Set<string>();
  let current = fileText;
  for (const [editIndex, edit] of edits.entries()) {
    const converted = inEol(edit.old_string);
    // old_string in the file's endings; when that does not occur but the bytes as sent do, as sent.
    const asSent = converted !== edit.old_string && !current.includes(converted) && current.includes(edit.old_string);
    const oldString = asSent ? edit.old_string : converted;
    const newString = asSent ? edit.new_string : inEol(edit.new_string);
    const inputCode: ErrorCode | undefined = converted === '' ? 'EMPTY_OLD_STRING'
      : converted === inEol(edit.new_string) ? 'NO_OP_EDIT'
        : earlierOld.has(converted) ? 'DUPLICATE_OLD_STRING' : undefined;
    if (inputCode) {
      return { editIndex, code: inputCode };
    }
    earlierOld.add(converted);
    const first = current.indexOf(oldString);
    if (first === -1) {
      return { editIndex, code: 'MATCH_NOT_FOUND' };
    }
    if (edit.replace_all) {
      current = current.split(oldString).join(newString);
    } else if (current.indexOf(oldString, first + 1) !== -1) {
      return { editIndex, code: 'AMBIGUOUS_MATCH' };
    } else {
      current = `${current.slice(0, first)}${newString}${current.slice(first + oldString.length)}`;
    }
  }
  return { text: current };
}

/** What the engine must answer in one world, leaving out the rules that make the whole request VALIDATION_FAILED. */
function plannedOutcome(fuzzCase: FuzzCase, world: World): Outcome {
  const { files, tool, seeds } = fuzzCase;
  const multiFile = tool === 'multi_edit_files';
  const at = (fileIndex: number) => (multiFile ? fileIndex : undefined);
  const emptyAt = files.findIndex((file) => file.edits.length === 0);
  if (files.length === 0 || emptyAt !== -1) {
    return failure('EMPTY_EDITS', multiFile && files.length > 0 ? emptyAt : undefined);
  }
  const seen = new Set<string>();
  for (const [fileIndex, file] of files.entries()) {
    if (seen.has(file.file_path)) {
      return failure('VALIDATION_FAILED', at(fileIndex));
    }
    seen.add(file.file_path);
  }
  const texts = new Map<string, string>();
  for (const [fileIndex, file] of files.entries()) {
    const pathCode = pathFailure(file.file_path, world);
    if (pathCode) {
      return failure(pathCode, at(fileIndex));
    }
    if (file.file_path === DIRECTORY) {
      return failure('IS_DIRECTORY', at(fileIndex));
    }
    const seed = seeds[file.file_path];
    if (!seed) {
      return failure('FILE_NOT_FOUND', at(fileIndex));
    }
    const applied = applyOneByOne(seed.text, file.edits);
    if (!('text' in applied)) {
      return failure(applied.code, at(fileIndex), applied.editIndex);
    }
    texts.set(file.file_path, applied.text);
  }
  const changed = [...texts].filter(([path, newText]) => newText !== seeds[path].text).length;
  const { fault } = fuzzCase;
  const faultHits = !fuzzCase.dryRun && changed > 0 && fault !== undefined
    && (fuzzCase.atomic ? fault.kind === 'batchCommit' : fault.kind === 'nthWrite' && fault.nth <= changed);
  return faultHits ? failure('DISK_FULL') : { success: true, texts };
}

/** The outcomes the engine may answer; more than one only where two rules meet whose order no contract fixes. */
function acceptedOutcomes(fuzzCase: FuzzCase): { outcomes: Outcome[]; awaited: AwaitedRule[] } {
  if (fuzzCase.tool !== 'multi_edit' && fuzzCase.tool !== 'multi_edit_files') {
    return { outcomes: [failure('UNKNOWN_TOOL')], awaited: [] };
  }
  if (fuzzCase.malformed) {
    return { outcomes: [failure('VALIDATION_FAILED')], awaited: [] };
  }
  const awaited = awaitedRules(fuzzCase);
  const refusals = [...new Set(awaited.filter((rule) => rule !== 'drivePath' && rule !== 'uncPath').map((rule) => INPUT_RULES_BEING_ADDED[rule].expected))];
  const planned = plannedOutcome(fuzzCase, 'after the merge');
  // A refusal of the whole request and a failure of a file or of the request's shape meet in no fixed order.
  const plannedMayComeFirst = !planned.success && !['DISK_FULL', 'EMPTY_OLD_STRING', 'NO_OP_EDIT', 'DUPLICATE_OLD_STRING', 'MATCH_NOT_FOUND', 'AMBIGUOUS_MATCH'].includes(planned.code);
  const afterMerge = refusals.length > 0 ? [...refusals.map((code) => failure(code)), ...(plannedMayComeFirst ? [planned] : [])] : [planned];
  const today = AWAITING_INPUT_RULES && awaited.length > 0 ? [plannedOutcome(fuzzCase, 'today')] : [];
  return { outcomes: [...afterMerge, ...today], awaited };
}

function matches(response: EngineResponse, outcome: Outcome, store: MemoryStore): boolean {
  if (!outcome.success) {
    return !response.success && response.error_code === outcome.code
      && (outcome.fileIndex === undefined || response.file_index === outcome.fileIndex)
      && (outcome.editIndex === undefined || response.edit_index === outcome.editIndex);
  }
  return response.success && [...outcome.texts].every(([path, text]) => response.dry_run || store.text(path) === text);
}

// ---- running one case ----

interface Tally { cases: number; throws: number; hangs: number; invalid: number; lostBytes: number; awaiting: number; succeeded: number }

type Ran = { readonly response: unknown } | { readonly thrown: unknown } | { readonly hung: true };

async function bounded(work: Promise<EngineResponse>): Promise<Ran> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<Ran>((resolve) => {
    timer = setTimeout(() => resolve({ hung: true }), CASE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work.then((response) => ({ response }), (thrown: unknown) => ({ thrown })), hang]);
  } finally {
    clearTimeout(timer);
  }
}

function storeFor(fuzzCase: FuzzCase): MemoryStore {
  const store = fuzzCase.atomic ? new AtomicMemoryStore(fuzzCase.seeds) : new MemoryStore(fuzzCase.seeds);
  store.addDirectory(DIRECTORY);
  if (fuzzCase.fault?.kind === 'batchCommit' && fuzzCase.atomic) {
    store.failOn('commit', '*', { code: 'DISK_FULL' });
  } else if (fuzzCase.fault?.kind === 'nthWrite') {
    store.failNthWrite(fuzzCase.fault.nth, { code: 'DISK_FULL' });
  }
  return store;
}

async function checkCase(fuzzCase: FuzzCase, tally: Tally): Promise<void> {
  tally.cases++;
  const store = storeFor(fuzzCase);
  const before = store.snapshot();
  // The one-by-one reference never refuses an exact match, as the 'warn' indentation policy does.
  const ran = await bounded(runRequest(fuzzCase.tool, fuzzCase.input, { store, sleep: recordingSleep().sleep, limits: { insideIndentation: 'warn', insideToken: 'warn' } }).then((run) => run.response));
  if ('hung' in ran) {
    tally.hangs++;
    assert.fail(`no response within ${CASE_TIMEOUT_MS} ms`);
  }
  if ('thrown' in ran) {
    tally.throws++;
    assert.fail(`runRequest threw: ${String(ran.thrown)}`);
  }
  try {
    assertMatchesSchema(ran.response);
  } catch (error) {
    tally.invalid++;
    throw error;
  }
  const response = ran.response;
  const { outcomes, awaited } = acceptedOutcomes(fuzzCase);
  const nulEchoedToday = AWAITING_INPUT_RULES && awaited.includes('nulInPath') && !(!response.success && response.error_code === 'VALIDATION_FAILED');
  if (!nulEchoedToday) {
    assertHygienic(response);
  }
  if (!response.success || response.dry_run) {
    const after = store.snapshot();
    if ([...before].some(([path, text]) => after.get(path) !== text) || after.size !== before.size) {
      tally.lostBytes++;
      assert.fail('a failure or a dry run changed a file');
    }
  }
  const described = response.success ? 'success' : `${response.error_code} file ${response.file_index} edit ${response.edit_index}`;
  const rules = awaited.map((rule) => `${rule}: ${INPUT_RULES_BEING_ADDED[rule].expected}, today ${INPUT_RULES_BEING_ADDED[rule].today}`);
  const expected = JSON.stringify(outcomes, (_key, value) => (value instanceof Map ? Object.fromEntries(value) : value));
  assert.ok(outcomes.some((outcome) => matches(response, outcome, store)), `got ${described}; expected one of ${expected}${rules.length > 0 ? `; rules being added: ${rules.join('; ')}` : ''}`);
  if (response.success && !response.dry_run) {
    for (const [path, seed] of Object.entries(fuzzCase.seeds)) {
      assert.equal(store.hasBom(path), seed.bom, `${path} keeps its BOM, or its lack of one`);
    }
  }
  tally.awaiting += awaited.length > 0 ? 1 : 0;
  tally.succeeded += response.success ? 1 : 0;
}

describe('fuzz: runRequest over the whole request space', function () {
  this.timeout(Math.max(60_000, RUNS * 20));

  it(`${RUNS} generated requests: no throw, no hang, a valid hygienic response, no lost byte, the right outcome`, async () => {
    const tally: Tally = { cases: 0, throws: 0, hangs: 0, invalid: 0, lostBytes: 0, awaiting: 0, succeeded: 0 };
    await fc.assert(fc.asyncProperty(caseArb, (fuzzCase) => checkCase(fuzzCase, tally)), { numRuns: RUNS });
    recordFigure('cases fuzzed', `${tally.cases} cases, ${tally.throws} throws, ${tally.hangs} hangs, ${tally.invalid} invalid envelopes`);
    recordLostBytes('fuzz', tally.lostBytes);
    assert.ok(tally.succeeded > RUNS / 50, `only ${tally.succeeded} of ${tally.cases} cases succeeded, too few to test success`);
    assert.ok(tally.awaiting > RUNS / 50, `only ${tally.awaiting} cases exercise the input rules being added`);
  });
});
