/**
 * A match whose first or last character falls strictly inside an identifier or a
 * number: word characters stand on both sides of that boundary in the file. Such an
 * old_string was often cut short (a read tool clipped the line, the model stopped
 * mid-word), and replacing it leaves the rest of the token glued to new_string.
 */
import type { InsideTokenPolicy } from '../contract/limits';
import type { WorkingText } from './workingText';
import { offsetsBetween, type Offsets } from './multiSearch';

/** Where a match cuts a token, and what stays of it outside the match. */
export interface TokenCut {
  /** Offset of the cut boundary in the text the edit was checked against. */
  readonly offset: number;
  /** Which end of old_string falls inside the token. */
  readonly side: 'start' | 'end';
  /** The token's characters that the match leaves outside, next to the cut. */
  readonly rest: string;
  /** The token's characters inside the match, next to the cut. */
  readonly inside: string;
  /**
   * new_string does not continue the token the way old_string did: it ends (or starts)
   * with a character that is not a word character, or it already holds the rest of
   * the token, which the replacement would then write twice.
   */
  readonly suspicious: boolean;
}

/** Characters of a token looked at on each side of a cut; a longer token is shown by its first ones. */
const MAX_TOKEN_CHARS = 64;
/** Matches of one replace_all edit checked for a cut. */
export const MAX_CUT_CHECKS = 64;

const WORD = /^[\p{L}\p{N}_]$/u;

export function isWordChar(char: string | undefined): boolean {
  return char !== undefined && char !== '' && WORD.test(char);
}

/** The first cut among the first matches, the end of old_string checked before its start. */
export function tokenCut(working: WorkingText, oldString: string, newString: string, starts: Offsets): TokenCut | undefined {
  const firstChar = oldString[0];
  const lastChar = oldString[oldString.length - 1];
  const cutsAtStart = isWordChar(firstChar);
  const cutsAtEnd = isWordChar(lastChar);
  if (!cutsAtStart && !cutsAtEnd) {
    return undefined;
  }
  for (const start of offsetsBetween(starts, 0, MAX_CUT_CHECKS)) {
    const end = start + oldString.length;
    if (cutsAtEnd) {
      const after = wordRun(working.slice(end, end + MAX_TOKEN_CHARS), 'forward');
      if (after !== '') {
        const inside = wordRun(oldString.slice(-MAX_TOKEN_CHARS), 'backward');
        const edge = newString[newString.length - 1];
        return { offset: end, side: 'end', rest: after, inside, suspicious: isSuspicious(newString, edge, after) };
      }
    }
    if (cutsAtStart) {
      const before = wordRun(working.slice(Math.max(0, start - MAX_TOKEN_CHARS), start), 'backward');
      if (before !== '') {
        const inside = wordRun(oldString.slice(0, MAX_TOKEN_CHARS), 'forward');
        return { offset: start, side: 'start', rest: before, inside, suspicious: isSuspicious(newString, newString[0], before) };
      }
    }
  }
  return undefined;
}

/** An empty new_string deletes part of a token, which can be meant; anything else must continue it. */
function isSuspicious(newString: string, edge: string | undefined, rest: string): boolean {
  return newString !== '' && (!isWordChar(edge) || newString.includes(rest));
}

export function refusesTokenCut(policy: InsideTokenPolicy, cut: TokenCut, replaceAll: boolean): boolean {
  // replace_all says the caller means every occurrence, inside tokens too (renaming foo in fooBar).
  if (replaceAll) {
    return false;
  }
  return policy === 'refuse' || (policy === 'refuseSuspicious' && cut.suspicious);
}

/** The run of word characters at the start ('forward') or end ('backward') of a text. */
function wordRun(text: string, direction: 'forward' | 'backward'): string {
  const chars = Array.from(text);
  const run: string[] = [];
  const ordered = direction === 'forward' ? chars : chars.reverse();
  for (const char of ordered) {
    if (!isWordChar(char)) {
      break;
    }
    run.push(char);
  }
  return direction === 'forward' ? run.join('') : run.reverse().join('');
}
