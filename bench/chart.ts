/**
 * The SVG chart: one panel per workload, time against input size on log-log axes,
 * one line per implementation; under them, one bar per section figure that has a
 * target ratio (measured over its reference, with the target marked).
 */
import { IMPLEMENTATIONS } from './implementations';
import { cellOf, measuredSections, sizeLabel, type BenchResult } from './report';
import type { RatioBar } from './sections';
import { WORKLOAD_IDS, WORKLOAD_LABELS, type WorkloadId } from './workloads';

const COLORS: Record<string, string> = {
  floor: '#9e9e9e', engine: '#1565c0', naive: '#c62828', peer: '#ef6c00', floorProcess: '#616161', cli: '#2e7d32',
};
const DASHED = new Set(['floor', 'floorProcess']);
const PANEL_WIDTH = 330;
const PANEL_HEIGHT = 230;
const COLUMNS = 3;
const MARGIN = { left: 52, right: 12, top: 28, bottom: 34 };
const LEGEND_HEIGHT = 56;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Powers of ten covering [low, high]. */
function decades(low: number, high: number): number[] {
  const ticks: number[] = [];
  for (let exponent = Math.floor(Math.log10(low)); exponent <= Math.ceil(Math.log10(high)); exponent++) {
    ticks.push(10 ** exponent);
  }
  return ticks;
}

function panel(result: BenchResult, workload: WorkloadId, originX: number, originY: number): string {
  const cells = result.cells.filter((cell) => cell.workload === workload);
  const sizes = [...new Set(cells.map((cell) => cell.bytes))].sort((a, b) => a - b);
  const times = cells.map((cell) => Math.max(cell.medianMs, 0.1));
  const yTicks = decades(Math.min(...times), Math.max(...times));
  const [minX, maxX] = [Math.log10(sizes[0]), Math.log10(sizes[sizes.length - 1])];
  const [minY, maxY] = [Math.log10(yTicks[0]), Math.log10(yTicks[yTicks.length - 1])];
  const plotWidth = PANEL_WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = PANEL_HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (bytes: number): number => originX + MARGIN.left + (maxX === minX ? plotWidth / 2 : ((Math.log10(bytes) - minX) / (maxX - minX)) * plotWidth);
  const y = (ms: number): number => originY + MARGIN.top + plotHeight - ((Math.log10(Math.max(ms, 0.1)) - minY) / (maxY - minY || 1)) * plotHeight;
  const parts: string[] = [`<text x="${originX + MARGIN.left}" y="${originY + 16}" font-size="12" font-weight="bold">${escapeXml(WORKLOAD_LABELS[workload])}</text>`];
  for (const tick of yTicks) {
    parts.push(`<line x1="${originX + MARGIN.left}" x2="${originX + MARGIN.left + plotWidth}" y1="${y(tick)}" y2="${y(tick)}" stroke="#e0e0e0"/>`);
    parts.push(`<text x="${originX + MARGIN.left - 4}" y="${y(tick) + 4}" font-size="10" text-anchor="end">${tick >= 1000 ? `${tick / 1000} s` : `${tick} ms`}</text>`);
  }
  for (const bytes of sizes) {
    parts.push(`<text x="${x(bytes)}" y="${originY + PANEL_HEIGHT - 14}" font-size="10" text-anchor="middle">${sizeLabel(bytes)}</text>`);
  }
  for (const implementation of IMPLEMENTATIONS) {
    const points = sizes.flatMap((bytes) => {
      const cell = cellOf(result, workload, bytes, implementation.id);
      return cell ? [`${x(bytes).toFixed(1)},${y(cell.medianMs).toFixed(1)}`] : [];
    });
    if (points.length === 0) {
      continue;
    }
    const dash = DASHED.has(implementation.id) ? ' stroke-dasharray="4 3"' : '';
    parts.push(`<polyline points="${points.join(' ')}" fill="none" stroke="${COLORS[implementation.id]}" stroke-width="2"${dash}/>`);
    for (const point of points) {
      const [px, py] = point.split(',');
      parts.push(`<circle cx="${px}" cy="${py}" r="2.5" fill="${COLORS[implementation.id]}"/>`);
    }
  }
  return parts.join('\n');
}

const BAR_HEIGHT = 22;
const BAR_LABEL_WIDTH = 300;

/** Horizontal bars of measured / reference on a linear axis from 0, each with its target as a tick. */
function ratioPanel(bars: readonly RatioBar[], originY: number, width: number): string {
  const top = originY + 26;
  const plotWidth = width - BAR_LABEL_WIDTH - 60;
  const highest = Math.max(...bars.map((bar) => Math.max(bar.ratio, bar.target)), 1) * 1.1;
  const x = (ratio: number): number => BAR_LABEL_WIDTH + (ratio / highest) * plotWidth;
  const parts = [`<text x="10" y="${originY + 14}" font-size="12" font-weight="bold">Agents' workloads: time over the reference (bars); target (black tick)</text>`];
  parts.push(`<line x1="${x(1)}" x2="${x(1)}" y1="${top - 4}" y2="${top + bars.length * BAR_HEIGHT}" stroke="#bdbdbd" stroke-dasharray="3 3"/>`);
  bars.forEach((bar, index) => {
    const y = top + index * BAR_HEIGHT;
    const color = bar.ratio <= bar.target ? '#2e7d32' : '#c62828';
    parts.push(`<text x="${BAR_LABEL_WIDTH - 6}" y="${y + 14}" font-size="11" text-anchor="end">${escapeXml(bar.label)}</text>`);
    parts.push(`<rect x="${BAR_LABEL_WIDTH}" y="${y + 3}" width="${Math.max(1, x(bar.ratio) - BAR_LABEL_WIDTH).toFixed(1)}" height="${BAR_HEIGHT - 8}" fill="${color}"/>`);
    parts.push(`<line x1="${x(bar.target).toFixed(1)}" x2="${x(bar.target).toFixed(1)}" y1="${y}" y2="${y + BAR_HEIGHT - 2}" stroke="#000" stroke-width="2"/>`);
    parts.push(`<text x="${(x(bar.ratio) + 4).toFixed(1)}" y="${y + 14}" font-size="11">${bar.ratio.toFixed(2)}×</text>`);
  });
  return parts.join('\n');
}

export function chartSvg(result: BenchResult): string {
  const workloads = WORKLOAD_IDS.filter((workload) => result.cells.some((cell) => cell.workload === workload));
  const rows = Math.ceil(workloads.length / COLUMNS);
  const width = PANEL_WIDTH * COLUMNS;
  const bars = measuredSections(result).flatMap(({ section, figures }) => section.bars(figures));
  const barsHeight = bars.length > 0 ? 40 + bars.length * BAR_HEIGHT : 0;
  const height = PANEL_HEIGHT * rows + LEGEND_HEIGHT + barsHeight;
  const panels = workloads.map((workload, index) => panel(result, workload, (index % COLUMNS) * PANEL_WIDTH, LEGEND_HEIGHT + Math.floor(index / COLUMNS) * PANEL_HEIGHT));
  if (bars.length > 0) {
    panels.push(ratioPanel(bars, LEGEND_HEIGHT + rows * PANEL_HEIGHT, width));
  }
  const legend = IMPLEMENTATIONS.map((implementation, index) => {
    const lx = 10 + (index % 3) * 320;
    const ly = 30 + Math.floor(index / 3) * 18;
    const dash = DASHED.has(implementation.id) ? ' stroke-dasharray="4 3"' : '';
    return `<line x1="${lx}" x2="${lx + 24}" y1="${ly - 4}" y2="${ly - 4}" stroke="${COLORS[implementation.id]}" stroke-width="2"${dash}/><text x="${lx + 30}" y="${ly}" font-size="11">${escapeXml(implementation.label)}</text>`;
  });
  const title = `Multi-Edit: median time against input size (log-log). ${result.date.slice(0, 10)}, ${result.machine}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="10" y="14" font-size="11">${escapeXml(title)}</text>
${legend.join('\n')}
${panels.join('\n')}
</svg>
`;
}
