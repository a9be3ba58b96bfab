/**
 * Syntax errors from tree-sitter's WebAssembly runtime. The runtime and each grammar
 * load once per process, on first use, from a folder holding tree-sitter.wasm and
 * the tree-sitter-<grammar>.wasm files.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Language, Parser, type Node } from '@vscode/tree-sitter-wasm';
import type { SyntaxErrorSpan } from '../../core/index';
import type { TreeSitterGrammar } from './syntaxLanguages';

/** Errors collected per parse; a text broken in more places is judged by its first ones. */
const MAX_ERRORS = 1000;

export class TreeSitterErrors {
  private runtime: Promise<void> | undefined;
  private readonly parsers = new Map<TreeSitterGrammar, Promise<Parser>>();

  constructor(private readonly wasmDirectory: string) {}

  async errorsIn(grammar: TreeSitterGrammar, text: string): Promise<SyntaxErrorSpan[]> {
    const parser = await this.parserFor(grammar);
    const tree = parser.parse(text);
    if (!tree) {
      return [];
    }
    try {
      return tree.rootNode.hasError ? errorNodes(tree.rootNode) : [];
    } finally {
      tree.delete();
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
