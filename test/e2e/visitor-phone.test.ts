/**
 * The visitor's paths on a phone (issue 29, 390 × 844): the detail dialog's actions without scrolling and
 * a calendar menu that fits; a failed listing load with the filter sheet open; filters that exclude
 * everything; a past date in the URL; near mode's order and the filter count; real 404s; the skip link.
 * None of these read today's date: the e2e app runs on the real clock, and a past date here is 2020.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { floorHtml } from '../bench/floor';
import { openAccountMenu, registerVerifiedOwner } from './support/auth';
import { baseURL, COUNT_LINE, expectAccessible, hydrated, newPage, sharedBrowser, stamp, uniqueEmail, venuePathIn, waitForMail } from './support/browser';

const browser = sharedBrowser();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
/** A page's layout shift while it arrives in pieces: below half of Google's "good" (0.1). */
const MAX_LAYOUT_SHIFT = 0.05;
/** One layout-shift entry as the page records it: its score and the start of each moved element's markup. */
interface Shift {
  value: number;
  moved: string[];
}

function phonePage(opts: { allowConsoleErrors?: RegExp } = {}) {
  return newPage(browser(), { ...opts, context: PHONE });
}

/** The element is inside the viewport and is what a tap at its centre hits (not clipped, not covered). */
async function tappable(el: Locator): Promise<boolean> {
  return el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (r.width === 0 || x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === node || node.contains(hit));
  });
}

async function openFirstDetail(page: Page): Promise<Locator> {
  await page
    .getByRole('button', { name: /^Visa detaljer om / })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  return dialog;
}

describe('a visitor on a phone (issue 29)', () => {
  it('the detail dialog is a summary with its actions in view; the calendar menu fits and covers nothing', async () => {
    const { page, errors, context } = await phonePage();
    await page.goto('/?weekday=all&city=stockholm');
    await hydrated(page);
    const dialog = await openFirstDetail(page);
    // When and where in one line each, with directions; chips for the evening.
    expect(await dialog.locator('time').textContent()).toMatch(/^\p{L}+dag \d{1,2} \p{L}+ kl\. \d{2}:\d{2}$/u);
    expect(await dialog.getByRole('link', { name: 'Vägbeskrivning' }).count()).toBe(1);
    expect(await dialog.getByRole('list', { name: 'Om kvällen' }).getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
    // The actions, visible without scrolling.
    const bar = dialog.getByRole('group', { name: 'Gör något med quizet' });
    const calendar = bar.getByText('Lägg till i kalender');
    const share = bar.getByRole('button', { name: 'Dela' });
    const follow = bar.getByRole('button', { name: /^Följ / });
    for (const el of [calendar, share, follow]) expect(await tappable(el)).toBe(true);
    // Icons are inline SVG beside the text, hidden from assistive technology; no emoji or full-width glyphs.
    for (const el of [share, follow]) {
      expect(await el.locator('svg[aria-hidden="true"]').count()).toBe(1);
      expect(await el.textContent()).not.toMatch(/[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}\u{FF0B}]/u);
    }
    // The calendar menu opens within the dialog and the viewport; both choices can be tapped.
    await calendar.click();
    for (const name of ['Kalenderfil (.ics)', 'Google Kalender']) expect(await tappable(dialog.getByRole('link', { name })), name).toBe(true);
    // … and it covers nothing: "Alla quiz på …" is still tappable once scrolled to.
    const all = dialog.getByRole('link', { name: /^Alla quiz på / });
    await all.scrollIntoViewIfNeeded();
    expect(await tappable(all)).toBe(true);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // The search follow button carries an SVG bell, not 🔔.
    const watch = page.getByRole('button', { name: 'Bevaka den här sökningen' });
    expect(await watch.locator('svg[aria-hidden="true"]').count()).toBe(1);
    expect(await watch.textContent()).not.toMatch(/\u{1F514}/u);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a failed listing load leaves no stale count; the open filter sheet says so; closing it shows the error', async () => {
    const { page, errors, context } = await phonePage({ allowConsoleErrors: /status of 500/ });
    await page.goto('/?weekday=all&city=stockholm');
    await hydrated(page);
    expect(await page.getByText(COUNT_LINE).count()).toBeGreaterThan(0);
    await page.route('**/api/listing?**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'internal', message: 'Något gick fel. Försök igen senare.' } }),
      }),
    );
    await page.getByRole('link', { name: /^Filter/ }).click();
    await page.getByLabel('Kategori').selectOption('musik');
    const sheetAlert = page.getByRole('alert').filter({ hasText: 'Quiz kunde inte laddas' });
    await sheetAlert.waitFor();
    expect(await page.getByRole('button', { name: /^Visa \d+ quiz$/ }).count()).toBe(0);
    expect(await page.getByText(COUNT_LINE).count()).toBe(0);
    await page.getByRole('button', { name: 'Stäng', exact: true }).click();
    const panel = page.getByRole('alert').filter({ hasText: 'Ett fel uppstod vid laddning av quiz' });
    await panel.waitFor();
    // No placeholder cards between the retries: the error is the first thing under the count.
    expect(await page.locator('[aria-busy="true"]').count()).toBe(0);
    await panel.scrollIntoViewIfNeeded();
    await expect.poll(() => tappable(panel.getByRole('button', { name: 'Försök igen' }))).toBe(true);
    await page.unroute('**/api/listing?**');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the filter sheet covers the whole page, and "Visa N quiz" stays in its footer while the filters scroll (issue 44.9)', async () => {
    const { page, errors, context } = await phonePage();
    await page.goto('/?weekday=all&city=stockholm');
    await hydrated(page);
    await page.getByRole('link', { name: /^Filter/ }).click();
    const show = page.getByRole('button', { name: /^Visa \d+ quiz$/ });
    await show.waitFor();
    // Every corner of the screen is the sheet: nothing of the page beneath shows or takes a tap.
    const covered = await page.evaluate(() => {
      const sheet = document.getElementById('filter')!;
      const w = window.innerWidth;
      const h = window.innerHeight;
      return [
        [2, 2],
        [w - 2, 2],
        [2, h - 2],
        [w - 2, h - 2],
        [w / 2, h / 4],
      ].every(([x, y]) => sheet.contains(document.elementFromPoint(x!, y!)));
    });
    expect(covered).toBe(true);
    expect(await tappable(show)).toBe(true);
    // Down to the last filter: the button has not scrolled away.
    await page.getByLabel('Språk').scrollIntoViewIfNeeded();
    await page.getByLabel('Språk').selectOption('engelska');
    await expect.poll(() => show.textContent(), { timeout: 15_000 }).toMatch(/^Visa \d+ quiz$/);
    expect(await tappable(page.getByLabel('Språk'))).toBe(true);
    expect(await tappable(show)).toBe(true);
    await show.click();
    await page.waitForURL((u) => u.searchParams.get('sprak') === 'engelska');
    expect(await page.locator('#filter').isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('filters that exclude everything are named, with "Rensa filter"', async () => {
    const { page, errors, context } = await phonePage();
    await page.goto('/quiz/stockholm?price=gratis&team=2&time=fore19&category=musik');
    await hydrated(page);
    await page.getByText(/^Inga quiz hittades i Stockholm med filtren /).waitFor();
    expect(await page.getByText('Inga quiz hittades i Stockholm', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Filter (4)' }).count()).toBe(1);
    await page.getByRole('link', { name: 'Rensa filter' }).click();
    await page.waitForURL((u) => u.pathname === '/quiz/stockholm' && u.search === '');
    await hydrated(page);
    expect(await page.getByRole('link', { name: 'Filter', exact: true }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a past date in the URL shows the list it gets (today), not the past date', async () => {
    const { page, errors, context } = await phonePage();
    await page.goto('/?date=2020-01-06');
    await hydrated(page);
    await page.waitForURL((u) => !u.searchParams.has('date'));
    expect(await page.getByText(/6 januari/).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('near mode says that ads lead, and "Filter" counts no filter the visitor did not choose', async () => {
    const { page, errors, context } = await phonePage();
    await page.goto('/?weekday=all&near=59.3326,18.0649');
    await hydrated(page);
    const promoted = await page.locator('article[data-tier="premium"], article[data-tier="recommended"]').count();
    await page.getByText(promoted > 0 ? 'Annonser först, sedan närmast dig, inom 10 km.' : 'Närmast dig först, inom 10 km.').waitFor();
    expect(await page.getByRole('link', { name: 'Filter', exact: true }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an unknown path is a real 404 with the app's page; a screen of the app is 200", async () => {
    const { page, errors, context } = await phonePage();
    const missing = await page.goto('/finns-inte-alls');
    expect(missing?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Ops! Sidan hittades inte' }).waitFor();
    const login = await page.goto('/login');
    expect(login?.status()).toBe(200);
    await page.getByRole('button', { name: 'Logga in' }).first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the skip link moves focus to the main content', async () => {
    const { page, errors, context } = await phonePage();
    await page.goto('/');
    await hydrated(page);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Hoppa till innehållet');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a page that arrives in pieces on a slow network does not move what is already shown (layout shift under 0.05)', async () => {
    // Every kind of public page; the combined page once painted its intro card (first in the
    // document, shown second on a phone) before the listing arrived, and the listing then pushed it down.
    const venue = venuePathIn(await (await fetch(`${baseURL()}/quiz/stockholm`)).text(), 'stockholm');
    expect(venue, 'a venue page linked from the Stockholm page').toBeDefined();
    let served = { html: '', cut: 0 };
    const server = await slowServer(() => served);
    const slow = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { page, errors, context } = await newPage(browser(), { context: PHONE });
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: Shift[] };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; sources: { node?: Node }[] }[]) {
          w.shifts.push({ value: e.value, moved: e.sources.map((s) => (s.node as Element | undefined)?.outerHTML?.slice(0, 80) ?? '?') });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    for (const path of ['/quiz/stockholm/tisdag', '/quiz/stockholm', '/quiz/tisdag', '/', venue!]) {
      // The server's HTML and CSS only, as the no-JavaScript floor has them (scripts removed in the HTML: the layout-shift
      // observer above needs JavaScript on).
      const html = await floorHtml(await (await fetch(`${baseURL()}${path}`)).text(), async (href) => (await fetch(`${baseURL()}${href}`)).text());
      const main = html.indexOf('<main');
      // A pause after each section of the page's main content: the browser paints what it has while it waits.
      const cuts = [...html.matchAll(/<\/section>/g)].map((m) => m.index + '</section>'.length).filter((i) => i > main);
      expect(cuts.length, path).toBeGreaterThan(0);
      for (const cut of cuts) {
        served = { html, cut };
        await page.goto(`${slow}${path}`, { waitUntil: 'load' });
        const shifts = await page.evaluate(() => (window as unknown as { shifts: Shift[] }).shifts);
        // The page's layout shift (the sum of its shifts) stays under half of what counts as good (0.1). Not zero:
        // Chromium also paints while its parser is inside an element, so a card's last button can be drawn half-read
        // and then grow (0.003–0.004, one load in ~25); the intro card's shift was 0.155–0.185.
        const score = shifts.reduce((sum, s) => sum + s.value, 0);
        expect(score, `${path}, paused after byte ${cut}: ${JSON.stringify(shifts)}`).toBeLessThan(MAX_LAYOUT_SHIFT);
      }
    }
    expect(errors).toEqual([]);
    await context.close();
    server.close();
  });
});

/** The words a browser without push is told in the push button's place (issue 44.2). */
const NO_PUSH = 'Din webbläsare kan inte visa påminnelser.';

/** A seed venue page of Stockholm (its "Följ …" button follows a place). */
async function aVenuePage(): Promise<string> {
  const venue = venuePathIn(await (await fetch(`${baseURL()}/quiz/stockholm`)).text(), 'stockholm');
  expect(venue, 'a venue page linked from the Stockholm page').toBeDefined();
  return venue!;
}

/** A path with its query from a mail link (the mail's base is the app's APP_URL). */
const pathOf = (link: string) => {
  const u = new URL(link);
  return `${u.pathname}${u.search}`;
};

/** What the site's own pages look like at 390 px, read once from the start page: the frame every link page must wear. */
async function siteLook(page: Page): Promise<{ font: string }> {
  await page.goto('/');
  return page.evaluate(() => ({ font: getComputedStyle(document.body).fontFamily }));
}

/** A signed-link page in the site's frame: header with the way home, footer, the site's font, a styled button, no sideways scroll. */
async function expectSiteFrame(page: Page, look: { font: string }, title: string, button?: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  expect(await page.getByRole('banner').getByRole('link', { name: 'Quizkväll' }).getAttribute('href')).toBe('/');
  expect(await page.getByRole('contentinfo').getByRole('link', { name: 'Tipsa om ett quiz' }).count()).toBe(1);
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toBe(look.font);
  if (button) {
    const style = await page.getByRole('button', { name: button }).evaluate((el) => ({
      bg: getComputedStyle(el).backgroundColor,
      radius: parseFloat(getComputedStyle(el).borderRadius),
      height: el.getBoundingClientRect().height,
    }));
    // The brand's button (brand-700), rounded and touch-sized, not the browser's grey one.
    expect(style.bg).toBe('rgb(55, 48, 163)');
    expect(style.radius).toBeGreaterThan(4);
    expect(style.height).toBeGreaterThanOrEqual(44);
  }
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
}

describe('follows and the pages behind mail links on a phone (issue 44)', () => {
  it('44.2 signed in: the confirmation, the header menu and the profile dialog lead to "Mina bevakningar"; a browser without push is told so where the button was', async () => {
    const { page, errors, context } = await phonePage();
    // Push that cannot work here: the permission is given, but the browser refuses the service worker (as some private
    // windows do: register() rejects).
    await context.grantPermissions(['notifications'], { origin: baseURL() });
    await page.addInitScript(() => {
      navigator.serviceWorker.register = () => Promise.reject(new DOMException('Service workers are disabled.', 'SecurityError'));
    });
    await registerVerifiedOwner(page);
    const made = await page.request.post('/api/owner/venues/register', {
      data: { name: `Profilpuben ${stamp()}`, address: 'Kajen 1', city: 'Lund' },
      headers: { origin: baseURL() },
    });
    expect(made.status()).toBe(201);

    await page.goto(await aVenuePage());
    await hydrated(page);
    await page
      .getByRole('button', { name: /^Följ / })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Följ', exact: true }).click();
    await dialog.getByRole('status').filter({ hasText: 'Klart! Du bevakar nu' }).waitFor();
    const label = ((await dialog.getByRole('status').first().textContent()) ?? '').replace(/^Klart! Du bevakar nu /, '').replace(/\.$/, '');
    // The confirmation itself leads there.
    expect(await dialog.getByRole('link', { name: 'Mina bevakningar' }).getAttribute('href')).toBe('/account#bevakningar');
    // Push: the answer takes the button's place, in Swedish, and is not "Något gick fel".
    await dialog.getByRole('button', { name: 'Påminn mig i telefonen' }).click();
    await dialog.getByRole('status').filter({ hasText: NO_PUSH }).waitFor({ timeout: 15_000 });
    expect(await dialog.getByRole('button', { name: 'Påminn mig i telefonen' }).count()).toBe(0);
    expect(await dialog.getByText('Något gick fel').count()).toBe(0);
    await expectAccessible(page);

    // "Mina bevakningar" opens /account at the list, on screen.
    await dialog.getByRole('link', { name: 'Mina bevakningar' }).click();
    await page.waitForURL((u) => u.pathname === '/account' && u.hash === '#bevakningar');
    const list = page.getByRole('region', { name: 'Mina bevakningar' });
    const enable = list.getByRole('button', { name: `Påminn mig i telefonen: ${label}` });
    await enable.waitFor();
    await expect.poll(async () => (await list.boundingBox())!.y).toBeLessThan(844);
    await expect.poll(async () => (await list.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await enable.click();
    await list.getByText(NO_PUSH).waitFor({ timeout: 15_000 });
    expect(await enable.count()).toBe(0);
    expect(await page.getByText('Något gick fel').count()).toBe(0);

    // The header's "Konto" menu, from a public page.
    await page.goto('/');
    await hydrated(page);
    await openAccountMenu(page);
    // "Min Sida" and the menu fit beside the logo on the phone.
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole('navigation', { name: 'Konto' }).getByRole('link', { name: 'Mina bevakningar och påminnelser' }).click();
    await page.waitForURL((u) => u.pathname === '/account' && u.hash === '#bevakningar');
    await list.waitFor();

    // The profile dialog's "Konto" tab.
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Redigera profil', exact: true }).click();
    const profile = page.getByRole('dialog', { name: 'Verksamhetsprofil' });
    await profile.getByRole('tab', { name: 'Konto' }).click();
    await profile.getByRole('link', { name: 'Mina bevakningar' }).click();
    await page.waitForURL((u) => u.pathname === '/account');
    await list.waitFor();

    // A browser with no push at all: said at once, in each button's place.
    await page.addInitScript(() => {
      delete (window as { PushManager?: unknown }).PushManager;
    });
    await page.reload();
    await list.getByText(NO_PUSH).waitFor();
    expect(await list.getByRole('button', { name: /^Påminn mig i telefonen/ }).count()).toBe(0);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('44.7 the pages reached from e-mail wear the site frame and work without JavaScript: confirm, "Mina bevakningar", /tipsa/stopp', async () => {
    const { page, errors, context } = await phonePage();
    const look = await siteLook(page);
    // A visitor follows a place by e-mail.
    const email = uniqueEmail('ram');
    await page.goto(await aVenuePage());
    await hydrated(page);
    await page
      .getByRole('button', { name: /^Följ / })
      .first()
      .click();
    await page.getByLabel('E-post').fill(email);
    await page.getByRole('button', { name: 'Följ', exact: true }).click();
    await page.getByRole('dialog').getByRole('status').waitFor();
    const mail = await waitForMail(email, 'Bekräfta');
    const confirm = pathOf(mail.links.find((l) => l.includes('/bevakningar/bekrafta'))!);

    // Without JavaScript, as a mail app's browser may open it: the frame, and every step works.
    const plain = await newPage(browser(), { javaScriptEnabled: false, context: PHONE });
    await plain.page.goto(confirm);
    await expectSiteFrame(plain.page, look, 'Bekräfta bevakning', 'Bekräfta bevakningen');
    await plain.page.getByRole('button', { name: 'Bekräfta bevakningen' }).click();
    await expectSiteFrame(plain.page, look, 'Bevakningen är bekräftad');
    // The confirmation leads to the follows (issue 44.2), by the signed manage link.
    await plain.page.getByRole('link', { name: 'Mina bevakningar' }).click();
    await expectSiteFrame(plain.page, look, 'Mina bevakningar');
    const manage = pathOf(plain.page.url());
    expect(manage).toMatch(/^\/bevakningar\?t=/);
    const remove = plain.page.getByRole('button', { name: /^Ta bort bevakningen / });
    expect(await remove.count()).toBe(1);
    expect(await remove.evaluate((el) => parseFloat(getComputedStyle(el).borderRadius))).toBeGreaterThan(4);
    await plain.page.goto('/tipsa/stopp?t=en-lank-fran-mejlet');
    await expectSiteFrame(plain.page, look, 'Ingen e-post om tips', 'Radera min adress');
    expect(plain.errors).toEqual([]);
    await plain.context.close();

    // With JavaScript: the same pages pass the accessibility check; a browser without push is told so in the button's place.
    await page.addInitScript(() => {
      delete (window as { PushManager?: unknown }).PushManager;
    });
    await page.goto(manage);
    await expectSiteFrame(page, look, 'Mina bevakningar');
    await page.getByText(NO_PUSH).waitFor();
    expect(await page.getByRole('button', { name: /^Påminn mig i telefonen/ }).count()).toBe(0);
    await expectAccessible(page);
    await page.goto('/tipsa/stopp?t=en-lank-fran-mejlet');
    await expectSiteFrame(page, look, 'Ingen e-post om tips', 'Radera min adress');
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/**
 * Serves the page `current()` names at any path in two pieces, 600 ms apart, the first ending at its `cut`; any other
 * request (styles, scripts, images) goes to the app.
 */
function slowServer(current: () => { html: string; cut: number }): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.headers.accept?.includes('text/html')) {
      const { html, cut } = current();
      const bytes = Buffer.from(html);
      const at = Buffer.byteLength(html.slice(0, cut));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.write(bytes.subarray(0, at));
      setTimeout(() => res.end(bytes.subarray(at)), 600);
      return;
    }
    res.writeHead(302, { location: `${baseURL()}${req.url}` }).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
