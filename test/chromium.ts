/**
 * The one place Chromium is started for tests and the bench: Debian's /usr/bin/chromium (override
 * with CHROMIUM_PATH; CHROME_PATH is still read) with the same flags everywhere. Two doors, because
 * two libraries drive it: Playwright for the e2e stories (test/e2e/support/browser.ts) and Lighthouse,
 * which needs a Chrome DevTools port that chrome-launcher opens (test/bench/lighthouse.ts, used by
 * `npm run bench` and test/e2e/lighthouse.test.ts).
 */
import * as chromeLauncher from 'chrome-launcher';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Offline, sandbox-less (containers), quiet: nothing but the page under test uses the network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Headless Chromium driven by Playwright. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Headless Chromium with a DevTools port for Lighthouse; call `kill()` when done. */
export function launchChromiumForLighthouse(): Promise<chromeLauncher.LaunchedChrome> {
  return chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', ...CHROMIUM_ARGS], logLevel: 'error' });
}
