// Renders bench/results/latest.svg to latest.png in Debian's Chromium: the README shows the PNG,
// since the Marketplace (and vsce) refuse SVG images in a README. `npm run bench` runs it last.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const results = join(process.cwd(), 'bench', 'results');
const svg = readFileSync(join(results, 'latest.svg'), 'utf8');
const width = Number(/width="(\d+)/.exec(svg)?.[1] ?? 960);
const height = Number(/height="(\d+)/.exec(svg)?.[1] ?? 600);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 2 });
  await page.setContent(`<html><body style="margin:0;background:#fff">${svg}</body></html>`);
  await page.locator('svg').first().screenshot({ path: join(results, 'latest.png') });
  console.log(`wrote ${join('bench', 'results', 'latest.png')} (${width}x${height} at 2x)`);
} finally {
  await browser.close();
}
