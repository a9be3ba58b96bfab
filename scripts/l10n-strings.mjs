// The strings of src/vscode a person reads, found with the TypeScript parser: the messages passed to
// vscode.l10n.t (written to l10n/bundle.l10n.json by `npm run l10n`), and the prose that bypasses it:
// a string literal of two or more words anywhere but in a translation call, a comparison, a type, a
// log or error call, or a statement whose comment says why it is not translated.
//   node scripts/l10n-strings.mjs            writes the bundle; lists what bypasses translation
//   node scripts/l10n-strings.mjs --check [ROOT]   prints { stale, bypassing } as JSON; exit 1 if either
// test/unit/l10n.test.ts runs --check on this repository and on planted files.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_FILE = join(REPO_ROOT, 'l10n', 'bundle.l10n.json');

/**
 * A file whose opening comment, or a declaration or statement whose comment, says "not translated"
 * (and why: text for the envelope or the log, read in the core's language) keeps its text as written.
 */
const NOT_TRANSLATED = /\bnot translated\b/i;
/** The two ways to translate: vscode.l10n.t, and localized (vscode.l10n.t for the modules without the vscode import). */
const L10N_CALLS = new Set(['vscode.l10n.t', 'localized']);

/** Calls whose text goes to the log, an exception or a VS Code API as an ID, never to a person's eyes. */
const NOT_FOR_PEOPLE = /^(?:[\w.]*\b(?:log|logger|channel)\.(?:trace|debug|info|warn|error|append|appendLine)|console\.\w+|new Error|new RangeError|new TypeError|vscode\.Uri\.\w+|vscode\.commands\.executeCommand|require)$/;
/** Prose: two words of letters; IDs, globs, paths and codes are not. */
const PROSE = /[A-Za-z]{2,}[,.:;!?]?\s+[A-Za-z]{2,}/;

function sourceFiles(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

function isL10nCall(node) {
  return ts.isCallExpression(node) && L10N_CALLS.has(node.expression.getText());
}

function saysNotTranslated(node, sourceText) {
  return (ts.getLeadingCommentRanges(sourceText, node.getFullStart()) ?? [])
    .some((range) => NOT_TRANSLATED.test(sourceText.slice(range.pos, range.end)));
}

function literalText(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('{}');
  return undefined;
}

/** Whether `node` sits where its text cannot reach a person: a type, an import, a log call, a comparison. */
function isOutOfSight(node, sourceText) {
  for (let at = node.parent; at; at = at.parent) {
    if (isL10nCall(at)) return true;
    if ((ts.isStatement(at) || ts.isVariableStatement(at) || ts.isFunctionDeclaration(at)) && saysNotTranslated(at, sourceText)) return true;
    if (ts.isImportDeclaration(at) || ts.isExportDeclaration(at) || ts.isTypeNode(at) || ts.isLiteralTypeNode(at)) return true;
    if ((ts.isCallExpression(at) || ts.isNewExpression(at)) && NOT_FOR_PEOPLE.test(`${ts.isNewExpression(at) ? 'new ' : ''}${at.expression.getText()}`)) return true;
    if (ts.isBinaryExpression(at) && /^(?:===|!==|==|!=)$/.test(at.operatorToken.getText())) return true;
    if (ts.isClassLike(at)) return false;
  }
  return false;
}

/** Every l10n.t message, and every prose literal outside l10n.t, of the files under src/vscode. */
export function scanStrings(root = REPO_ROOT) {
  const messages = new Set();
  const bypassing = [];
  for (const file of sourceFiles(join(root, 'src', 'vscode'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    if (source.statements.length > 0 && saysNotTranslated(source.statements[0], source.text)) {
      continue;
    }
    const visit = (node) => {
      if (isL10nCall(node)) {
        const message = node.arguments[0] && literalText(node.arguments[0]);
        if (message === undefined || ts.isTemplateExpression(node.arguments[0])) {
          bypassing.push({ file: relative(root, file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.getText(), why: 'l10n.t needs a literal message' });
        } else {
          messages.add(message);
        }
      }
      const text = literalText(node);
      if (text !== undefined && PROSE.test(text) && !isOutOfSight(node, source.text)) {
        bypassing.push({ file: relative(root, file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { messages: [...messages].sort(), bypassing };
}

export function bundleOf(messages) {
  return Object.fromEntries(messages.map((message) => [message, message]));
}

function check(root) {
  const { messages, bypassing } = scanStrings(root);
  let current;
  try {
    current = readFileSync(join(root, 'l10n', 'bundle.l10n.json'), 'utf8');
  } catch {
    current = '';
  }
  const stale = current !== `${JSON.stringify(bundleOf(messages), null, 2)}\n`;
  console.log(JSON.stringify({ stale, messages: messages.length, bypassing }, null, 2));
  process.exitCode = stale || bypassing.length > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--check') {
  check(process.argv[3] ?? REPO_ROOT);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { messages, bypassing } = scanStrings();
  writeFileSync(BUNDLE_FILE, `${JSON.stringify(bundleOf(messages), null, 2)}\n`);
  console.log(`${relative(REPO_ROOT, BUNDLE_FILE)}: ${messages.length} messages`);
  for (const entry of bypassing) console.log(`bypasses l10n: ${entry.file}:${entry.line}: ${entry.text}`);
  process.exitCode = bypassing.length > 0 ? 1 : 0;
}
