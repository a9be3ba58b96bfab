/**
 * Syntax errors from tree-sitter's WebAssembly runtime. The runtime and each grammar
 * load once per process, on first use, from a folder holding tree-sitter.wasm and
 * the tree-sitter-<grammar>.wasm files. The last trees parsed are kept by file, so a
 * server that sees the same file again (the new text of one call is the old text of
 * the next) parses only what changed, incrementally.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Language, Parser, type Edit, type Node, type Point, type Tree } from '@vscode/tree-sitter-wasm';
import type { SyntaxErrorSpan } from '../../core/index';
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

  constructor(private readonly wasmDirectory: string) {}

  /** The errors of `text` in `grammar`; `file` names the text's file, whose last tree an incremental parse starts from. */
  async errorsIn(grammar: TreeSitterGrammar, text: string, file: string): Promise<SyntaxErrorSpan[]> {
    const parser = await this.parserFor(grammar);
    const previous = this.kept.get(file);
    this.kept.delete(file);
    const start = previous?.grammar === grammar ? previous : undefined;
    if (start) {
      start.tree.edit(editBetween(start.text, text));
    }
    const tree = parser.parse(text, start?.tree ?? null);
    previous?.tree.delete();
    if (!tree) {
      return [];
    }
    this.keep(file, { grammar, text, tree });
    return tree.rootNode.hasError ? errorNodes(tree.rootNode) : [];
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
      const wasmFile = join(this.wasmDirectory, 'tree-sitter.wasm');
      this.runtime = Parser.init({ locateFile: () => wasmFile });
      this.runtime.catch(() => {
        this.runtime = undefined;
      });
    }
    return this.runtime;
  }
}

/** The outermost ERROR nodes and every MISSING node, in text order; subtrees without errors are skipped. */
function errorNodes(root: Node): SyntaxErrorSpan[] {
  const found: SyntaxErrorSpan[] = [];
  const cursor = root.walk();
  try {
    let descend = true;
    for (;;) {
      const node = cursor.currentNode;
      if (descend && (node.isError || node.isMissing)) {
        found.push({ start: node.startIndex, end: node.endIndex });
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

/**
 * Characters compared at once while looking for where two texts start and stop
 * differing: one string comparison (native code) per stretch, then character by
 * character inside the stretch that differs.
 */
const COMPARED_STRETCH = 256;

/** The one stretch that differs between two texts (after their common start and common end), as tree-sitter takes an edit. */
function editBetween(before: string, after: string): Edit {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start + COMPARED_STRETCH <= shorter && before.slice(start, start + COMPARED_STRETCH) === after.slice(start, start + COMPARED_STRETCH)) {
    start += COMPARED_STRETCH;
  }
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) {
    start++;
  }
  const mostCommon = shorter - start;
  let common = 0;
  const endStretchesEqual = (): boolean =>
    before.slice(before.length - common - COMPARED_STRETCH, before.length - common) === after.slice(after.length - common - COMPARED_STRETCH, after.length - common);
  while (common + COMPARED_STRETCH <= mostCommon && endStretchesEqual()) {
    common += COMPARED_STRETCH;
  }
  while (common < mostCommon && before.charCodeAt(before.length - 1 - common) === after.charCodeAt(after.length - 1 - common)) {
    common++;
  }
  // Lines are counted once up to the start, then only across the stretch that differs.
  const startPosition = pointAfter({ row: 0, column: 0 }, 0, before, start);
  return {
    startIndex: start,
    oldEndIndex: before.length - common,
    newEndIndex: after.length - common,
    startPosition,
    oldEndPosition: pointAfter(startPosition, start, before, before.length - common),
    newEndPosition: pointAfter(startPosition, start, after, after.length - common),
  };
}

/** The point of `offset` in `text`, counting lines on from `from`, the point of `fromOffset`. */
function pointAfter(from: Point, fromOffset: number, text: string, offset: number): Point {
  let row = from.row;
  let lineStart = fromOffset - from.column;
  for (let at = text.indexOf('\n', fromOffset); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    row++;
    lineStart = at + 1;
  }
  return { row, column: offset - lineStart };
}
