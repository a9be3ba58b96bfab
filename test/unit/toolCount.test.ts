/**
 * The tool names have one source (TOOL_NAMES); the texts that count the tools are held to it, so a
 * fourth tool cannot leave "three tools" (or "both tools") behind in a doc, a prompt or a hint.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TOOL_NAMES } from '../../src/core/index';
import { REPO_ROOT } from './helpers/cliRun';

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six'];
/** "two tools", "both tools", "the three Multi-Edit tools", "three language-model tools", also across a comment's line break (" * "). */
const COUNTED_TOOLS = /\b(two|three|four|five|six|both)[\s*]+(?:(?:Multi-Edit|language-model|MCP|editing)[\s*]+)?tools\b/gi;

function textFiles(folder: string, extension: string): string[] {
  return fs.readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(extension))
    .map((name) => path.join(folder, name));
}

describe('the tool count in every text', () => {
  it(`every text that counts the tools says ${NUMBER_WORDS[TOOL_NAMES.length]}`, () => {
    const expected = NUMBER_WORDS[TOOL_NAMES.length];
    const files = ['README.md', 'CONTRIBUTING.md', 'package.json', 'package.nls.json', 'l10n/bundle.l10n.json', ...textFiles('docs', '.md'), ...textFiles('src', '.ts')];
    const wrong: string[] = [];
    for (const file of files) {
      for (const match of fs.readFileSync(path.join(REPO_ROOT, file), 'utf8').matchAll(COUNTED_TOOLS)) {
        if (match[1].toLowerCase() !== expected) {
          wrong.push(`${file}: "${match[0]}"`);
        }
      }
    }
    assert.deepEqual(wrong, [], `texts that count the tools wrongly:\n${wrong.join('\n')}`);
  });
});
