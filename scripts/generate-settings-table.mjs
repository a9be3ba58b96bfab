// Writes the README's settings table from package.json's contributes.configuration, with the
// texts of package.nls.json, between the two marker comments. `--check` writes nothing and exits 1
// when the README differs from what it would write (test/unit/readme.test.ts runs it).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const readmeFile = join(root, 'README.md');
const BEGIN = '<!-- settings table: generated from package.json by npm run generate-settings-table -->';
const END = '<!-- end of settings table -->';

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const strings = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8'));

/** A "%key%" manifest string as VS Code shows it. */
function text(value) {
  const key = /^%([\w.-]+)%$/.exec(value)?.[1];
  return key === undefined ? value : strings[key];
}

/** Markdown table cells hold one line; a pipe would end the cell, and a star start emphasis. */
function cell(value) {
  return value.replace(/\s*\n\s*/g, ' ').replace(/[|*]/g, (char) => `\\${char}`);
}

function code(value) {
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

function row([key, property]) {
  // Code spans keep their stars, so a default like **/.git/** shows as written.
  const defaultValue = Array.isArray(property.default) ? property.default.map(code).join(', ') : code(property.default);
  const notes = [];
  if (property.enum) notes.push(`One of ${property.enum.map(code).join(', ')}.`);
  if (property.minimum !== undefined && property.maximum !== undefined) notes.push(`From ${property.minimum} to ${property.maximum}.`);
  const description = [text(property.description), ...notes].join(' ');
  return `| \`${key}\` | ${defaultValue.replace(/\|/g, '\\|')} | ${cell(description)} |`;
}

function settingsTable() {
  const properties = Object.entries(manifest.contributes.configuration.properties)
    .sort(([, a], [, b]) => (a.order ?? 0) - (b.order ?? 0));
  return [BEGIN, '', '| Setting | Default | What it does |', '|---|---|---|', ...properties.map(row), '', END].join('\n');
}

const readme = readFileSync(readmeFile, 'utf8');
const begin = readme.indexOf(BEGIN);
const end = readme.indexOf(END);
if (begin < 0 || end < begin) {
  console.error(`README.md needs the two markers of the settings table:\n${BEGIN}\n${END}`);
  process.exit(1);
}
const updated = readme.slice(0, begin) + settingsTable() + readme.slice(end + END.length);
if (process.argv.includes('--check')) {
  if (updated !== readme) {
    console.error('README.md: the settings table differs from package.json; run `npm run generate-settings-table`.');
    process.exit(1);
  }
  console.log('README.md: the settings table matches package.json');
} else if (updated !== readme) {
  writeFileSync(readmeFile, updated);
  console.log('Updated the settings table in README.md');
} else {
  console.log('The settings table in README.md is up to date');
}
