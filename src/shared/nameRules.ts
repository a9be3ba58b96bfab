/**
 * How a file system compares names, learnt from the file system itself rather than
 * from the platform: macOS and Windows volumes can be made case-sensitive, and Linux
 * mounts NTFS, FAT and (through WSL or a container) Windows and macOS disks that
 * ignore case.
 *
 * A directory is probed by its own entries: a name whose other case (or other Unicode
 * form) is not listed, yet can be looked up, proves that the file system folds it.
 * Where the directory has no such name, its own name is tried in its parent, when the
 * parent is on the same device. The answer is kept per device, which holds one file
 * system. Only when nothing can be probed does the platform's default decide (the
 * folder is then empty, so no name in it can yet be confused).
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

export interface NameRules {
  /** `Foo.ts` and `foo.ts` name one file. */
  readonly ignoresCase: boolean;
  /** A composed and a decomposed spelling (`é` and `e` + U+0301) name one file. */
  readonly normalisesUnicode: boolean;
}

/** What an unprobed file system most likely does: the platform's own default volumes. */
export const PLATFORM_NAME_RULES: NameRules = {
  ignoresCase: process.platform === 'win32' || process.platform === 'darwin',
  normalisesUnicode: process.platform === 'darwin',
};

/** Names compared exactly: what POSIX promises. */
export const EXACT_NAME_RULES: NameRules = { ignoresCase: false, normalisesUnicode: false };

/** How many entries of a directory a probe looks at, at most. */
const PROBED_ENTRIES = 64;

const rulesByDevice = new Map<string, NameRules>();

/**
 * The rules of the file system that holds `directory` (an existing directory, links
 * followed), probed once per device. A directory that cannot be read gets the
 * platform's default, not remembered.
 */
export function nameRulesAt(directory: string): NameRules {
  let device: string;
  try {
    device = String(statSync(directory).dev);
  } catch {
    return PLATFORM_NAME_RULES;
  }
  let rules = rulesByDevice.get(device);
  if (rules === undefined) {
    rules = probe(directory, device);
    rulesByDevice.set(device, rules);
  }
  return rules;
}

/** The rules for a path that may not exist yet: those of the nearest existing directory at or above it. */
export function nameRulesFor(target: string): NameRules {
  for (let directory = target; ; directory = path.dirname(directory)) {
    if (statSync(directory, { throwIfNoEntry: false })?.isDirectory()) {
      return nameRulesAt(directory);
    }
    if (path.dirname(directory) === directory) {
      return PLATFORM_NAME_RULES;
    }
  }
}

/** `value` in the form two names of one file share under `rules`. */
export function foldedName(value: string, rules: NameRules): string {
  const composed = rules.normalisesUnicode ? value.normalize('NFC') : value;
  return rules.ignoresCase ? composed.toLowerCase() : composed;
}

function probe(directory: string, device: string): NameRules {
  return {
    ignoresCase: folds(directory, device, otherCase) ?? PLATFORM_NAME_RULES.ignoresCase,
    normalisesUnicode: folds(directory, device, otherForm) ?? PLATFORM_NAME_RULES.normalisesUnicode,
  };
}

function otherCase(name: string): string {
  const upper = name.toUpperCase();
  return upper !== name ? upper : name.toLowerCase();
}

function otherForm(name: string): string {
  const decomposed = name.normalize('NFD');
  return decomposed !== name ? decomposed : name.normalize('NFC');
}

/**
 * Whether the file system folds names by `variant`: answered by the first entry of
 * `directory` (or its own name in its parent) that has a variant; undefined when none has.
 */
function folds(directory: string, device: string, variant: (name: string) => string): boolean | undefined {
  const inside = foldsAmong(directory, variant);
  if (inside !== undefined) {
    return inside;
  }
  const parent = path.dirname(directory);
  if (parent === directory || String(statSync(parent, { throwIfNoEntry: false })?.dev) !== device) {
    return undefined;
  }
  return foldsAmong(parent, variant, path.basename(directory));
}

function foldsAmong(directory: string, variant: (name: string) => string, only?: string): boolean | undefined {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return undefined;
  }
  const listed = new Set(names);
  for (const name of only === undefined ? names.slice(0, PROBED_ENTRIES) : [only]) {
    const other = variant(name);
    if (other === name) {
      continue;
    }
    // Both spellings listed: two files, so the file system tells them apart.
    if (listed.has(other)) {
      return false;
    }
    // Not listed, yet found: the file system led the other spelling to this name.
    return lstatSync(path.join(directory, other), { throwIfNoEntry: false }) !== undefined;
  }
  return undefined;
}
