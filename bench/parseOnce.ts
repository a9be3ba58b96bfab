/**
 * The least any refusal that reports what today's does must spend on a large file: one
 * tree-sitter parse of its whole text, with the runtime and the grammar the gate uses and
 * nothing else. Run as `node parseOnce.js FILE GRAMMAR`; it exits 0 when the parse found
 * an error, 1 when it found none.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import { treeSitterWasmDirectory } from '../src/shared/syntax/fileSyntaxChecker';

async function parseOnce(file: string, grammar: string): Promise<boolean> {
  const directory = treeSitterWasmDirectory();
  await Parser.init({ locateFile: () => join(directory, 'tree-sitter.wasm') });
  const parser = new Parser();
  parser.setLanguage(await Language.load(await readFile(join(directory, `tree-sitter-${grammar}.wasm`))));
  const tree = parser.parse(await readFile(file, 'utf8'));
  return tree?.rootNode.hasError ?? false;
}

parseOnce(process.argv[2], process.argv[3] ?? 'typescript').then(
  (hasError) => {
    process.exitCode = hasError ? 0 : 1;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);
