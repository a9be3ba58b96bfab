// The `ui` helpers UI scenarios get: drive the VS Code workbench the way a person does, with the
// keyboard, the command palette and the quick open box, and check what is on screen.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** `npm run media` sets it: screenshots named for the README or the walkthrough are copied there. */
const PUBLISH_MEDIA = process.env.UI_PUBLISH_MEDIA === '1';

const DEFAULT_TIMEOUT_MS = 15_000;
const REFILTER_INTERVAL_MS = 1_000;

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * @param {import('playwright-core').Page} page the workbench page
 * @param {string} artifactsDir where screenshots go
 */
export function createWorkbenchUi(page, artifactsDir) {
  const quickInput = page.locator('.quick-input-widget');
  const quickInputBox = quickInput.locator('.quick-input-box input');
  const quickPickRows = quickInput.locator('.quick-input-list .monaco-list-row');

  /** The quick pick row whose label is exactly `label`. */
  const quickPickItem = (label) => quickPickRows.filter({
    has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }),
  }).first();

  const ui = {
    /** Opens the command palette (F1), or reuses the open quick input, and types `filter` after `>`. */
    async openCommandPalette(filter = '') {
      // The workbench may take the focus just as the palette opens (a page it opens at start),
      // which hides the palette again: open it once more rather than wait on a hidden box.
      for (let attempt = 1; ; attempt++) {
        if (!(await quickInput.isVisible())) await page.keyboard.press('F1');
        try {
          // A key pressed while the workbench is still taking the focus at start may not open it.
          await quickInputBox.waitFor({ state: 'visible', timeout: 5_000 });
          await quickInputBox.fill(`>${filter}`, { timeout: 5_000 });
          return;
        } catch (error) {
          if (attempt >= 5) throw error;
          console.log(`  the palette closed before ">${filter}" was typed (attempt ${attempt}); opening it again`);
        }
      }
    },

    /** The labels of the quick pick rows now rendered (a long list renders only what fits). */
    async quickPickLabels() {
      return (await quickPickRows.locator('.label-name').allInnerTexts()).map((label) => label.trim());
    },

    /**
     * Waits for the quick pick row labelled exactly `label` and returns its locator. The list is
     * computed when the filter changes, and extensions register their commands a few seconds after
     * the workbench appears, so the filter is typed again until the row shows.
     */
    async waitForQuickPickItem(label, timeout = DEFAULT_TIMEOUT_MS) {
      const item = quickPickItem(label);
      const deadline = Date.now() + timeout;
      while (Date.now() < deadline) {
        const visible = await item.waitFor({ state: 'visible', timeout: REFILTER_INTERVAL_MS }).then(() => true, () => false);
        if (visible) return item;
        const filter = await quickInputBox.inputValue();
        await quickInputBox.fill('');
        await quickInputBox.fill(filter);
      }
      const shown = await ui.quickPickLabels();
      throw new Error(`no quick pick item "${label}" within ${timeout} ms; shown: ${JSON.stringify(shown)}`);
    },

    async closeQuickInput() {
      if (await quickInput.isVisible()) await page.keyboard.press('Escape');
      await quickInput.waitFor({ state: 'hidden', timeout: DEFAULT_TIMEOUT_MS });
    },

    /** Runs a command by its palette label, e.g. "Multi-Edit: Apply Request". */
    async runCommand(label) {
      // The workbench may take the focus while the palette is open (a walkthrough or the Problems
      // panel updating), which hides the palette under the click: open it again and retry.
      for (let attempt = 1; ; attempt++) {
        await ui.openCommandPalette(label);
        const row = await ui.waitForQuickPickItem(label);
        try {
          await row.click({ timeout: 5_000 });
          break;
        } catch (error) {
          if (attempt >= 3) throw error;
          console.log(`  palette closed before "${label}" was clicked (attempt ${attempt}); opening it again`);
        }
      }
      await quickInput.waitFor({ state: 'hidden', timeout: DEFAULT_TIMEOUT_MS });
    },

    /** Opens a workspace file through quick open (Ctrl+P) and waits for its editor tab. */
    async openFile(relativePath) {
      const fileName = path.posix.basename(relativePath);
      await page.keyboard.press('Control+P');
      await quickInputBox.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
      await quickInputBox.fill(relativePath);
      const match = quickPickRows.filter({ hasText: fileName }).first();
      await match.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
      // A click opens the row that matched; Enter would open the focused row, which can still be
      // the first result of the list before it was filtered.
      await match.click();
      await page.locator('.tabs-container .tab.active', { hasText: fileName })
        .waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
      // Newer workbenches fade the box out: wait, so the next F1 is not taken for the closing box.
      await quickInput.waitFor({ state: 'hidden', timeout: DEFAULT_TIMEOUT_MS });
    },

    /**
     * Opens the quick-fix menu (Ctrl+.) in the focused editor and returns its locator. The menu
     * waits for every provider (the TypeScript server of newer VS Code starts slowly), and a key
     * pressed while focus still moves is lost, so it is pressed again after a while without a menu.
     */
    async openQuickFixMenu(timeout = 3 * DEFAULT_TIMEOUT_MS) {
      // Newer workbenches add an empty .action-widget for submenus.
      const menu = page.locator('.action-widget:not(.action-list-submenu-panel)');
      const deadline = Date.now() + timeout;
      while (Date.now() < deadline) {
        await page.keyboard.press('Control+.');
        if (await menu.waitFor({ state: 'visible', timeout: 10 * REFILTER_INTERVAL_MS }).then(() => true, () => false)) return menu;
      }
      throw new Error(`no quick-fix menu within ${timeout} ms`);
    },

    /** Opens the Problems panel (Ctrl+Shift+M) and returns its locator. */
    async openProblemsPanel() {
      const panel = page.locator('.markers-panel');
      if (!(await panel.isVisible())) await page.keyboard.press('Control+Shift+M');
      await panel.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
      return panel;
    },

    /** Waits until `target` (text, or a locator) is visible, optionally inside `within`. */
    async waitForText(target, { within = page, timeout = DEFAULT_TIMEOUT_MS } = {}) {
      const locator = typeof target === 'string' ? within.getByText(target).first() : target;
      await locator.waitFor({ state: 'visible', timeout });
      return locator;
    },

    /**
     * Saves a screenshot of the whole workbench as <artifacts>/<name>.png and returns its path.
     * `media` names the repository file (e.g. media/walkthrough/apply.png) it becomes when
     * `npm run media` runs the scenarios: the product's images are made here, never by hand.
     * `element` (a locator) crops the picture to that part of the workbench.
     */
    async screenshot(name, { media, element } = {}) {
      const file = path.join(artifactsDir, `${name}.png`);
      if (element) await element.screenshot({ path: file });
      else await page.screenshot({ path: file });
      if (media && PUBLISH_MEDIA) fs.copyFileSync(file, path.join(REPO_ROOT, media));
      return file;
    },

    /**
     * Closes the modal editor newer workbenches open the walkthrough and Settings in (it covers the
     * workbench and leaves the command palette inert); nothing happens where there is none.
     */
    async closeModalEditor() {
      const modal = page.locator('.modal-editor-part');
      if (!(await modal.isVisible())) return;
      await page.keyboard.press('Escape');
      if (!(await modal.waitFor({ state: 'hidden', timeout: 3_000 }).then(() => true, () => false))) {
        await modal.locator('.codicon-close').first().click();
        await modal.waitFor({ state: 'hidden', timeout: DEFAULT_TIMEOUT_MS });
      }
    },

    /** Closes whatever transient UI (quick input, menus, peeks) the last scenario left open. */
    async dismissTransientUi() {
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
    },
  };
  return ui;
}
