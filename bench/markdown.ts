/** Pieces every part of the benchmark's report shares: tables, targets, figures. */

export interface Target {
  readonly what: string;
  readonly measured: string;
  readonly met: boolean;
}

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

/** Milliseconds with three significant figures at most, as the tables print them. */
export function msText(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

export function ratioText(ratio: number): string {
  return `${ratio.toFixed(2)}×`;
}
