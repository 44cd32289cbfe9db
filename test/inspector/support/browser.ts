import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Where browser tests save screenshots (git-ignored). */
export const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');

/** Debian's Chromium, headless, with nothing reaching out to the network. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
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
