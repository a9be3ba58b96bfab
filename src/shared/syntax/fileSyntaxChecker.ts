/**
 * The SyntaxChecker the CLI, the MCP server and the extension give the engine. Parsers
 * load on the first file that needs them: a request that edits only files of unknown
 * languages never loads tree-sitter.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SyntaxChecker, SyntaxErrorSpan, TextChange } from '../../core/index';
import { syntaxLanguageOf, type TreeSitterGrammar } from './syntaxLanguages';
import type { TreeSitterErrors } from './treeSitterErrors';

export interface SyntaxCheckerOptions {
  /** The folder with tree-sitter.wasm and the grammars. */
  readonly wasmDirectory: string;
  /** Told once per grammar that could not be loaded; files of that language then go unchecked. */
  readonly onUnavailable?: (grammar: TreeSitterGrammar, reason: string) => void;
}

export function fileSyntaxChecker(options: SyntaxCheckerOptions): SyntaxChecker {
  let treeSitter: Promise<TreeSitterErrors> | undefined;
  const unavailable = new Set<TreeSitterGrammar>();
  const treeSitterErrors = async (grammar: TreeSitterGrammar, text: string, path: string, change: TextChange | undefined): Promise<SyntaxErrorSpan[] | undefined> => {
    if (unavailable.has(grammar)) {
      return undefined;
    }
    try {
      treeSitter ??= import('./treeSitterErrors.js').then((loaded) => new loaded.TreeSitterErrors(options.wasmDirectory));
      return await (await treeSitter).errorsIn(grammar, text, path, change);
    } catch (error) {
      unavailable.add(grammar);
      options.onUnavailable?.(grammar, error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };
  return {
    async errorsIn(path, text, change) {
      const language = syntaxLanguageOf(path);
      if (!language) {
        return undefined;
      }
      if (language.parser === 'json') {
        const { jsonSyntaxErrors } = await import('./jsonSyntaxErrors.js');
        return jsonSyntaxErrors(text, language.comments);
      }
      return treeSitterErrors(language.grammar, text, path, change);
    },
  };
}

/** Where the bundles find the grammars: dist/tree-sitter beside them, else the installed package (tests, a source checkout). */
export function treeSitterWasmDirectory(): string {
  const beside = join(__dirname, 'tree-sitter');
  if (existsSync(join(beside, 'tree-sitter.wasm'))) {
    return beside;
  }
  try {
    return join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
  } catch {
    return beside; // loading then fails with the missing file's name, told through onUnavailable
  }
}
