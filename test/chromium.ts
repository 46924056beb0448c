/**
 * The one place Chromium is started for tests and the bench: Debian's /usr/bin/chromium (override
 * with CHROMIUM_PATH; CHROME_PATH is still read) with the same flags everywhere. Two doors, because
 * two libraries drive it: Playwright for the e2e stories (test/e2e/support/browser.ts) and Lighthouse,
 * which needs a Chrome DevTools port that chrome-launcher opens (test/bench/lighthouse.ts, used by
 * `npm run bench` and test/e2e/lighthouse.test.ts).
 */
import * as chromeLauncher from 'chrome-launcher';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * Debian's headless shell (apt `chromium-headless-shell`, built from the same Chromium source as CHROMIUM_PATH, same
 * version): Blink, V8 and the network stack without the browser window that `--headless` on the full browser builds
 * for every page. The e2e stories run on it; Lighthouse and the bench's TBT stay on the full browser, which is what
 * they measure. Eight contexts each loading the Stockholm page cost 7.9 s of Chromium CPU on the full browser and
 * 3.4 s on the shell (2026-11-28, idle 2-core machine; issue 27). CHROMIUM_SHELL_PATH overrides it; without the
 * package the stories fall back to CHROMIUM_PATH (slower, same results).
 */
export const HEADLESS_SHELL_PATH = process.env.CHROMIUM_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

/** The Chromium the e2e stories drive: the headless shell when it is installed, else CHROMIUM_PATH. */
export function storyChromiumPath(shell = HEADLESS_SHELL_PATH, full = CHROMIUM_PATH): string {
  return existsSync(shell) ? shell : full;
}

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

/**
 * Browser UI no headless page shows. Headless Chromium builds a whole browser window per page, and since ~Chromium
 * 150 that window renders its omnibox popups as WebUI pages (chrome://omnibox-popup.top-chrome,
 * "omnibox_popup_aim.html") in renderers of their own: about a second of CPU per new browser context, and a
 * renderer that competes with the page under test (a 230 ms task of its own in a page-load trace). Measured on
 * 2026-11-27 (six contexts, each loading one public page): 14.4 s of Chromium CPU with them, 7.8 s without (issue 27).
 */
export const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];

/**
 * Chromium keeps only the last `--disable-features` of its command line, and both launchers pass a list of their
 * own (features that phone home, PaintHolding, …): ours must carry theirs too, or it would switch those back on.
 */
export function mergedDisableFeatures(defaults: readonly string[]): string {
  const own = defaults.filter((a) => a.startsWith('--disable-features=')).flatMap((a) => a.slice('--disable-features='.length).split(','));
  return `--disable-features=${[...new Set([...own, ...DISABLED_FEATURES])].filter(Boolean).join(',')}`;
}

/**
 * Playwright's default `--disable-features` switch. Playwright has no API for its default arguments; they are a
 * literal list in its bundle (chromiumSwitches.ts), read here. A layout it no longer has throws, so an upgrade
 * that moves the list fails every browser test at once instead of silently re-enabling those features.
 */
export function playwrightDisableFeatures(): string {
  const require = createRequire(import.meta.url);
  const bundle = readFileSync(join(dirname(require.resolve('playwright-core/package.json')), 'lib', 'coreBundle.js'), 'utf8');
  const list = /\bdisabledFeatures = \[([^\]]*)\]/.exec(bundle)?.[1];
  const names = list
    ?.split('\n')
    .map((line) => line.replace(/\/\/.*$/, '').trim())
    .join('')
    .match(/"([A-Za-z0-9]+)"/g)
    ?.map((q) => q.slice(1, -1));
  if (!names?.length) throw new Error('playwright-core: its default --disable-features list was not found (test/chromium.ts)');
  return `--disable-features=${names.join(',')}`;
}

/** Headless Chromium driven by Playwright: the full browser (the bench), or another build of it (`executablePath`). */
export function launchChromium(executablePath = CHROMIUM_PATH): Promise<Browser> {
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, mergedDisableFeatures([playwrightDisableFeatures()])] });
}

/** The e2e stories' Chromium (storyChromiumPath): the headless shell when installed. */
export function launchStoryChromium(): Promise<Browser> {
  return launchChromium(storyChromiumPath());
}

/**
 * Headless Chromium with a DevTools port for Lighthouse; call `kill()` when done.
 *
 * chrome-launcher's `kill()` is a SIGKILL, so Chromium never removes its singleton folder (`org.chromium.Chromium.*`,
 * a socket and a cookie) from TMPDIR: one was left per Lighthouse run (2026-11-28). Each browser gets a private TMPDIR,
 * removed by `kill()`.
 */
export async function launchChromiumForLighthouse(): Promise<chromeLauncher.LaunchedChrome> {
  const tmp = mkdtempSync(join(tmpdir(), 'lighthouse-chromium-'));
  let chrome: chromeLauncher.LaunchedChrome;
  try {
    chrome = await launchForLighthouse({ ...process.env, TMPDIR: tmp });
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  const kill = chrome.kill.bind(chrome);
  chrome.kill = () => {
    kill();
    rmSync(tmp, { recursive: true, force: true, maxRetries: 10 });
  };
  return chrome;
}

function launchForLighthouse(envVars: Record<string, string | undefined>): Promise<chromeLauncher.LaunchedChrome> {
  const defaults = chromeLauncher.Launcher.defaultFlags();
  return chromeLauncher.launch({
    envVars,
    chromePath: CHROMIUM_PATH,
    // chrome-launcher's own flags (and the Linux one it adds itself), with our features added to its
    // --disable-features (see mergedDisableFeatures).
    ignoreDefaultFlags: true,
    chromeFlags: [
      ...defaults.filter((f) => !f.startsWith('--disable-features=')),
      mergedDisableFeatures(defaults),
      '--disable-setuid-sandbox',
      '--headless=new',
      ...CHROMIUM_ARGS,
    ],
    logLevel: 'error',
  });
}
