/**
 * Syntax errors from tree-sitter's WebAssembly runtime. The runtime and each grammar
 * load once per process, on first use, from a folder holding tree-sitter.wasm and
 * the tree-sitter-<grammar>.wasm files. The last trees parsed are kept by file, so a
 * server that sees the same file again (the new text of one call is the old text of
 * the next) parses only what changed, incrementally: around each replaced stretch when
 * the caller says what it replaced, else around the one stretch between the texts'
 * common start and common end (for edits spread through a large file, nearly all of it).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Language, Parser, type Edit, type Node, type Point, type Tree } from '@vscode/tree-sitter-wasm';
import { LineIndex, type SyntaxErrorSpan, type TextChange } from '../../core/index';
import type { TreeSitterGrammar } from './syntaxLanguages';

/** Errors collected per parse; a text broken in more places is judged by its first ones. */
const MAX_ERRORS = 1000;
/** Trees kept for incremental parsing, and the most text they may stand for in all. */
const KEPT_TREES = 8;
const KEPT_TEXT_CHARS = 16 * 1024 * 1024;

interface KeptTree {
  readonly grammar: TreeSitterGrammar;
  readonly text: string;
  readonly tree: Tree;
}

export class TreeSitterErrors {
  private runtime: Promise<void> | undefined;
  private readonly parsers = new Map<TreeSitterGrammar, Promise<Parser>>();
  /** By file, the most recently parsed last. */
  private readonly kept = new Map<string, KeptTree>();

  constructor(
    private readonly wasmDirectory: string,
    private readonly options: { readonly baselineCompilerOnly?: boolean } = {},
  ) {}

  /**
   * The errors of `text` in `grammar`; `file` names the text's file, whose last tree an
   * incremental parse starts from, and `change` how `text` was made, when known.
   */
  async errorsIn(grammar: TreeSitterGrammar, text: string, file: string, change?: TextChange): Promise<SyntaxErrorSpan[]> {
    const parser = await this.parserFor(grammar);
    const previous = this.kept.get(file);
    this.kept.delete(file);
    const start = previous?.grammar === grammar ? previous : undefined;
    if (start) {
      const edits = change !== undefined && change.from === start.text ? replacementEdits(change) : [editBetween(start.text, text)];
      edits.forEach((edit) => start.tree.edit(edit));
    }
    const tree = parser.parse(text, start?.tree ?? null);
    previous?.tree.delete();
    if (!tree) {
      return [];
    }
    this.keep(file, { grammar, text, tree });
    return tree.rootNode.hasError ? errorNodes(tree.rootNode, change?.replaced ?? []) : [];
  }

  /** Whether the tree kept for `file` is of `text` in `grammar`: a change to that text then reparses only around its edits. */
  keepsTreeOf(grammar: TreeSitterGrammar, text: string, file: string): boolean {
    const kept = this.kept.get(file);
    return kept?.grammar === grammar && kept.text === text;
  }

  /** Whether `text` parses in `grammar` without any error; the tree is not kept. */
  async parsesCleanly(grammar: TreeSitterGrammar, text: string): Promise<boolean> {
    const tree = (await this.parserFor(grammar)).parse(text);
    if (!tree) {
      return false;
    }
    try {
      return !tree.rootNode.hasError;
    } finally {
      tree.delete();
    }
  }

  private keep(file: string, kept: KeptTree): void {
    this.kept.set(file, kept);
    let chars = [...this.kept.values()].reduce((sum, entry) => sum + entry.text.length, 0);
    for (const [oldest, entry] of this.kept) {
      if (this.kept.size <= 1 || (this.kept.size <= KEPT_TREES && chars <= KEPT_TEXT_CHARS)) {
        break;
      }
      entry.tree.delete();
      this.kept.delete(oldest);
      chars -= entry.text.length;
    }
  }

  private parserFor(grammar: TreeSitterGrammar): Promise<Parser> {
    let parser = this.parsers.get(grammar);
    if (!parser) {
      parser = this.loadParser(grammar);
      this.parsers.set(grammar, parser);
      // A grammar that failed to load may load on a later request (a file being replaced, say).
      parser.catch(() => this.parsers.delete(grammar));
    }
    return parser;
  }

  private async loadParser(grammar: TreeSitterGrammar): Promise<Parser> {
    await this.initRuntime();
    const language = await Language.load(await readFile(join(this.wasmDirectory, `tree-sitter-${grammar}.wasm`)));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  }

  private initRuntime(): Promise<void> {
    if (!this.runtime) {
      if (this.options.baselineCompilerOnly) {
        setFlagsFromString('--liftoff-only');
      }
      const wasmFile = join(this.wasmDirectory, 'tree-sitter.wasm');
      this.runtime = Parser.init({ locateFile: () => wasmFile });
      this.runtime.catch(() => {
        this.runtime = undefined;
      });
    }
    return this.runtime;
  }
}

/** Where an edit's new text lies: [start, end) of the text parsed. */
interface Stretch {
  readonly start: number;
  readonly end: number;
}

/**
 * The outermost ERROR nodes and every MISSING node, in text order; subtrees without errors
 * are skipped. An error that holds the new text of one of `replaced` gets its focus there.
 * The walk is a cursor's, not a recursion: no nesting of the text can exhaust the stack.
 */
function errorNodes(root: Node, replaced: TextChange['replaced']): SyntaxErrorSpan[] {
  const found: SyntaxErrorSpan[] = [];
  const cursor = root.walk();
  let next = 0;
  try {
    let descend = true;
    for (;;) {
      const node = cursor.currentNode;
      if (descend && (node.isError || node.isMissing)) {
        const { startIndex: start, endIndex: end } = node;
        while (next < replaced.length && replaced[next].newStart + replaced[next].text.length < start) {
          next++;
        }
        const edited = next < replaced.length && replaced[next].newStart <= end ? { start: replaced[next].newStart, end: replaced[next].newStart + replaced[next].text.length } : undefined;
        found.push(edited && node.isError && (start < edited.start || end > edited.end) ? { start, end, focus: focusOf(node, edited) } : { start, end });
        if (found.length >= MAX_ERRORS) {
          return found;
        }
        descend = false;
      }
      if (descend && node.hasError && cursor.gotoFirstChild()) {
        continue;
      }
      if (cursor.gotoNextSibling()) {
        descend = true;
        continue;
      }
      if (!cursor.gotoParent()) {
        return found;
      }
      descend = false;
    }
  } finally {
    cursor.delete();
  }
}

/** How far [start, end) lies from `edited`: 0 when they overlap or touch. */
function distance(start: number, end: number, edited: Stretch): number {
  return end < edited.start ? edited.start - end : start > edited.end ? start - edited.end : 0;
}

/**
 * The smallest ERROR or MISSING node in `error` nearest the edited stretch: from the error
 * down, each step takes the child with an error nearest the stretch (the first on a tie).
 * When no error lies deeper, the steps go on through the nodes nearest the stretch to a
 * token, which is then the focus: a node that recovery grew from the file's start is
 * reported where the edit is, not at its start.
 */
function focusOf(error: Node, edited: Stretch): Stretch {
  let focus: Stretch = { start: error.startIndex, end: error.endIndex };
  let followsErrors = true;
  const cursor = error.walk();
  try {
    while (cursor.gotoFirstChild()) {
      let chosen: Node | undefined;
      let nearest: Node | undefined;
      let chosenDistance = Infinity;
      let nearestDistance = Infinity;
      do {
        const gap = distance(cursor.startIndex, cursor.endIndex, edited);
        const nearer = gap < nearestDistance;
        const nearerError = followsErrors && gap < chosenDistance;
        if (nearer || nearerError) {
          const child = cursor.currentNode;
          if (nearer) {
            nearest = child;
            nearestDistance = gap;
          }
          if (nearerError && (child.hasError || child.isMissing)) {
            chosen = child;
            chosenDistance = gap;
          }
        }
      } while (cursor.gotoNextSibling());
      const step = chosen ?? nearest;
      if (step === undefined) {
        break;
      }
      if (chosen === undefined || step.isError || step.isMissing) {
        focus = { start: step.startIndex, end: step.endIndex };
      }
      followsErrors &&= chosen !== undefined;
      cursor.reset(step);
    }
    return focus;
  } finally {
    cursor.delete();
  }
}

/** Where `offset` is in the text `lines` indexes, as tree-sitter counts: 0-based row, column in UTF-16 units (the parser reads UTF-16). */
function pointOf(lines: LineIndex, offset: number): Point {
  const { line, column } = lines.position(offset);
  return { row: line - 1, column: column - 1 };
}

/**
 * A change's replacements as tree-sitter edits, last first: each is then given in the
 * offsets and points of `from`, which the later ones have not moved.
 */
function replacementEdits(change: TextChange): Edit[] {
  const lines = LineIndex.of(change.from);
  return change.replaced.map(({ start, end, text }) => {
    const startPosition = pointOf(lines, start);
    return { startIndex: start, oldEndIndex: end, newEndIndex: start + text.length, startPosition, oldEndPosition: pointOf(lines, end), newEndPosition: pointAfter(startPosition, text) };
  }).reverse();
}

/** Where `text` ends when it is written at `start`. */
function pointAfter(start: Point, text: string): Point {
  const lastBreak = text.lastIndexOf('\n');
  if (lastBreak === -1) {
    return { row: start.row, column: start.column + text.length };
  }
  return { row: start.row + LineIndex.of(text).lineCount - 1, column: text.length - lastBreak - 1 };
}

/** The one stretch that differs between two texts (after their common start and common end), as tree-sitter takes an edit. */
function editBetween(before: string, after: string): Edit {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) {
    start++;
  }
  let common = 0;
  while (common < shorter - start && before.charCodeAt(before.length - 1 - common) === after.charCodeAt(after.length - 1 - common)) {
    common++;
  }
  const beforeLines = LineIndex.of(before);
  return {
    startIndex: start,
    oldEndIndex: before.length - common,
    newEndIndex: after.length - common,
    startPosition: pointOf(beforeLines, start),
    oldEndPosition: pointOf(beforeLines, before.length - common),
    newEndPosition: pointOf(LineIndex.of(after), after.length - common),
  };
}
