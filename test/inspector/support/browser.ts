import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { checkTool } from '../../support/required-tools.js';

/** Where browser tests save screenshots (git-ignored). */
export const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');

/**
 * Debian's Chromium (or `AGENT_HARNESS_CHROMIUM`), headless, with nothing reaching out to the
 * network. Rejects saying how to install it when it is missing (a test gets here without it only on CI).
 */
export async function launchBrowser(): Promise<Browser> {
  const check = checkTool('chromium');
  if (!check.found)
    throw new Error(
      `Chromium not found at ${check.where}: the browser tests need it; install it with: ${check.install}`,
    );
  return chromium.launch({
    executablePath: check.where,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Opens the inspector at `url` and waits until its first snapshot is drawn. */
export async function openInspector(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(url);
  await page.locator('body[data-ready="true"]').waitFor();
  return page;
}

/** Saves a screenshot of the page under {@link SCREENSHOTS}. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** The state the diagram highlights, or null. */
export async function highlighted(page: Page): Promise<string | null> {
  const states = await page
    .locator('#diagram g.state.current')
    .evaluateAll((groups) => groups.map((g) => g.getAttribute('data-state')));
  return states[0] ?? null;
}
