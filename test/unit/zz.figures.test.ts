/** Prints the reliability figures once every suite has run (a root-level hook). */
import { figureLines, writeFigures } from './helpers/figures';

after(() => {
  const lines = figureLines();
  if (lines.length > 0) {
    console.log(`\n  Figures\n${lines.map((line) => `    ${line}`).join('\n')}`);
  }
  writeFigures(process.env.TEST_STAGE ?? 'unit');
});
