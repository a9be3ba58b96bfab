/** A match outcome with each applied edit's places read out, so two outcomes compare by value. */
import type { MatchOutcome } from '../../../src/core/matching/match';

export function comparableOutcome(outcome: MatchOutcome): object {
  return { ...outcome, applied: outcome.applied.map(({ starts, ...edit }) => ({ ...edit, starts: Array.from(starts()) })) };
}
