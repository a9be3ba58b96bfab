/** Counted nouns as a person reads them, in the display language: "1 edit", "3 files". */
import { localized } from './localized';

export function editsLabel(count: number): string {
  return count === 1 ? localized('1 edit') : localized('{0} edits', count);
}

export function filesLabel(count: number): string {
  return count === 1 ? localized('1 file') : localized('{0} files', count);
}

export function replacementsLabel(count: number): string {
  return count === 1 ? localized('1 replacement') : localized('{0} replacements', count);
}

export function timesLabel(count: number): string {
  return count === 1 ? localized('once') : localized('{0} times', count);
}
