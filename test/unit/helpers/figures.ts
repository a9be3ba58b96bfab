/**
 * Figures that reliability tests measure (rounds raced, processes killed, faults
 * injected, lost bytes). Each test records its own; one line per category is printed
 * after the run and written beside the counts, so `npm test` ends with them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const figures = new Map<string, string[]>();

export function recordFigure(category: string, text: string): void {
  figures.set(category, [...(figures.get(category) ?? []), text]);
  console.log(`      ${category}: ${text}`);
}

export function figureLines(): string[] {
  return [...figures].map(([category, texts]) => `${category}: ${texts.join('; ')}`);
}

/** Written where scripts/test-all.mjs collects them for its closing lines. */
export function writeFigures(stage: string): void {
  const dir = path.resolve('test-artifacts', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${stage}-figures.txt`), figureLines().map((line) => `${line}\n`).join(''));
}
