/**
 * Parts of the benchmark beyond the workload-by-size grid: each measures its own
 * figures, keeps them in latest.json under its id, and renders them as a markdown
 * section with its targets. A new part is one module added to SECTIONS.
 */
import type { Target } from './markdown';

export interface SectionContext {
  /** A directory of its own, removed after the run. */
  readonly scratch: string;
  /** The quick run inside the unit tests: small counts, no slow set-up. */
  readonly quick: boolean;
}

/** A bar of the chart: a measured figure over its reference, with the target ratio. */
export interface RatioBar {
  readonly label: string;
  readonly ratio: number;
  readonly target: number;
}

export interface BenchSection<Figures> {
  readonly id: string;
  readonly title: string;
  measure(context: SectionContext): Promise<Figures>;
  /** The section's body: what was measured, how, and the figures. */
  markdown(figures: Figures): string;
  targets(figures: Figures): Target[];
  bars(figures: Figures): RatioBar[];
}
