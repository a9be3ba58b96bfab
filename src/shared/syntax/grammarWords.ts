/**
 * The words each grammar reads as something other than a plain name, for the syntax
 * gate's check by words (wordRenames.ts). Each list is every word of every node type's
 * name in its grammars (keywords, contextual keywords, literals, the words of a keyword
 * pair such as `unique symbol`, and single-word rule names, which cost only a parse when a
 * rename meets them), less the grammars' compound rule names, which hold a `_`. A unit test
 * reads the grammars VS Code ships and fails when a list drifts, and renames to every keyword
 * of the languages' specifications to find one a grammar names otherwise.
 */

/** JavaScript, TypeScript and TSX: no keyword of these languages holds a `_`. */
export const SCRIPT_GRAMMAR_WORDS: ReadonlySet<string> = new Set([
  'abstract', 'accessor', 'any', 'arguments', 'array', 'as', 'assert', 'asserts', 'async', 'await', 'boolean', 'break',
  'case', 'catch', 'class', 'comment', 'const', 'constraint', 'continue', 'debugger', 'declaration', 'declare',
  'decorator', 'default', 'delete', 'do', 'else', 'end', 'enum', 'export', 'expression', 'extends', 'false', 'finally',
  'for', 'from', 'function', 'get', 'global', 'identifier', 'if', 'implements', 'import', 'in', 'infer', 'instanceof',
  'interface', 'is', 'keyof', 'let', 'meta', 'module', 'namespace', 'never', 'new', 'null', 'number', 'object', 'of',
  'override', 'pair', 'pattern', 'private', 'program', 'protected', 'public', 'readonly', 'regex', 'require', 'return',
  'satisfies', 'set', 'statement', 'static', 'string', 'super', 'switch', 'symbol', 'target', 'this', 'throw', 'true',
  'try', 'type', 'typeof', 'undefined', 'unique', 'unknown', 'using', 'var', 'void', 'while', 'with', 'yield',
]);

/**
 * Python: the words with a `_` that the language reserves are `_` (a pattern's wildcard) and
 * `__future__`. `True`, `False` and `None` are added by hand: the grammar names their nodes
 * `true`, `false` and `none`.
 */
export const PYTHON_GRAMMAR_WORDS: ReadonlySet<string> = new Set([
  '_', '__future__', 'and', 'as', 'assert', 'assignment', 'async', 'attribute', 'await', 'block', 'break', 'call', 'case',
  'chevron', 'class', 'comment', 'continue', 'decorator', 'def', 'del', 'dictionary', 'elif', 'ellipsis', 'else', 'end',
  'except', 'exec', 'expression', 'false', 'finally', 'float', 'for', 'from', 'global', 'identifier', 'if', 'import', 'in',
  'integer', 'interpolation', 'is', 'lambda', 'list', 'match', 'module', 'none', 'nonlocal', 'not', 'or', 'pair',
  'parameter', 'parameters', 'pass', 'pattern', 'print', 'raise', 'return', 'set', 'slice', 'string', 'subscript', 'true',
  'try', 'tuple', 'type', 'while', 'with', 'yield',
]);

/** Python's literals whose nodes the grammar names in lower case. */
export const PYTHON_RENAMED_LITERALS: readonly string[] = ['True', 'False', 'None'];
