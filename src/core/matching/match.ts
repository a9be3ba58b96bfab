/**
 * Checks one file's edits in order, each against the text as the earlier edits left
 * it, and applies the ones that match. A failed edit does not stop the checking of
 * later edits, so one response can name every edit that needs fixing.
 */
import { MAX_CUT_CHECKS, refusesTokenCut, tokenCut, type TokenCut } from './insideToken';
import { PieceText } from './pieceText';
import { placeHunk, textSite, type Placement } from './placement';
import { PlainText, type WorkingText } from './workingText';
import type { EditedText } from '../text/editedText';
import { LineBlocks } from './lineBlocks';
import { nonOverlappingPrefix, occurrencesOf, offsetsBetween, type Offsets } from './multiSearch';
import type { InsideIndentationPolicy, InsideTokenPolicy } from '../contract/limits';

/** An edit with its strings already in the file's line endings. */
export interface EditToCheck {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
  /** The strings as the request sent them, when converting their line endings changed them: a block with other endings matches them byte for byte. */
  readonly asSent?: { readonly oldString: string; readonly newString: string };
  /** A patch hunk: where it goes among several occurrences (placement.ts). Its old lines may repeat another hunk's, and may be empty (an insertion). */
  readonly placement?: Placement;
}

/** A match that starts inside a line's indentation: the indentation left of it, which the replacement keeps. */
export interface IndentedMatch {
  readonly offset: number;
  readonly indentBefore: string;
}

export type { TokenCut } from './insideToken';

export type EditVerdict =
  | { readonly status: 'applied'; readonly replacements: number; readonly insideIndentation?: IndentedMatch; readonly insideToken?: TokenCut }
  | { readonly status: 'failed'; readonly code: 'EMPTY_OLD_STRING' | 'NO_OP_EDIT' }
  | {
    readonly status: 'failed'; readonly code: 'MATCH_NOT_FOUND';
    /** The only match was refused because it starts inside a line's indentation. */
    readonly insideIndentation?: IndentedMatch;
    /** The only match was refused because it cuts a token. */
    readonly insideToken?: TokenCut;
    readonly missingLine?: string;
  }
  | { readonly status: 'failed'; readonly code: 'DUPLICATE_OLD_STRING'; readonly duplicateOf: number }
  /** Applying it would make the text longer than the size limit: it is refused before it is built. */
  | { readonly status: 'failed'; readonly code: 'FILE_TOO_LARGE'; readonly projectedChars: number; readonly limitBytes: number }
  | {
    readonly status: 'failed'; readonly code: 'AMBIGUOUS_MATCH';
    /** Every occurrence, overlapping ones included; never capped. */
    readonly totalMatches: number;
    /** The first occurrences, at most the cap, as offsets in the text the edit was checked against. */
    readonly firstOffsets: readonly number[];
    /** The first MAX_MATCH_LINES occurrences, for their line numbers. */
    readonly matchOffsets: readonly number[];
  }
  | { readonly status: 'skipped'; readonly dependsOn: number };

/** One applied edit: where it replaced text, in the text as the edits before it left it. */
export interface AppliedEdit {
  readonly editIndex: number;
  /** How many places it replaced. */
  readonly count: number;
  /**
   * Where, ascending. A replace_all on the text as read finds them again on each call
   * (from that text, which the plan keeps): on every line of a large file they are
   * millions, which only an editor or a later failure ever reads.
   */
  starts(): Offsets;
  readonly oldLength: number;
  readonly newLength: number;
}

export interface MatchOutcome {
  readonly verdicts: readonly EditVerdict[];
  /** The applied edits, in order. */
  readonly applied: readonly AppliedEdit[];
  /** The index of the first failed edit. */
  readonly firstFailedEdit?: number;
  /** The text each match failure was checked against, for the first EXPLAINED_MATCH_FAILURES of them (so always for the first). */
  readonly failureTexts: ReadonlyMap<number, string>;
  /** The new text; present only when every edit applied. */
  readonly text?: EditedText;
  /** The checking stopped at a yield point (cancelled, or out of time): the verdicts are incomplete. */
  readonly stopped?: true;
}

/**
 * Called between edits: true goes on, false stops the checking. It may return a promise,
 * to let the event loop run (a long plan then leaves a server free to answer others).
 */
export type YieldPoint = () => boolean | Promise<boolean>;

export type MatchStrategy = 'auto' | 'plain' | 'pieces';

export interface MatchOptions {
  /** Ambiguous match offsets kept per edit. */
  readonly maxLocations: number;
  /** 'auto' takes the plain path for small work and the piece path for large. */
  readonly strategy?: MatchStrategy;
  /** Default 'refuseMultiline'. */
  readonly insideIndentation?: InsideIndentationPolicy;
  /** Default 'refuseSuspicious'. */
  readonly insideToken?: InsideTokenPolicy;
  /**
   * The most bytes a result may have (the file size limit). Each character is at least a
   * byte, so an edit that would make the text longer than this many characters is refused
   * before it is applied: a replace_all that would build a gigabyte never builds it.
   */
  readonly maxResultBytes?: number;
  readonly yieldPoint?: YieldPoint;
}

/** Characters looked back from a match for the start of its line. */
const MAX_INDENT_LOOKBACK = 256;
/** Matches of one replace_all edit checked for starting inside indentation. */
const MAX_INDENT_CHECKS = 64;
/** Matches of a replace_all on the text as read found before it is applied: enough for every check (indentation, token cuts). */
const MAX_CHECKED_MATCHES = Math.max(MAX_INDENT_CHECKS, MAX_CUT_CHECKS);

/** Below this many (characters x edits) a copy per edit costs less than setting up pieces. */
const PIECES_MIN_WORK = 1 << 22;
const PIECES_MIN_EDITS = 3;
/**
 * Match failures whose text is kept so that each can be explained, not only the first:
 * one response then lets the caller fix them all. Each costs one copy of the text.
 */
export const EXPLAINED_MATCH_FAILURES = 8;

/** Matches of an ambiguous old_string whose lines are reported (numbers are cheap). */
export const MAX_MATCH_LINES = 1000;

export async function checkEdits(text: string, edits: readonly EditToCheck[], options: MatchOptions): Promise<MatchOutcome> {
  const verdicts: EditVerdict[] = [];
  const applied: AppliedEdit[] = [];
  const working = await workingTextFor(text, edits, options.strategy ?? 'auto', options.yieldPoint);
  if (working === undefined) {
    return { verdicts, applied, failureTexts: new Map(), stopped: true };
  }
  const notApplied: number[] = [];
  const firstIndexOfOld = new Map<string, number>();
  let firstFailedEdit: number | undefined;
  const failureTexts = new Map<number, string>();

  /** The latest earlier edit, not applied, whose new_string holds `oldString`: the edit this one needs. */
  const dependencyOf = (oldString: string): number | undefined => {
    for (let at = notApplied.length - 1; at >= 0; at--) {
      if (edits[notApplied[at]].newString.includes(oldString)) {
        return notApplied[at];
      }
    }
    return undefined;
  };

  const placeAndApply = (sentEdit: EditToCheck, placement: Placement, editIndex: number): EditVerdict => {
    const site = working instanceof LineBlocks ? working : textSite(working.text());
    let placed = placeHunk(site, sentEdit.oldString, sentEdit.newString, placement);
    if (!placed.found && placed.candidates.length === 0 && placed.missingLine === undefined && sentEdit.asSent) {
      placed = placeHunk(site, sentEdit.asSent.oldString, sentEdit.asSent.newString, placement);
    }
    if (!placed.found) {
      if (placed.candidates.length > 1) {
        return { status: 'failed', code: 'AMBIGUOUS_MATCH', totalMatches: placed.candidates.length, firstOffsets: placed.candidates.slice(0, options.maxLocations), matchOffsets: placed.candidates.slice(0, MAX_MATCH_LINES) };
      }
      const dependsOn = placed.missingLine === undefined ? dependencyOf(sentEdit.oldString) : undefined;
      if (dependsOn !== undefined) {
        return { status: 'skipped', dependsOn };
      }
      return { status: 'failed', code: 'MATCH_NOT_FOUND', ...(placed.missingLine !== undefined ? { missingLine: placed.missingLine } : {}) };
    }
    const tooLarge = overLimit(working.length, 1, placed.oldString.length, placed.newString.length);
    if (tooLarge) {
      return tooLarge;
    }
    working.replace([placed.start], placed.oldString.length, placed.newString);
    const starts = [placed.start];
    applied.push({ editIndex, count: 1, starts: () => starts, oldLength: placed.oldString.length, newLength: placed.newString.length });
    return { status: 'applied', replacements: 1 };
  };

  const matchAndApply = (sentEdit: EditToCheck, editIndex: number): EditVerdict => {
    if (sentEdit.placement) {
      return placeAndApply(sentEdit, sentEdit.placement, editIndex);
    }
    // A replace_all on the text as read (working is still `text`) is applied as its matches are found.
    const onText = sentEdit.replaceAll && applied.length === 0 && working instanceof PlainText;
    const find = (oldString: string): Offsets => (onText ? nonOverlappingPrefix(text, oldString, MAX_CHECKED_MATCHES) : working.occurrences(oldString));
    let edit = sentEdit;
    let starts = find(edit.oldString);
    if (starts.length === 0 && sentEdit.asSent) {
      edit = { ...sentEdit, ...sentEdit.asSent };
      starts = find(edit.oldString);
    }
    if (starts.length === 0) {
      const dependsOn = dependencyOf(sentEdit.oldString);
      return dependsOn === undefined ? { status: 'failed', code: 'MATCH_NOT_FOUND' } : { status: 'skipped', dependsOn };
    }
    if (starts.length > 1 && !edit.replaceAll) {
      return { status: 'failed', code: 'AMBIGUOUS_MATCH', totalMatches: starts.length, firstOffsets: offsetsBetween(starts, 0, options.maxLocations), matchOffsets: offsetsBetween(starts, 0, MAX_MATCH_LINES) };
    }
    // On the text as read, `starts` holds only the first matches, not overlapping: all that the checks read.
    const replaced = onText ? starts : edit.replaceAll ? nonOverlapping(starts, edit.oldString.length) : [starts[0]];
    const indented = insideIndentation(working, edit, replaced);
    if (indented && refusesIndentedMatch(options.insideIndentation ?? 'refuseMultiline', edit)) {
      return { status: 'failed', code: 'MATCH_NOT_FOUND', insideIndentation: indented };
    }
    const cut = tokenCut(working, edit.oldString, edit.newString, replaced);
    if (cut && refusesTokenCut(options.insideToken ?? 'refuseSuspicious', cut, edit.replaceAll)) {
      return { status: 'failed', code: 'MATCH_NOT_FOUND', insideToken: cut };
    }
    const { oldString, newString } = edit;
    const count = newString.length <= oldString.length ? 0 : onText ? countNonOverlapping(text, oldString) : replaced.length;
    const tooLarge = overLimit(working.length, count, oldString.length, newString.length);
    if (tooLarge) {
      return tooLarge;
    }
    const appliedEdit = { editIndex, oldLength: oldString.length, newLength: newString.length };
    if (onText) {
      const count = (working as PlainText).replaceEvery(oldString, newString);
      applied.push({ ...appliedEdit, count, starts: () => nonOverlapping(occurrencesOf(text, oldString), oldString.length) });
      return verdictApplied(count, indented, cut);
    }
    working.replace(replaced, oldString.length, newString);
    applied.push({ ...appliedEdit, count: replaced.length, starts: () => replaced });
    return verdictApplied(replaced.length, indented, cut);
  };

  /** The verdict for an edit that would make the text longer than the limit, before it is applied. */
  const overLimit = (length: number, count: number, oldLength: number, newLength: number): EditVerdict | undefined => {
    const limit = options.maxResultBytes;
    const projectedChars = length + count * (newLength - oldLength);
    return limit !== undefined && newLength > oldLength && projectedChars > limit ? { status: 'failed', code: 'FILE_TOO_LARGE', projectedChars, limitBytes: limit } : undefined;
  };

  for (const [editIndex, edit] of edits.entries()) {
    const goOn = options.yieldPoint?.() ?? true;
    if (!(goOn === true || (goOn !== false && await goOn))) {
      return { verdicts, applied, failureTexts, stopped: true };
    }
    // A hunk may repeat another's old lines (its placement tells them apart), and an empty one inserts.
    const verdict = (edit.placement ? undefined : inputVerdict(edit, firstIndexOfOld.get(edit.oldString))) ?? matchAndApply(edit, editIndex);
    if (edit.oldString !== '' && !firstIndexOfOld.has(edit.oldString)) {
      firstIndexOfOld.set(edit.oldString, editIndex);
    }
    if (verdict.status !== 'applied') {
      notApplied.push(editIndex);
    }
    if (verdict.status === 'failed') {
      const matchFailure = verdict.code === 'MATCH_NOT_FOUND' || verdict.code === 'AMBIGUOUS_MATCH';
      if (matchFailure && failureTexts.size < EXPLAINED_MATCH_FAILURES) {
        failureTexts.set(editIndex, working.text());
      }
      firstFailedEdit ??= editIndex;
    }
    verdicts.push(verdict);
  }

  return {
    verdicts,
    applied,
    failureTexts,
    ...(firstFailedEdit !== undefined ? { firstFailedEdit } : {}),
    ...(notApplied.length === 0 ? { text: working.edited() } : {}),
  };
}

function verdictApplied(replacements: number, indented: IndentedMatch | undefined, cut: TokenCut | undefined): EditVerdict {
  return { status: 'applied', replacements, ...(indented ? { insideIndentation: indented } : {}), ...(cut ? { insideToken: cut } : {}) };
}

/** The text the edits are placed in; undefined when `yieldPoint` stopped the indexing of a large patch's lines. */
async function workingTextFor(text: string, edits: readonly EditToCheck[], strategy: MatchStrategy, yieldPoint?: YieldPoint): Promise<WorkingText | undefined> {
  const hasHunks = edits.some((edit) => edit.placement !== undefined);
  const usePieces = strategy === 'pieces'
    || (strategy === 'auto' && edits.length >= PIECES_MIN_EDITS && text.length * edits.length >= PIECES_MIN_WORK);
  if (!usePieces) {
    return new PlainText(text);
  }
  // A patch's hunks are whole lines at line starts: the lines are indexed once (lineBlocks.ts).
  if (hasHunks) {
    return yieldPoint ? LineBlocks.indexing(text, yieldPoint) : new LineBlocks(text);
  }
  return new PieceText(text, edits.map((edit) => edit.oldString).filter((oldString) => oldString !== ''));
}

/** How many times `pattern` occurs without overlapping, leftmost first (as split would cut). */
function countNonOverlapping(text: string, pattern: string): number {
  let count = 0;
  for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + pattern.length)) {
    count++;
  }
  return count;
}

/** The failures that need no search: an empty old_string, a no-op, a repeated old_string. */
function inputVerdict(edit: EditToCheck, earlierWithSameOld: number | undefined): EditVerdict | undefined {
  if (edit.oldString === '') {
    return { status: 'failed', code: 'EMPTY_OLD_STRING' };
  }
  if (edit.oldString === edit.newString) {
    return { status: 'failed', code: 'NO_OP_EDIT' };
  }
  if (earlierWithSameOld !== undefined) {
    return { status: 'failed', code: 'DUPLICATE_OLD_STRING', duplicateOf: earlierWithSameOld };
  }
  return undefined;
}

/**
 * The first match (of the first MAX_INDENT_CHECKS) that starts inside a line's
 * indentation: old_string starts with a space or tab, and only spaces and tabs stand
 * between the line's start and the match. Its first line then keeps the hidden
 * indentation, and any later line of new_string lands as written, not under it.
 */
function insideIndentation(working: WorkingText, edit: EditToCheck, starts: Offsets): IndentedMatch | undefined {
  const first = edit.oldString.charCodeAt(0);
  if (first !== 32 && first !== 9) {
    return undefined;
  }
  for (const start of offsetsBetween(starts, 0, MAX_INDENT_CHECKS)) {
    const from = Math.max(0, start - MAX_INDENT_LOOKBACK);
    const before = working.slice(from, start);
    const lineStart = before.lastIndexOf('\n') + 1;
    const indent = before.slice(lineStart);
    if (indent !== '' && (lineStart > 0 || from === 0) && /^[ \t]+$/.test(indent)) {
      return { offset: start, indentBefore: indent };
    }
  }
  return undefined;
}

function refusesIndentedMatch(policy: InsideIndentationPolicy, edit: EditToCheck): boolean {
  return policy === 'refuse' || (policy === 'refuseMultiline' && edit.newString.includes('\n'));
}

/**
 * The leftmost occurrences that do not overlap, as split/join would replace them:
 * `starts` itself when none overlap (the usual case, and no second array of millions
 * of offsets for a replace_all on every line).
 */
export function nonOverlapping(starts: Offsets, length: number): Offsets {
  let firstOverlap = 1;
  while (firstOverlap < starts.length && starts[firstOverlap] >= starts[firstOverlap - 1] + length) {
    firstOverlap++;
  }
  if (firstOverlap >= starts.length) {
    return starts;
  }
  const kept = offsetsBetween(starts, 0, firstOverlap);
  let free = kept[kept.length - 1] + length;
  for (let index = firstOverlap; index < starts.length; index++) {
    if (starts[index] >= free) {
      kept.push(starts[index]);
      free = starts[index] + length;
    }
  }
  return kept;
}
