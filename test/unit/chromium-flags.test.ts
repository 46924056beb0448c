/**
 * Chromium for tests (test/chromium.ts): the browser-UI features we switch off are added to each launcher's own
 * --disable-features list, never in place of it (Chromium keeps only the last --disable-features switch).
 */
import * as chromeLauncher from 'chrome-launcher';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, DISABLED_FEATURES, mergedDisableFeatures, playwrightDisableFeatures, storyChromiumPath } from '../chromium';

const features = (flag: string) => flag.replace(/^--disable-features=/, '').split(',');

describe('--disable-features for the test browsers', () => {
  it("keeps Playwright's own list (read from playwright-core) and adds ours once", () => {
    const playwright = playwrightDisableFeatures();
    expect(features(playwright)).toEqual(expect.arrayContaining(['PaintHolding', 'AimEnabled']));
    const merged = features(mergedDisableFeatures([playwright]));
    expect(merged).toEqual([...features(playwright), ...DISABLED_FEATURES]);
    expect(new Set(merged).size).toBe(merged.length);
  });

  it("keeps chrome-launcher's list (Lighthouse's browser) and adds ours", () => {
    const defaults = chromeLauncher.Launcher.defaultFlags();
    const own = defaults.find((f) => f.startsWith('--disable-features='))!;
    expect(features(mergedDisableFeatures(defaults))).toEqual([...features(own), ...DISABLED_FEATURES]);
  });

  it('a list that already names a feature does not repeat it', () => {
    expect(mergedDisableFeatures(['--no-sandbox', '--disable-features=A,WebUIOmniboxPopup'])).toBe(`--disable-features=A,${DISABLED_FEATURES.join(',')}`);
  });
});

describe('the browser of the e2e stories', () => {
  it('is the headless shell when it is installed, else the full browser', () => {
    expect(storyChromiumPath(process.execPath, '/usr/bin/chromium')).toBe(process.execPath);
    expect(storyChromiumPath('/nowhere/chromium-headless-shell', '/usr/bin/chromium')).toBe('/usr/bin/chromium');
    expect(storyChromiumPath('/nowhere/chromium-headless-shell')).toBe(CHROMIUM_PATH);
  });
});
