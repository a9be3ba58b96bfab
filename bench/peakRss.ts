/**
 * Preloaded (node --require) into a benchmarked process: at exit it writes the
 * process's peak resident set size, in kilobytes, to $BENCH_PEAK_RSS_FILE.
 */
import { writeFileSync } from 'node:fs';

const reportPath = process.env.BENCH_PEAK_RSS_FILE;
if (reportPath) {
  process.on('exit', () => writeFileSync(reportPath, `${process.resourceUsage().maxRSS}\n`));
}
