/**
 * The syntax gate: after every file is planned and before anything is written, each
 * edited file the checker knows is parsed as it would be written. Only errors the
 * edits brought in count: the original is parsed too (only when the new text has
 * errors), its errors are followed through the edits into the new text, and a new
 * error on a line an old error also covers is taken as the old one, unless it also
 * reaches into an edit's new text that no old error reached (error recovery can merge
 * an old error and a new one into one node).
 */
import type { PlannedFile } from '../plan/filePlan';
import { LineIndex } from '../text/lineIndex';
import { sameText } from '../text/editedText';
import { followIntoNewText, newEndOf, type ReplacedSpan } from '../matching/replacedSpans';
import type { SyntaxChecker, SyntaxErrorSpan, TextChange } from './syntaxChecker';

/** New errors reported per file; the first one leads. */
export const MAX_REPORTED_SYNTAX_ERRORS = 5;

/** Errors compared per text: a file broken in more places than this is judged by its first ones. */
const MAX_COMPARED_ERRORS = 500;

export interface SyntaxPosition {
  /** 1-based line and column (UTF-16 code units) in the new text. */
  readonly line: number;
  readonly column: number;
}

/** 0-based first and last line of a stretch of the new text. */
interface LineSpan {
  readonly first: number;
  readonly last: number;
}

/** The errors one file's edits would bring in. */
export interface SyntaxRegression {
  readonly file: PlannedFile;
  /** The index of `file` in the request's files. */
  readonly fileIndex: number;
  /**
   * The new errors, at most MAX_REPORTED_SYNTAX_ERRORS: the one nearest an edit first, then the
   * others in text order. When even the nearest lies more than a line from its edit, the end of
   * that edit's new text (its last character) comes first: where the edit took away what the parser missed.
   */
  readonly errors: readonly SyntaxPosition[];
  /** Offset of the first reported error in the new text. */
  readonly firstOffset: number;
  /** The edit whose replacement holds, or lies nearest to, the first new error. */
  readonly editIndex: number;
  /** 1-based first and last line, in the new text, of that edit's replacement. */
  readonly editLines: { readonly first: number; readonly last: number };
  /** What that replacement replaced: offsets in the original text. */
  readonly replaced: { readonly start: number; readonly end: number };
  readonly newIndex: LineIndex;
}

/** The files (with their index in the request) whose edits would break their parse. */
export async function syntaxRegressions(
  files: readonly { readonly file: PlannedFile; readonly fileIndex: number }[],
  checker: SyntaxChecker,
  isCancelled: () => boolean,
): Promise<SyntaxRegression[]> {
  const regressions: SyntaxRegression[] = [];
  for (const { file, fileIndex } of files) {
    if (isCancelled()) {
      break;
    }
    if (checker.checks?.(file.path) === false || sameText(file.newText, file.original.text)) {
      continue;
    }
    // The spans are read only by a checker that parses the file's language again (a replace_all on every line of a large file has millions).
    const change: TextChange = { from: file.original.text, get replaced() { return file.spans; } };
    if (await checker.addsNoErrorWithoutFullParse?.(file.path, file.newText, change)) {
      continue;
    }
    const newErrors = await checker.errorsIn(file.path, file.newText.whole(), change);
    if (newErrors === undefined || newErrors.length === 0) {
      continue;
    }
    const oldErrors = (await checker.errorsIn(file.path, file.original.text, backTo(file))) ?? [];
    const regression = compare(file, fileIndex, oldErrors, newErrors);
    if (regression) {
      regressions.push(regression);
    }
  }
  return regressions;
}

/** The plan's spans the other way round: how the original is made from the new text. */
function backTo(file: PlannedFile): TextChange {
  return {
    from: file.newText.whole(),
    get replaced() {
      return file.spans.map((span) => ({ start: span.newStart, end: newEndOf(span), newStart: span.start, text: file.original.text.slice(span.start, span.end) }));
    },
  };
}

function compare(file: PlannedFile, fileIndex: number, oldErrors: readonly SyntaxErrorSpan[], newErrors: readonly SyntaxErrorSpan[]): SyntaxRegression | undefined {
  const { spans } = file;
  const newIndex = LineIndex.of(file.newText.whole());
  const linesOf = (start: number, end: number): LineSpan => ({
    first: newIndex.lineOfOffset(start),
    last: newIndex.lineOfOffset(Math.max(start, end)),
  });
  const oldLines = oldErrors.slice(0, MAX_COMPARED_ERRORS).map((error) => {
    const followed = followIntoNewText(spans, error.start, error.end);
    return linesOf(followed.start, followed.end);
  });
  const overlaps = (a: LineSpan, b: LineSpan): boolean => a.first <= b.last && b.first <= a.last;
  const withinALine = (a: LineSpan, b: LineSpan): boolean => a.first <= b.last + 1 && b.first <= a.last + 1;
  const editedLines = spans.map((span) => linesOf(span.newStart, newEndOf(span)));
  const newlyBroken = editedLines.filter((lines) => !oldLines.some((old) => overlaps(old, lines)));
  const added = newErrors.slice(0, MAX_COMPARED_ERRORS).filter((error) => {
    const lines = linesOf(error.start, error.end);
    return newlyBroken.some((edited) => overlaps(edited, lines)) || !oldLines.some((old) => overlaps(old, lines));
  });
  if (added.length === 0) {
    return undefined;
  }
  // Reported where each error is (its focus, inside a node that recovery grew), the one nearest an edit first.
  const reported = added.map((error) => error.focus ?? error);
  const lead = nearestToEdits(reported, spans);
  const nearest = reported[lead];
  const ordered = [nearest, ...reported.slice(0, lead), ...reported.slice(lead + 1)];
  // A token the edit removed may be missed only where the parser gives up (a shell `fi` at the file's end): the edit's place then leads.
  const nearestEdit = nearestSpan(spans, nearest.start);
  if (nearestEdit !== undefined && !withinALine(linesOf(nearest.start, nearest.end), linesOf(nearestEdit.newStart, newEndOf(nearestEdit)))) {
    const lastOfEdit = Math.max(nearestEdit.newStart, newEndOf(nearestEdit) - 1);
    ordered.unshift({ start: lastOfEdit, end: lastOfEdit });
  }
  const firstOffset = ordered[0].start;
  const span = nearestSpan(spans, firstOffset);
  const editLines = span === undefined ? { first: 0, last: 0 } : linesOf(span.newStart, Math.max(span.newStart, newEndOf(span) - 1));
  return {
    file,
    fileIndex,
    errors: ordered.slice(0, MAX_REPORTED_SYNTAX_ERRORS).map((error) => {
      const { line, column } = newIndex.position(error.start);
      return { line, column };
    }),
    firstOffset,
    // The last edit that wrote into the span (they apply in order).
    editIndex: span?.edits.at(-1) ?? 0,
    editLines: { first: editLines.first + 1, last: editLines.last + 1 },
    replaced: { start: span?.start ?? 0, end: span?.end ?? 0 },
    newIndex,
  };
}

/** How far [start, end) of the new text lies from the span's replacement: 0 when they overlap or touch. */
function gapToSpan(start: number, end: number, span: ReplacedSpan): number {
  const spanEnd = newEndOf(span);
  return end < span.newStart ? span.newStart - end : start > spanEnd ? start - spanEnd : 0;
}

/** The index of the error nearest an edit's replacement (the first on a tie); errors and spans are in text order. */
function nearestToEdits(errors: readonly { readonly start: number; readonly end: number }[], spans: readonly ReplacedSpan[]): number {
  let best = 0;
  let bestGap = Infinity;
  let next = 0;
  errors.forEach((error, index) => {
    while (next + 1 < spans.length && newEndOf(spans[next + 1]) <= error.start) {
      next++;
    }
    const gap = Math.min(...spans.slice(next, next + 2).map((span) => gapToSpan(error.start, error.end, span)));
    if (gap < bestGap) {
      best = index;
      bestGap = gap;
    }
  });
  return best;
}

/** The span whose replacement holds `offset`, or the one nearest to it (the earlier one on a tie). */
function nearestSpan(spans: readonly ReplacedSpan[], offset: number): ReplacedSpan | undefined {
  let best: ReplacedSpan | undefined;
  let bestDistance = Infinity;
  for (const span of spans) {
    const end = newEndOf(span);
    const distance = offset < span.newStart ? span.newStart - offset : offset > end ? offset - end : 0;
    if (distance < bestDistance) {
      best = span;
      bestDistance = distance;
    }
  }
  return best;
}
