import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ALL_ERROR_CODES, ERROR_CODES, errorDocLink, type ErrorCode } from '../../src/core/contract/errorCodes';
import { contextSchema, diagnosisKinds, errorEnvelopeSchema } from '../../src/core/contract/schemas';

const DOC_PATH = path.resolve(__dirname, '../../../docs/errors.md');

/** The doc split at its "### " headings: heading text -> the section's body. */
function codeSections(doc: string): Map<string, string> {
  const sections = new Map<string, string>();
  const parts = doc.split(/^### /m).slice(1);
  for (const part of parts) {
    const newline = part.indexOf('\n');
    const heading = part.slice(0, newline).trim();
    const body = part.slice(newline + 1).split(/^## /m)[0];
    assert.ok(!sections.has(heading), `docs/errors.md has two "### ${heading}" headings`);
    sections.set(heading, body);
  }
  return sections;
}

/** The section of the doc under a "## " heading. */
function chapter(doc: string, title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `docs/errors.md has no "## ${title}" chapter`);
  return doc.slice(start + 1).split(/^## /m)[1];
}

/** GitHub's anchor for a heading made of capitals and underscores. */
const anchorOf = (heading: string): string => heading.toLowerCase();

describe('docs/errors.md', () => {
  const doc = readFileSync(DOC_PATH, 'utf8');
  const sections = codeSections(doc);

  it('has a "### CODE" heading for every code in the table, so errorDocLink() lands on it', () => {
    for (const code of ALL_ERROR_CODES) {
      assert.ok(sections.has(code), `no "### ${code}" heading`);
      assert.equal(errorDocLink(code).split('#')[1], anchorOf(code));
    }
  });

  it('documents no code that the table does not have', () => {
    const stale = [...sections.keys()].filter((heading) => /^[A-Z_]+$/.test(heading) && !(heading in ERROR_CODES));
    assert.deepEqual(stale, []);
  });

  for (const code of ALL_ERROR_CODES) {
    it(`states the category, retryability, next action and meaning of ${code} as the table does`, () => {
      const body = sections.get(code) ?? '';
      const info = ERROR_CODES[code as ErrorCode];
      const row = /^\| `([a-z]+)` \| (yes|no) \| `([a-z_]+)`[^|]*\|$/m.exec(body);
      assert.ok(row, `### ${code} has no "| \`category\` | yes/no | \`next_action\` |" row`);
      assert.deepEqual(
        { category: row[1], retryable: row[2] === 'yes', nextAction: row[3] },
        { category: info.category, retryable: info.retryable, nextAction: info.nextAction },
      );
      assert.ok(body.includes(info.summary), `### ${code} does not state its summary: "${info.summary}"`);
      assert.match(body, /\*\*Typical causes\.\*\*/, `### ${code} has no typical causes`);
      assert.match(body, /\*\*What to do\.\*\*/, `### ${code} has no "What to do"`);
    });
  }

  it('lists every code in the index with the same category and retryability', () => {
    const index = chapter(doc, 'Index');
    for (const code of ALL_ERROR_CODES) {
      const info = ERROR_CODES[code];
      const row = new RegExp(`^\\| \\[\`${code}\`\\]\\(#${anchorOf(code)}\\) \\| \`([a-z]+)\` \\| (yes|no) \\|`, 'm').exec(index);
      assert.ok(row, `the index has no row for ${code}`);
      assert.deepEqual([row[1], row[2] === 'yes'], [info.category, info.retryable], `index row of ${code}`);
    }
  });

  it('describes every envelope field and context field', () => {
    const fields = chapter(doc, 'The error envelope');
    const names = [...Object.keys(errorEnvelopeSchema.shape), ...Object.keys(contextSchema.shape).map((name) => `context.${name}`)];
    const missing = names.filter((name) => !fields.includes(`| \`${name}\` |`));
    assert.deepEqual(missing, []);
  });

  it('describes every diagnosis kind', () => {
    const diagnoses = chapter(doc, 'Diagnosis kinds');
    const missing = diagnosisKinds.filter((kind) => !new RegExp(`^\\| \`${kind}\` \\|`, 'm').test(diagnoses));
    assert.deepEqual(missing, []);
  });
});
