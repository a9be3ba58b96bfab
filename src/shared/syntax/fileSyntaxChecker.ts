/**
 * The SyntaxChecker the CLI, the MCP server and the extension give the engine. Parsers
 * load on the first file that needs them: a request that edits only files of unknown
 * languages never loads tree-sitter.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SyntaxChecker } from '../../core/index';
import type { ScriptDialect } from './statementStarts';
import { syntaxLanguageOf, type TreeSitterGrammar } from './syntaxLanguages';
import { statementWindows } from './syntaxWindows';
import { onlyRenamesWords, PYTHON_WORD_RULES, SCRIPT_WORD_RULES, type WordRules } from './wordRenames';
import type { TreeSitterErrors } from './treeSitterErrors';

/** The grammars whose renames are checked by their words (wordRenames.ts). */
const WORD_RULES: ReadonlyMap<TreeSitterGrammar, WordRules> = new Map([
  ['typescript', SCRIPT_WORD_RULES],
  ['tsx', SCRIPT_WORD_RULES],
  ['javascript', SCRIPT_WORD_RULES],
  ['python', PYTHON_WORD_RULES],
]);

/** The grammars whose edits may be checked by windows (syntaxWindows.ts), with how their scan reads `<`. */
const WINDOW_DIALECTS: ReadonlyMap<TreeSitterGrammar, ScriptDialect> = new Map([
  ['typescript', 'typescript'],
  ['tsx', 'jsx'],
  ['javascript', 'jsx'],
]);

export interface SyntaxCheckerOptions {
  /** The folder with tree-sitter.wasm and the grammars. */
  readonly wasmDirectory: string;
  /**
   * A process of its own that parses once and exits (the CLI): WebAssembly is then compiled by
   * V8's baseline compiler only. Its optimising tier recompiles the parser's hot functions on
   * background threads, which such a process pays for in CPU and never profits from. Never set
   * in a shared process (the extension host): the flag is the whole process's.
   */
  readonly shortLived?: boolean;
  /** Told once per grammar that could not be loaded; files of that language then go unchecked. */
  readonly onUnavailable?: (grammar: TreeSitterGrammar, reason: string) => void;
}

export function fileSyntaxChecker(options: SyntaxCheckerOptions): SyntaxChecker {
  let treeSitter: Promise<TreeSitterErrors> | undefined;
  const unavailable = new Set<TreeSitterGrammar>();
  const withTreeSitter = async <T>(grammar: TreeSitterGrammar, read: (parser: TreeSitterErrors) => Promise<T>): Promise<T | undefined> => {
    if (unavailable.has(grammar)) {
      return undefined;
    }
    try {
      treeSitter ??= import('./treeSitterErrors.js').then((loaded) => new loaded.TreeSitterErrors(options.wasmDirectory, { baselineCompilerOnly: options.shortLived === true }));
      return await read(await treeSitter);
    } catch (error) {
      unavailable.add(grammar);
      options.onUnavailable?.(grammar, error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };
  return {
    checks: (path) => syntaxLanguageOf(path) !== undefined,
    async addsNoErrorWithoutFullParse(path, text, change) {
      const language = syntaxLanguageOf(path);
      if (language?.parser !== 'tree-sitter') {
        return false;
      }
      const wordRules = WORD_RULES.get(language.grammar);
      if (wordRules && onlyRenamesWords(change, text, wordRules)) {
        return true;
      }
      const dialect = WINDOW_DIALECTS.get(language.grammar);
      if (dialect === undefined) {
        return false;
      }
      const { grammar } = language;
      // A server that parsed this text before reparses around the edits from its tree, quicker than parsing whole statements.
      const kept = await withTreeSitter(grammar, async (parser) => parser.keepsTreeOf(grammar, change.from, path));
      const windows = kept === false ? statementWindows(change, text, dialect) : undefined;
      if (windows === undefined) {
        return false;
      }
      for (const window of windows) {
        const clean = await withTreeSitter(grammar, async (parser) =>
          (await parser.parsesCleanly(grammar, change.from.slice(window.oldStart, window.oldEnd))) && (await parser.parsesCleanly(grammar, text.slice(window.newStart, window.newEnd))),
        );
        if (clean !== true) {
          return false;
        }
      }
      return true;
    },
    async errorsIn(path, text, change) {
      const language = syntaxLanguageOf(path);
      if (!language) {
        return undefined;
      }
      if (language.parser === 'json') {
        const { jsonSyntaxErrors } = await import('./jsonSyntaxErrors.js');
        return jsonSyntaxErrors(text, language.comments);
      }
      if (language.parser === 'notebook') {
        const { notebookSyntaxErrors } = await import('./notebookSyntaxErrors.js');
        return notebookSyntaxErrors(text, (grammar) => async (source, cellKey) => withTreeSitter(grammar, (parser) => parser.errorsIn(grammar, source, `${path}${cellKey}`)));
      }
      return withTreeSitter(language.grammar, (parser) => parser.errorsIn(language.grammar, text, path, change));
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
