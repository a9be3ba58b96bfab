/**
 * The recovery benchmark: every fixture of bench/recovery/fixtures through
 * multi_edit with the envelope reader and with the message reader, and through the
 * peer (applyFileEdits of @modelcontextprotocol/server-filesystem) with the message
 * reader. Prints one table; `--write` also writes bench/recovery/results.md.
 * Run with `npm run bench:recovery`.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Column, type ColumnSummary, type Fixture, loadFixtures, MAX_ROUNDS, multiEditTool, peerTool, type RunResult, runColumns, type Split, summarize } from './harness';
import { envelopeReader, messageReader } from './readers';

export async function recoveryColumns(): Promise<Column[]> {
  return [
    { label: 'multi_edit, envelope reader', tool: multiEditTool('refuseMultiline'), reader: envelopeReader },
    { label: 'multi_edit (insideIndentation: warn), envelope reader', tool: multiEditTool('warn'), reader: envelopeReader },
    { label: 'multi_edit, message reader', tool: multiEditTool('refuseMultiline'), reader: messageReader },
    { label: 'server-filesystem applyFileEdits, message reader', tool: await peerTool(), reader: messageReader },
  ];
}

function cell(result: RunResult): string {
  switch (result.outcome) {
    case 'converged':
      return String(result.rounds);
    case 'out of rounds':
      return `no fix in ${MAX_ROUNDS}`;
    default:
      return `${result.outcome} (${result.rounds})`;
  }
}

const percent = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)}%`;

function summaryTable(summaries: readonly ColumnSummary[]): string[] {
  const total = summaries[0].results.length;
  return [
    `| reader and tool | within 2 rounds | within ${MAX_ROUNDS} | wrong edits | dropped edits | gave up |`,
    '|---|---|---|---|---|---|',
    ...summaries.map((s) => `| ${s.label} | ${s.withinTwo}/${total} (${percent(s.withinTwo, total)}) | ${s.converged}/${total} | ${s.wrong} | ${s.dropped} | ${s.gaveUp} |`),
  ];
}

const SPLIT_NOTES: Readonly<Record<Split, string>> = { 'held-out': ' (held out)', 'earlier-held-out': ' (held out earlier, tuned since)' };

/** The summaries of the fixtures a predicate picks, as a titled table; nothing when it picks none. */
function partTable(title: string, fixtures: readonly Fixture[], summaries: readonly ColumnSummary[], picks: (fixture: Fixture) => boolean): string[] {
  const ids = new Set(fixtures.filter(picks).map((fixture) => fixture.id));
  if (ids.size === 0) {
    return [];
  }
  return [`${title} (${ids.size} fixtures):`, '', ...summaryTable(summaries.map((s) => summarize(s.label, s.results.filter((result) => ids.has(result.fixture))))), ''];
}

export function renderTables(fixtures: readonly Fixture[], summaries: readonly ColumnSummary[]): string {
  const classes = new Map(fixtures.map((fixture) => [fixture.id, `${fixture.class}${fixture.split ? SPLIT_NOTES[fixture.split] : ''}`]));
  const lines = [
    `All ${fixtures.length} fixtures:`,
    '',
    ...summaryTable(summaries),
    '',
    ...partTable('The tuned set: every fixture the changes so far were made and checked against', fixtures, summaries, (fixture) => fixture.split !== 'held-out'),
    ...partTable('Of the tuned set, the split held out in an earlier round, tuned on since', fixtures, summaries, (fixture) => fixture.split === 'earlier-held-out'),
    ...partTable('The held-out split: written and committed before the changes it measures, and never tuned on', fixtures, summaries, (fixture) => fixture.split === 'held-out'),
    `Rounds to the intended result per fixture (a request, a re-read and a listing each count as one round; at most ${MAX_ROUNDS}).`,
    '',
    `| fixture | class | ${summaries.map((_summary, at) => `(${at + 1})`).join(' | ')} |`,
    `|---|---|${summaries.map(() => '---').join('|')}|`,
    ...summaries[0].results.map((first, row) => `| ${first.fixture} | ${classes.get(first.fixture) ?? ''} | ${summaries.map((s) => cell(s.results[row])).join(' | ')} |`),
    '',
    ...summaries.map((s, at) => `(${at + 1}) ${s.label}`),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const fixtures = await loadFixtures();
  const started = process.hrtime.bigint();
  const summaries = await runColumns(fixtures, await recoveryColumns());
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const tables = renderTables(fixtures, summaries);
  console.log(tables);
  const notes = summaries.flatMap((s) => s.results.filter((r) => r.outcome !== 'converged' || r.rounds > 2).map((r) => `- ${s.label}: ${r.fixture}: ${cell(r)}${r.note ? `: ${r.note}` : ''}`));
  console.log(`\n${fixtures.length} fixtures, ${summaries.length} columns, ${seconds.toFixed(1)} s`);
  if (process.argv.includes('--write')) {
    const doc = [
      '# Recovery benchmark: results',
      '',
      'Written by `npm run bench:recovery -- --write`; see README.md in this folder for what is measured and where each class comes from.',
      '',
      tables,
      '',
      '## Runs that took more than 2 rounds or did not converge',
      '',
      ...notes,
      '',
    ].join('\n');
    await writeFile(resolve(__dirname, '../../../bench/recovery/results.md'), doc);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
