/**
 * Checks one file's edits in order, each against the text as the earlier edits left
 * it, and applies the ones that match. A failed edit does not stop the checking of
 * later edits, so one response can name every edit that needs fixing.
 */
import { PieceText } from './pieceText';
import { PlainText, type WorkingText } from './workingText';

/** An edit with its strings already in the file's line endings. */
export interface EditToCheck {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

export type EditVerdict =
  | { readonly status: 'applied'; readonly replacements: number }
  | { readonly status: 'failed'; readonly code: 'EMPTY_OLD_STRING' | 'NO_OP_EDIT' | 'MATCH_NOT_FOUND' }
  | { readonly status: 'failed'; readonly code: 'DUPLICATE_OLD_STRING'; readonly duplicateOf: number }
  | {
    readonly status: 'failed'; readonly code: 'AMBIGUOUS_MATCH';
    /** Every occurrence, overlapping ones included; never capped. */
    readonly totalMatches: number;
    /** The first occurrences, at most the cap, as offsets in the text the edit was checked against. */
    readonly firstOffsets: readonly number[];
  }
  | { readonly status: 'skipped'; readonly dependsOn: number };

/** One applied edit: where it replaced text, in the text as the edits before it left it. */
export interface AppliedEdit {
  readonly editIndex: number;
  readonly starts: readonly number[];
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
  readonly text?: string;
}

export type MatchStrategy = 'auto' | 'plain' | 'pieces';

export interface MatchOptions {
  /** Ambiguous match offsets kept per edit. */
  readonly maxLocations: number;
  /** 'auto' takes the plain path for small work and the piece path for large. */
  readonly strategy?: MatchStrategy;
}

/** Below this many (characters x edits) a copy per edit costs less than setting up pieces. */
const PIECES_MIN_WORK = 1 << 22;
const PIECES_MIN_EDITS = 3;
/**
 * Match failures whose text is kept so that each can be explained, not only the first:
 * one response then lets the caller fix them all. Each costs one copy of the text.
 */
export const EXPLAINED_MATCH_FAILURES = 8;

export function checkEdits(text: string, edits: readonly EditToCheck[], options: MatchOptions): MatchOutcome {
  const working = workingTextFor(text, edits, options.strategy ?? 'auto');
  const verdicts: EditVerdict[] = [];
  const applied: AppliedEdit[] = [];
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

  const matchAndApply = (edit: EditToCheck, editIndex: number): EditVerdict => {
    const starts = working.occurrences(edit.oldString);
    if (starts.length === 0) {
      const dependsOn = dependencyOf(edit.oldString);
      return dependsOn === undefined ? { status: 'failed', code: 'MATCH_NOT_FOUND' } : { status: 'skipped', dependsOn };
    }
    if (starts.length > 1 && !edit.replaceAll) {
      return { status: 'failed', code: 'AMBIGUOUS_MATCH', totalMatches: starts.length, firstOffsets: starts.slice(0, options.maxLocations) };
    }
    const replaced = edit.replaceAll ? nonOverlapping(starts, edit.oldString.length) : [starts[0]];
    working.replace(replaced, edit.oldString.length, edit.newString);
    applied.push({ editIndex, starts: replaced, oldLength: edit.oldString.length, newLength: edit.newString.length });
    return { status: 'applied', replacements: replaced.length };
  };

  edits.forEach((edit, editIndex) => {
    const verdict = inputVerdict(edit, firstIndexOfOld.get(edit.oldString)) ?? matchAndApply(edit, editIndex);
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
  });

  return {
    verdicts,
    applied,
    failureTexts,
    ...(firstFailedEdit !== undefined ? { firstFailedEdit } : {}),
    ...(notApplied.length === 0 ? { text: working.text() } : {}),
  };
}

function workingTextFor(text: string, edits: readonly EditToCheck[], strategy: MatchStrategy): WorkingText {
  const usePieces = strategy === 'pieces'
    || (strategy === 'auto' && edits.length >= PIECES_MIN_EDITS && text.length * edits.length >= PIECES_MIN_WORK);
  if (!usePieces) {
    return new PlainText(text);
  }
  return new PieceText(text, edits.map((edit) => edit.oldString).filter((oldString) => oldString !== ''));
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

/** The leftmost occurrences that do not overlap, as split/join would replace them. */
export function nonOverlapping(starts: readonly number[], length: number): number[] {
  const kept: number[] = [];
  let free = 0;
  for (const start of starts) {
    if (start >= free) {
      kept.push(start);
      free = start + length;
    }
  }
  return kept;
}
