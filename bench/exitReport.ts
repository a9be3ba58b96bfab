/**
 * Preloaded (node --require) into a benchmarked process: at exit it writes the
 * process's peak resident set size in kilobytes and its CPU time (user plus system)
 * in microseconds to $BENCH_EXIT_REPORT_FILE.
 */
import { writeFileSync } from 'node:fs';

const reportPath = process.env.BENCH_EXIT_REPORT_FILE;
if (reportPath) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(reportPath, `${usage.maxRSS} ${usage.userCPUTime + usage.systemCPUTime}\n`);
  });
}
