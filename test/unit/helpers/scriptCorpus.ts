/**
 * JavaScript and TypeScript to try the syntax gate's shortcuts on: this repository's own
 * sources and some installed JavaScript, a seeded generator, and random replacements
 * (breaking ones among them) made into the plan the gate reads.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { PlannedFile } from '../../../src/core/plan/filePlan';
import type { ReplacedSpan } from '../../../src/core/matching/replacedSpans';
import type { syntaxRegressions } from '../../../src/core/syntax/syntaxGate';
import { PiecedText } from '../../../src/core/matching/piecedText';

const REPO = join(__dirname, '..', '..', '..', '..');
const MAX_BYTES = 200 * 1024;

function filesUnder(directory: string, extensions: readonly string[], found: string[] = []): string[] {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') {
      filesUnder(path, extensions, found);
    } else if (entry.isFile() && extensions.includes(extname(entry.name)) && statSync(path).size <= MAX_BYTES) {
      found.push(path);
    }
  }
  return found.sort();
}

/** Every TypeScript file of src/, the repository's own scripts, and 40 JavaScript files of the installed packages. */
export function corpus(): { path: string; text: string }[] {
  const packaged = filesUnder(join(REPO, 'node_modules', 'diff'), ['.js']).concat(filesUnder(join(REPO, 'node_modules', 'jsonc-parser', 'lib'), ['.js']));
  const step = Math.max(1, packaged.length / 40);
  const paths = [
    ...filesUnder(join(REPO, 'src'), ['.ts']),
    ...filesUnder(join(REPO, 'scripts'), ['.mjs', '.js']),
    ...filesUnder(join(REPO, 'test', 'ui'), ['.mjs']),
    ...Array.from({ length: Math.min(40, packaged.length) }, (_, index) => packaged[Math.floor(index * step)]),
  ];
  const files = paths.map((path) => ({ path, text: readFileSync(path, 'utf8') }));
  // No TSX file is at hand: 30 of src/'s files are read as TSX too (a `<T>x` assertion is then an error, which is a case as well).
  const typescript = files.filter(({ path }) => path.endsWith('.ts'));
  const asTsx = Array.from({ length: Math.min(30, typescript.length) }, (_, index) => typescript[Math.floor((index * typescript.length) / 30)]);
  return [...files, ...asTsx.map(({ path, text }) => ({ path: `${path}x`, text }))];
}

/**
 * Python: the repository's own (the recovery bench's fixtures), and up to 150 modules of the
 * system's Python standard library where the machine has one (Debian's python3-minimal).
 */
export function pythonCorpus(): { path: string; text: string }[] {
  const own = filesUnder(join(REPO, 'bench', 'recovery', 'fixtures'), ['.py']);
  const library = readdirSync('/usr/lib', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^python3\.\d+$/.test(entry.name))
    .map((entry) => join('/usr/lib', entry.name))
    .sort()
    .at(-1);
  const modules = library !== undefined && existsSync(library)
    ? readdirSync(library).filter((name) => name.endsWith('.py')).sort().map((name) => join(library, name)).filter((path) => statSync(path).size <= MAX_BYTES)
    : [];
  const step = Math.max(1, modules.length / 150);
  const chosen = Array.from({ length: Math.min(150, modules.length) }, (_, index) => modules[Math.floor(index * step)]);
  return [...own, ...chosen].map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}

/** The grammar of a corpus file, and how the scan reads its `<`. */
export function grammarOf(path: string): { grammar: 'typescript' | 'tsx' | 'javascript'; dialect: 'typescript' | 'jsx' } {
  const extension = extname(path);
  return extension === '.ts' ? { grammar: 'typescript', dialect: 'typescript' } : { grammar: extension === '.tsx' ? 'tsx' : 'javascript', dialect: 'jsx' };
}

/** A small seeded generator (mulberry32), so a failing case can be found again by its number. */
export function generator(seed: number): { below(limit: number): number; pick<T>(items: readonly T[]): T } {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
  const below = (limit: number): number => Math.floor(next() * limit);
  return { below, pick: (items) => items[below(items.length)] };
}

export type Random = ReturnType<typeof generator>;

export interface Replacement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const PIECES = [
  'x', ' ', '\n', ';', '{', '}', '(', ')', '[', ']', "'", '"', '`', '/', '*', '//', '/*', '*/', '${', '=>', '<', '>', '<div>', '++', '#',
  'export ', 'const a = 1;', '\n}\n', '2 */ab/;', '`;\n', '*/\n', 'function f() {', 'return /re/;', 'a / b', '\nexport const b = 2;\n', ' as const', 'else ', '@dec\n', '#!node\n',
];
const UNCLOSED = ['"open', "'open", '`open', '`a${', '/* open', '*/', '{', '}', '(', ')', '[', ']', '/', '<div>', "'", '@', '\\'];
const STATEMENTS = ['const windowProbe = 1;\n', 'export function probe(): number {\n  return 1;\n}\n', '// a comment line\n', 'let probe = `a${1}b`;\n', 'class Probe {}\n'];
const PAIRED = '{}()[]\'"`;,';

function lineAround(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const newline = text.indexOf('\n', offset);
  return { start, end: newline === -1 ? text.length : newline };
}

/** One random replacement in `text`: breaking (a bracket or quote removed, something left open, a line cut) or not. */
export function randomReplacement(text: string, random: Random): Replacement {
  const at = random.below(text.length + 1);
  const line = lineAround(text, at);
  switch (random.below(9)) {
    case 0: {
      const candidates: number[] = [];
      for (let offset = at; offset < Math.min(text.length, at + 2000); offset++) {
        if (PAIRED.includes(text[offset])) {
          candidates.push(offset);
        }
      }
      const offset = candidates.length > 0 ? random.pick(candidates) : at;
      return { start: offset, end: Math.min(text.length, offset + 1), text: '' };
    }
    case 1:
      return { start: at, end: at, text: random.pick(UNCLOSED) };
    case 2:
      return { start: at, end: line.end, text: '' };
    case 3:
      return { start: at, end: at, text: '\n' };
    case 4: {
      let end = line.end;
      for (let count = random.below(3); count > 0 && end < text.length; count--) {
        end = lineAround(text, end + 1).end;
      }
      return { start: line.start, end: Math.min(text.length, end + 1), text: '' };
    }
    case 5:
      return { start: line.start, end: line.start, text: random.pick(STATEMENTS) };
    case 6: {
      const word = /[A-Za-z_]\w*/g;
      word.lastIndex = at;
      const found = word.exec(text);
      return found ? { start: found.index, end: found.index + found[0].length, text: 'renamed' } : { start: at, end: at, text: 'x' };
    }
    case 7:
      return { start: line.end, end: line.end, text: `\n${text.slice(line.start, line.end)}` };
    default: {
      const pieces = Array.from({ length: 1 + random.below(4) }, () => random.pick(PIECES)).join('');
      return { start: at, end: Math.min(text.length, at + random.below(40)), text: pieces };
    }
  }
}

/** `text` with a run of its lines put inside `open` and `close` (a comment, a template literal), where declarations then stand that are not statements. */
export function hideLines(text: string, random: Random, [open, close]: readonly string[]): string {
  const lines = text.split('\n');
  const first = random.below(lines.length);
  const last = Math.min(lines.length, first + 1 + random.below(30));
  const inside = lines.slice(first, last).map((line) => line.replaceAll('*/', '* /').replaceAll('`', "'").replaceAll('${', '$ {'));
  return [...lines.slice(0, first), open, ...inside, close, ...lines.slice(last)].join('\n');
}

export function applied(text: string, replacements: readonly Replacement[]): string {
  let out = '';
  let from = 0;
  for (const { start, end, text: replacement } of replacements) {
    out += text.slice(from, start) + replacement;
    from = end;
  }
  return out + text.slice(from);
}

/** Up to three replacements in text order, apart from each other (touching ones would be one span). */
export function randomChange(text: string, random: Random): Replacement[] {
  const chosen = Array.from({ length: 1 + random.below(3) }, () => randomReplacement(text, random)).sort((a, b) => a.start - b.start || a.end - b.end);
  const apart: Replacement[] = [];
  for (const replacement of chosen) {
    const previous = apart.at(-1);
    if (!previous || replacement.start > previous.end) {
      apart.push(replacement);
    }
  }
  return apart;
}

/** The plan of `replacements`, its new text held in pieces as a large file's is: the gate reads it as the engine hands it on. */
export function plannedFile(path: string, original: string, replacements: readonly Replacement[]): PlannedFile {
  let shift = 0;
  const spans: ReplacedSpan[] = replacements.map((replacement, index) => {
    const span = { ...replacement, newStart: replacement.start + shift, edits: [index] };
    shift += replacement.text.length - (replacement.end - replacement.start);
    return span;
  });
  const pieces = spans.map((span) => ({ baseStart: span.start, baseEnd: span.end, text: span.text, start: span.newStart, end: span.newStart + span.text.length }));
  return {
    path,
    displayPath: path,
    original: { text: original, bom: false },
    newText: new PiecedText(original, pieces, original.length + shift),
    editsApplied: replacements.length,
    replacements: replacements.length,
    applied: [],
    spans,
  };
}

export function verdictOf(regressions: Awaited<ReturnType<typeof syntaxRegressions>>): string {
  return JSON.stringify(regressions.map(({ errors, editIndex, firstOffset, replaced }) => ({ errors, editIndex, firstOffset, replaced })));
}
