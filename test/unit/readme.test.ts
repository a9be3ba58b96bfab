/** The README is the product page: its settings table is generated, and must not drift from package.json. */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, readLocalizedManifest } from './helpers/manifest';

describe('README', () => {
  it('has the settings table that package.json gives (npm run generate-settings-table)', () => {
    const check = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'generate-settings-table.mjs'), '--check'], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
  });

  it('lists every contributed setting once, in its table', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    for (const key of Object.keys(readLocalizedManifest().contributes.configuration.properties)) {
      assert.equal(readme.split(`| \`${key}\` |`).length - 1, 1, key);
    }
  });
});
