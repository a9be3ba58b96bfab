/**
 * The full-text searches that explain one missing old_string, sharing what each has
 * learnt, so that together they read the text as few times as the answers allow.
 *
 * The longest-prefix search walks the text once, forward, and its steps are kept: at
 * step i it found the first place holding the needle's first `length_i` characters,
 * with `length_i` growing. That settles, with no further reading:
 * - where a prefix of the needle first occurs: for a prefix of k characters, the place
 *   of the first step with length_i >= k. Every place before it holds a shorter prefix
 *   (a place between two steps holding k characters would have been found by the later
 *   step's search, which starts just past the earlier step), and that place holds k;
 * - that no text starting with the needle's first L + 1 characters occurs anywhere,
 *   L being the last step's length.
 * So any pattern that shares its first k characters with the needle occurs nowhere when
 * k > L, and otherwise not before the first place of that k-prefix: its search starts
 * there (the not-found answer's near-match text, a JSON-encoded reading and a split's
 * head share long prefixes with the needle, and their searches shrink to the text's tail).
 * Counter-example to a bound without the steps: the first place of a 3-character prefix
 * may lie far before the first place of the whole longest prefix, so the longest
 * prefix's place alone bounds nothing.
 *
 * Searches are also remembered: the same pattern from the same place is read once (an
 * indentation-free line of the needle is both the re-indentation key and an anchor).
 */
import type { TextSpan } from './closestMatch';

interface PrefixStep {
  readonly offset: number;
  readonly length: number;
}

export class TextSearch {
  private steps: PrefixStep[] | undefined;
  private readonly remembered = new Map<string, number>();

  constructor(readonly text: string, readonly needle: string) {}

  /**
   * First occurrence of the longest prefix of the needle: at each place a prefix
   * occurs, direct comparison measures how far the needle goes on there; only a
   * strictly longer prefix is then searched for, after that place. About one scan.
   */
  longestPrefix(): TextSpan | undefined {
    const steps = this.prefixSteps();
    const last = steps[steps.length - 1];
    return last === undefined ? undefined : { offset: last.offset, length: last.length };
  }

  /** text.indexOf(pattern, from), without reading what the prefix steps already settle. */
  indexOf(pattern: string, from = 0): number {
    const key = `${from}\u0000${pattern}`;
    const known = this.remembered.get(key);
    if (known !== undefined) {
      return known;
    }
    const start = this.earliestStart(pattern);
    const found = start === -1 ? -1 : this.text.indexOf(pattern, Math.max(from, start));
    this.remembered.set(key, found);
    return found;
  }

  /**
   * The first match of a pattern whose every match begins with `head` (a literal), read
   * from the first place `head` can occur; null when it cannot occur.
   */
  firstMatch(pattern: RegExp, head: string): RegExpExecArray | null {
    const start = this.earliestStart(head);
    if (start === -1) {
      return null;
    }
    const sticky = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
    sticky.lastIndex = start;
    return sticky.exec(this.text);
  }

  /** The first place a text starting with `pattern` can occur, by the prefix steps; -1 when none can. */
  private earliestStart(pattern: string): number {
    const shared = sharedPrefixLength(pattern, this.needle);
    if (shared === 0) {
      return 0;
    }
    const step = this.prefixSteps().find((each) => each.length >= shared);
    return step === undefined ? -1 : step.offset;
  }

  private prefixSteps(): PrefixStep[] {
    if (this.steps !== undefined) {
      return this.steps;
    }
    const { text, needle } = this;
    const steps: PrefixStep[] = [];
    this.steps = steps;
    if (needle.length === 0) {
      return steps;
    }
    let found = text.indexOf(needle[0]);
    if (found === -1) {
      return steps;
    }
    let length = commonPrefixLength(text, found, needle, 1);
    steps.push({ offset: found, length });
    while (length < needle.length) {
      // Every place before `found` holds a shorter prefix, so a longer one can only come later.
      const next = text.indexOf(needle.slice(0, length + 1), found + 1);
      if (next === -1) {
        break;
      }
      found = next;
      length = commonPrefixLength(text, found, needle, length + 1);
      steps.push({ offset: found, length });
    }
    return steps;
  }
}

/** How many characters of `needle` match `text` from `at`, given that the first `known` do. */
function commonPrefixLength(text: string, at: number, needle: string, known: number): number {
  let length = known;
  while (length < needle.length && at + length < text.length && text.charCodeAt(at + length) === needle.charCodeAt(length)) {
    length++;
  }
  return length;
}

function sharedPrefixLength(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  let length = 0;
  while (length < shorter && a.charCodeAt(length) === b.charCodeAt(length)) {
    length++;
  }
  return length;
}
