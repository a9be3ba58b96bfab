/**
 * Which parser reads which file, by name alone, so that a file the gate does not know
 * costs nothing: no parser is loaded for it.
 */

/** The tree-sitter grammars the gate uses: each is `tree-sitter-<name>.wasm`. */
export const TREE_SITTER_GRAMMARS = ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'c-sharp', 'cpp', 'ruby', 'php', 'bash', 'css'] as const;

export type TreeSitterGrammar = (typeof TREE_SITTER_GRAMMARS)[number];

export type SyntaxLanguage =
  | { readonly parser: 'tree-sitter'; readonly grammar: TreeSitterGrammar }
  | { readonly parser: 'json'; readonly comments: boolean }
  /** A Jupyter notebook: its JSON, its nbformat shape, and its code cells in the kernel's language (notebookSyntaxErrors.ts). */
  | { readonly parser: 'notebook' };

/**
 * The languages each grammar checks, as the help and the documents name them (a grammar without
 * a row does not compile). The CLI's help, the syntaxCheck setting's description, the README and
 * docs/errors.md list them: a unit test compares each with this table and with the file names below.
 */
export const GRAMMAR_LANGUAGES: Readonly<Record<TreeSitterGrammar, readonly string[]>> = {
  typescript: ['TypeScript'], tsx: [], javascript: ['JavaScript'], python: ['Python'], go: ['Go'], rust: ['Rust'], java: ['Java'],
  'c-sharp': ['C#'], cpp: ['C', 'C++'], ruby: ['Ruby'], php: ['PHP'], bash: ['shell'], css: ['CSS'],
};

/** "TypeScript, JavaScript, ..., CSS and JSON": every language the gate checks, in the grammar list's order. */
export function checkedLanguagesText(): string {
  const names = [...TREE_SITTER_GRAMMARS.flatMap((name) => GRAMMAR_LANGUAGES[name]), 'JSON'];
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

const grammar = (name: TreeSitterGrammar): SyntaxLanguage => ({ parser: 'tree-sitter', grammar: name });

const BY_EXTENSION: ReadonlyMap<string, SyntaxLanguage> = new Map<string, SyntaxLanguage>([
  ...['ts', 'mts', 'cts'].map((extension) => [extension, grammar('typescript')] as const),
  ['tsx', grammar('tsx')],
  ...['js', 'jsx', 'mjs', 'cjs'].map((extension) => [extension, grammar('javascript')] as const),
  ...['py', 'pyi'].map((extension) => [extension, grammar('python')] as const),
  ['go', grammar('go')],
  ['rs', grammar('rust')],
  ['java', grammar('java')],
  ['cs', grammar('c-sharp')],
  // No C grammar ships with VS Code's set; C++'s reads C (a superset for all but rare K&R forms).
  ...['c', 'h', 'cc', 'cpp', 'cxx', 'c++', 'hh', 'hpp', 'hxx', 'h++'].map((extension) => [extension, grammar('cpp')] as const),
  ...['rb', 'rake', 'gemspec'].map((extension) => [extension, grammar('ruby')] as const),
  ['php', grammar('php')],
  ...['sh', 'bash'].map((extension) => [extension, grammar('bash')] as const),
  ['css', grammar('css')],
  ['json', { parser: 'json', comments: false }],
  ['ipynb', { parser: 'notebook' }],
  ...['jsonc', 'code-workspace'].map((extension) => [extension, { parser: 'json', comments: true }] as const),
]);

const BY_NAME: ReadonlyMap<string, SyntaxLanguage> = new Map<string, SyntaxLanguage>([
  ['Gemfile', grammar('ruby')],
  ['Rakefile', grammar('ruby')],
  ['.bashrc', grammar('bash')],
  ['.bash_profile', grammar('bash')],
]);

/** Every extension (without its dot) and whole file name the gate parses, for the documents' table. */
export const SYNTAX_FILE_NAMES: { readonly extensions: readonly string[]; readonly names: readonly string[] } = {
  extensions: [...BY_EXTENSION.keys()],
  names: [...BY_NAME.keys()],
};

/** JSON files that VS Code and the TypeScript tools read with comments allowed. */
const JSONC_NAME = /^(tsconfig|jsconfig)(\..+)?\.json$|^\.eslintrc\.json$|^devcontainer\.json$|^\.babelrc(\.json)?$|^api-extractor\.json$/;
const JSONC_FOLDER = /(^|\/)\.(vscode|devcontainer)\/[^/]+\.json$/;

/** The parser for a path, or undefined when the gate does not check such files. */
export function syntaxLanguageOf(path: string): SyntaxLanguage | undefined {
  const normalized = path.replace(/\\/g, '/');
  const name = normalized.slice(normalized.lastIndexOf('/') + 1);
  const named = BY_NAME.get(name);
  if (named) {
    return named;
  }
  const dot = name.lastIndexOf('.');
  if (dot <= 0) {
    return undefined;
  }
  const language = BY_EXTENSION.get(name.slice(dot + 1).toLowerCase());
  if (language?.parser === 'json' && !language.comments && (JSONC_NAME.test(name) || JSONC_FOLDER.test(normalized))) {
    return { parser: 'json', comments: true };
  }
  return language;
}
