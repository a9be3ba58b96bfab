// The strings of src/vscode a person reads, found with the TypeScript parser: the messages passed to
// vscode.l10n.t (written to l10n/bundle.l10n.json by `npm run l10n`), and the prose that bypasses it.
// test/unit/l10n.test.ts fails on a stale bundle and on any bypassing string.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_FILE = join(REPO_ROOT, 'l10n', 'bundle.l10n.json');

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
  return ts.isCallExpression(node) && node.expression.getText() === 'vscode.l10n.t';
}

function literalText(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('{}');
  return undefined;
}

/** Whether `node` sits where its text cannot reach a person: a type, an import, a log call, a comparison. */
function isOutOfSight(node) {
  for (let at = node.parent; at; at = at.parent) {
    if (isL10nCall(at)) return true;
    if (ts.isImportDeclaration(at) || ts.isExportDeclaration(at) || ts.isTypeNode(at) || ts.isLiteralTypeNode(at)) return true;
    if ((ts.isCallExpression(at) || ts.isNewExpression(at)) && NOT_FOR_PEOPLE.test(`${ts.isNewExpression(at) ? 'new ' : ''}${at.expression.getText()}`)) return true;
    if (ts.isBinaryExpression(at) && /^(?:===|!==|==|!=)$/.test(at.operatorToken.getText())) return true;
    if (ts.isFunctionLike(at) || ts.isClassLike(at)) return false;
  }
  return false;
}

/** Every l10n.t message, and every prose literal outside l10n.t, of the files under src/vscode. */
export function scanStrings(root = REPO_ROOT) {
  const messages = new Set();
  const bypassing = [];
  for (const file of sourceFiles(join(root, 'src', 'vscode'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
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
      if (text !== undefined && PROSE.test(text) && !isOutOfSight(node)) {
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { messages, bypassing } = scanStrings();
  writeFileSync(BUNDLE_FILE, `${JSON.stringify(bundleOf(messages), null, 2)}\n`);
  console.log(`${relative(REPO_ROOT, BUNDLE_FILE)}: ${messages.length} messages`);
  for (const entry of bypassing) console.log(`bypasses l10n: ${entry.file}:${entry.line}: ${entry.text}`);
  process.exitCode = bypassing.length > 0 ? 1 : 0;
}
