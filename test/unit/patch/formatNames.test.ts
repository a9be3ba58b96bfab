/**
 * The patch formats are taught wherever the patch tool is described: the language-model tool's
 * description and its label, the request schema, the CLI's help, the parser's answer to text that
 * is no patch, the README, docs/patch.md and docs/architecture.md each name every format of
 * PATCH_FORMAT_NAMES.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATCH_FORMAT_NAMES } from '../../../src/core/patch/patchModel';
import { REPO_ROOT } from '../helpers/manifest';

const TEACHING_FILES = ['src/core/contract/schemas.ts', 'src/core/patch/parsePatch.ts', 'src/node/cli/cliHelp.ts', 'package.json', 'package.nls.json', 'README.md', 'docs/patch.md', 'docs/architecture.md'];

describe('patch formats: every text that teaches the patch tool names every format', () => {
  for (const file of TEACHING_FILES) {
    it(file, () => {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8').toLowerCase();
      assert.deepEqual(Object.values(PATCH_FORMAT_NAMES).filter((name) => !text.includes(name.toLowerCase())), []);
    });
  }

  it('names the formats in the tool\'s model description, not only in its schema', () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { contributes: { languageModelTools: { name: string; modelDescription: string }[] } };
    const tool = manifest.contributes.languageModelTools.find((candidate) => candidate.name === 'multi_edit_patch');
    assert.ok(tool);
    const description = tool.modelDescription.toLowerCase();
    assert.deepEqual(Object.values(PATCH_FORMAT_NAMES).filter((name) => !description.includes(name.toLowerCase())), []);
  });
});
