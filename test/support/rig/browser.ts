// Debian's Chromium for the browser tests of the local workspace: whether it is here (under CI a missing browser
// fails the run instead of skipping), a page that reports its errors, and where screenshots go.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT_DIR = fileURLToPath(new URL('../../../test-results/', import.meta.url));

/** True when Chromium is installed. Under CI (`CI` set by .ci/run, which installs it first) its absence throws. */
export function chromiumAvailable(): boolean {
  const available = existsSync(CHROMIUM);
  if (!available && process.env.CI) throw new Error(`CI: ${CHROMIUM} is missing; .ci/run should have installed it`);
  if (!available) {
    console.warn(
      `SKIPPED: the browser test needs Debian's Chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it).`,
    );
  }
  return available;
}

/** Chromium with the flags this closed network needs, and a page that reports its errors into `problems`. */
export async function openPage(url: string, problems: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(url);
  return { browser, page };
}

/** Where a screenshot named `name` is written (test-results/, created when missing). */
export function screenshot(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, name);
}
