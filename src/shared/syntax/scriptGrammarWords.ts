/**
 * The words the JavaScript, TypeScript and TSX grammars read as something other than a
 * plain name: every word of every node type's name in the three grammars (keywords,
 * contextual keywords such as `get` or `satisfies`, literals such as `true`, the words of a
 * keyword pair such as `unique symbol`, and single-word rule names, which cost only a parse
 * when a rename meets them). Words with `_` are left out: the grammars name their compound
 * rules that way, and no keyword of these languages has one. A unit test reads the grammars
 * VS Code ships and fails when this list drifts.
 */
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
