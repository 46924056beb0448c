#!/usr/bin/env node
/**
 * The README's screenshots (docs/images/*.png): the start page at phone and desktop size, taken with
 * playwright-core and /usr/bin/chromium from a running app with a pinned clock, e.g.
 *   PORT=8799 CLOCK_NOW=2026-11-24T17:00:00Z npm start      # in another shell
 *   node scripts/docs-screenshots.mjs http://127.0.0.1:8799 2026-11-24T17:00:00Z
 */
import { chromium } from 'playwright-core';
import { join } from 'node:path';

const base = process.argv[2] ?? 'http://127.0.0.1:8799';
const at = new Date(process.argv[3] ?? '2026-11-24T17:00:00Z');
const out = join(import.meta.dirname, '..', 'docs', 'images');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
  ],
});
const shots = [
  { name: 'home-phone.png', path: '/', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  // The city page lists every upcoming quiz; scrolled to its results so the cards show beside the filters.
  { name: 'city-desktop.png', path: '/quiz/stockholm', scrollTo: 'h2', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
];
for (const s of shots) {
  const context = await browser.newContext({
    viewport: s.viewport,
    isMobile: s.isMobile,
    hasTouch: s.hasTouch,
    deviceScaleFactor: 1,
    locale: 'sv-SE',
    timezoneId: 'Europe/Stockholm',
  });
  const page = await context.newPage();
  await page.clock.install({ time: at });
  // Analytics beacons from the screenshot run are not counted.
  await page.route('**/api/events', (r) => r.fulfill({ status: 204 }));
  await page.goto(`${base}${s.path}`, { waitUntil: 'networkidle' });
  await page.waitForSelector('[data-hydrated]', { timeout: 15000 }).catch(() => {});
  if (s.scrollTo)
    await page
      .locator(s.scrollTo)
      .first()
      .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 24));
  await page.screenshot({ path: join(out, s.name) });
  await context.close();
  console.log(`wrote docs/images/${s.name}`);
}
await browser.close();
