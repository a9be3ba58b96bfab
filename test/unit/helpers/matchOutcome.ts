/** A match outcome with each applied edit's places and its new text read out, so two outcomes compare by value. */
import type { MatchOutcome } from '../../../src/core/matching/match';

export function comparableOutcome(outcome: MatchOutcome): object {
  const { text, ...rest } = outcome;
  return { ...rest, ...(text ? { text: text.whole() } : {}), applied: outcome.applied.map(({ starts, ...edit }) => ({ ...edit, starts: Array.from(starts()) })) };
}
