// Debian's Chromium, driven by playwright-core, pointed at a code-server workbench.
import fs from 'node:fs';
import { chromium } from 'playwright-core';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const VIEWPORT = { width: 1400, height: 900 };

/**
 * Launches headless Chromium with one page and writes the page's console to `logFile`.
 * Playwright starts Chromium as a process-group leader and kills that group on close and at exit.
 */
export async function openBrowser(logFile) {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}; run \`npm run setup:vscode\` (or set CHROMIUM_PATH).`);
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // Our own signal handlers stop code-server and the browser in order.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const log = fs.createWriteStream(logFile, { flags: 'a' });
  const write = (line) => log.write(`${new Date().toISOString()} ${line}\n`);
  page.on('console', (message) => write(`[console.${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => write(`[pageerror] ${error.stack ?? error}`));
  page.on('crash', () => write('[crash] the page crashed'));
  let closed = false;
  return {
    page,
    log: write,
    async close() {
      if (closed) return;
      closed = true;
      await browser.close().catch(() => undefined);
      await new Promise((resolve) => log.end(resolve));
    },
  };
}

/** Resolves once the workbench has rendered its editor area and status bar. */
export async function waitForWorkbench(page, timeoutMs = 60_000) {
  await page.locator('.monaco-workbench .part.editor').waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
}
