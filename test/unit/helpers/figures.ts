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

const lostBytes = new Map<string, number>();

/** Bytes a test found lost or wrong after its runs (a lost update, a half-applied batch). */
export function recordLostBytes(source: string, bytes: number): void {
  lostBytes.set(source, (lostBytes.get(source) ?? 0) + bytes);
}

/**
 * Bytes by which `actual` files differ from the nearer of two whole states (all old
 * or all new): 0 when the batch is whole. Files are compared whole: a file that is
 * neither counts with all its bytes.
 */
export function bytesOffWholeState(actual: readonly string[], allOld: readonly string[], allNew: readonly string[]): number {
  const off = (expected: readonly string[]): number => actual.reduce((sum, text, index) => sum + (text === expected[index] ? 0 : Buffer.byteLength(text)), 0);
  return Math.min(off(allOld), off(allNew));
}

export function figureLines(): string[] {
  const lines = [...figures].map(([category, texts]) => `${category}: ${texts.join('; ')}`);
  if (lostBytes.size > 0) {
    const total = [...lostBytes.values()].reduce((sum, bytes) => sum + bytes, 0);
    lines.push(`lost bytes: ${total} (${[...lostBytes].map(([source, bytes]) => `${source} ${bytes}`).join(', ')})`);
  }
  return lines;
}

/** Written where scripts/test-all.mjs collects them for its closing lines. */
export function writeFigures(stage: string): void {
  const dir = path.resolve('test-artifacts', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${stage}-figures.txt`), figureLines().map((line) => `${line}\n`).join(''));
}
