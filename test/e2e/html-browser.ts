import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { onTestFinished } from 'vitest';

/** Debian's chromium package; `.ci/run` installs it when apt-get is there. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`[html report browser test] skipped: ${CHROMIUM} is absent. Install it with "apt-get install -y chromium" (.ci/run does) to run it.`);
}

/** What went wrong while a page loaded: console errors, uncaught exceptions, requests that left the file. */
export interface PageProblems {
  console: string[];
  errors: string[];
  requests: string[];
}

/**
 * Chromium keeps only the last --disable-features it is given, so ours repeats the list Playwright
 * passes (playwright-core 1.65, chromiumSwitches.ts) and adds the WebUI omnibox popups: headless
 * Chromium 15x preloads them for every window, that is every page, in a renderer of their own,
 * which cost about as much CPU as loading report.html itself. They are browser UI: no page sees them.
 */
const DISABLED_FEATURES = [
  // Playwright's
  'AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding',
  'ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin,OptimizationHints,NetworkTimeServiceQuerying,AimEnabled',
  'PreconnectToSearch,msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion',
  // ours
  'WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
].join(',');

/** Headless Chromium with nothing that reaches the network on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--disable-features=${DISABLED_FEATURES}`,
    ],
  });
}

/** Opens `file` from a file:// URL, recording the problems the page logs or causes. */
export async function openPage(browser: Browser, file: string, viewport?: { width: number; height: number }): Promise<{ page: Page; problems: PageProblems }> {
  const page = await browser.newPage(viewport ? { viewport } : {});
  const problems: PageProblems = { console: [], errors: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.console.push(message.text());
  });
  page.on('pageerror', (error) => problems.errors.push(error.message));
  page.on('dialog', (dialog) => {
    problems.errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    if (!/^(file|data):/.test(request.url())) problems.requests.push(request.url());
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, problems };
}

/** openPage for the test that calls it: the page closes as that test ends, also when it fails. */
export async function openTestPage(
  browser: Browser,
  file: string,
  viewport?: { width: number; height: number },
): Promise<{ page: Page; problems: PageProblems }> {
  const opened = await openPage(browser, file, viewport);
  onTestFinished(() => opened.page.close());
  return opened;
}

/** How far the page scrolls sideways: `scroll` above `client` means something widens it. */
export function pageWidth(page: Page): Promise<{ scroll: number; client: number }> {
  return page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return { scroll: root.scrollWidth, client: root.clientWidth };
  });
}
