/**
 * The owner's paths on a phone (issue 29, 390 × 844): buying promotion for a long series with the
 * summary always in view (29.1), availability words that do not cry wolf (29.2), one way in for a new
 * owner with the dashboard at once (29.3), true messages and toasts (29.4), dates in words beside the
 * native date and time inputs (29.12).
 *
 * Dates come from the app's own clock (/api/health `today`, pinned when the app is), and the browser's
 * clock is pinned to the app's time, so nothing here reads the machine's date.
 */
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../worker/lib/clock';
import { TIER_PLACEMENT, tierDescription } from '../../worker/features/promotion/tiers';
import { dateInWords } from '../../worker/lib/swedish';
import { registerVerifiedOwner } from './support/auth';
import { baseURL, expectAccessible, newPage, sharedBrowser } from './support/browser';
import { STORY_TOWNS } from './support/towns';

const PHONE = { viewport: { width: 390, height: 844 } };

async function appClock(): Promise<{ time: string; today: string }> {
  const health = (await (await fetch(`${baseURL()}/api/health`)).json()) as { time: string; today: string };
  return { time: health.time, today: health.today };
}

const letters = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

async function post<T = any>(page: Page, path: string, data: unknown): Promise<T> {
  const res = await page.request.post(path, { data, headers: { origin: baseURL() } });
  if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${await res.text()}`);
  return res.json();
}

/** The element is inside the viewport and is what a tap at its centre hits (not covered by a toast). */
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

/** Whether the element's box lies inside the 390 × 844 viewport. */
async function inViewport(page: Page, name: string) {
  const box = await page.getByRole('button', { name }).boundingBox();
  return !!box && box.y >= 0 && box.y + box.height <= 844;
}

/** A signed-in new owner on a phone, the browser's clock pinned to the app's. */
async function phoneOwner(browser: Browser, context: BrowserContextOptions = PHONE) {
  const opened = await newPage(browser, { context });
  const clock = await appClock();
  await opened.page.clock.setFixedTime(new Date(clock.time));
  await registerVerifiedOwner(opened.page);
  return { ...opened, clock };
}

/** A phone owner's business with one place in `city` and a weekly series of 26 dates from `firstInDays` days on. */
async function phoneOwnerWithSeries(browser: Browser, o: { pub: string; address: string; city: string; firstInDays: number }) {
  const opened = await phoneOwner(browser);
  const { page, clock } = opened;
  const suffix = letters();
  const venue = await post(page, '/api/owner/venues', { name: `${o.pub} ${suffix}` });
  const home = await post(page, `/api/owner/venues/${venue.id}/locations`, { name: `${o.pub} ${suffix}`, address: o.address, city: o.city });
  const first = addDays(clock.today, o.firstInDays);
  // 26 weekly dates, as in the issue.
  await post(page, '/api/owner/quizzes', {
    locationId: home.id,
    date: first,
    startTime: '19:00',
    category: 'allmänbildning',
    recurring: true,
    pattern: 'weekly',
    until: addDays(first, 25 * 7),
  });
  return { ...opened, suffix, venue, home, first };
}

describe("owner's paths on a phone (issue 29)", () => {
  const browser = sharedBrowser();

  it('series promotion: 4 weeks of dates with "Visa fler datum", honest availability, a sticky summary, and a mixed order told as mixed', async () => {
    const city = STORY_TOWNS.ownerPaths;
    const { page, errors, context, suffix, venue, first } = await phoneOwnerWithSeries(browser(), {
      pub: 'Mobilpuben',
      address: 'Torget 3',
      city,
      firstInDays: 7,
    });

    // Other quizzes in the same city hold slots: Premium on the first date, two of three Rekommenderat on the second.
    const other = await post(page, `/api/owner/venues/${venue.id}/locations`, { name: `Källaren ${suffix}`, address: 'Gränd 1', city });
    const single = async (date: string) =>
      (await post(page, '/api/owner/quizzes', { locationId: other.id, date, startTime: '21:00', category: 'allmänbildning', recurring: false }))
        .firstId as string;
    const second = addDays(first, 7);
    const [p1, r1, r2] = [await single(first), await single(second), await single(second)];
    await post(page, '/api/promotion/marketing-checkout', {
      venueId: venue.id,
      items: [
        { quizId: p1, tier: 'premium' },
        { quizId: r1, tier: 'recommended' },
        { quizId: r2, tier: 'recommended' },
      ],
    });

    await page.goto('/admin');
    await page.getByRole('button', { name: /^Marknadsför serien/ }).click({ timeout: 15_000 });
    const panel = page.getByRole('region', { name: 'Marknadsför tillfällen' });
    await panel.waitFor();
    await expect.poll(() => panel.getByText('Kontrollerar...').count(), { timeout: 15_000 }).toBe(0);

    // The slot calendar's 4 weeks: 4 of the 26 dates, then more on request.
    const boxes = panel.getByRole('checkbox');
    expect(await boxes.count()).toBe(4);
    expect(await panel.getByRole('button', { name: 'Visa fler datum (22 till)' }).isVisible()).toBe(true);

    // 29.2: Premium is free or taken; "Begränsat" only for Rekommenderat with the last of 3 left.
    const rows = panel.getByRole('listitem');
    expect(await rows.nth(0).textContent()).toContain('Premium Utvald: Upptaget');
    expect(await rows.nth(0).textContent()).toContain('Rekommenderat: Ledigt');
    expect(await rows.nth(1).textContent()).toContain('Rekommenderat: Begränsat – 1 kvar');
    expect(await rows.nth(1).textContent()).toContain('Premium Utvald: Ledigt');
    expect(await panel.getByText(/Premium Utvald: Begränsat/).count()).toBe(0);

    // 29.1: tick a date at the top: the total and 'Gå till betalning' are on screen.
    await panel.scrollIntoViewIfNeeded();
    await boxes.nth(2).check();
    await panel
      .getByRole('combobox', { name: /Marknadsföringstyp/ })
      .first()
      .selectOption('premium');
    expect(await panel.getByText('Valda: 1 · Totalt: 98 kr').isVisible()).toBe(true);
    expect(await inViewport(page, 'Gå till betalning')).toBe(true);
    // More dates, a date far down ticked: still on screen, wherever the owner scrolls in the panel.
    await panel.getByRole('button', { name: 'Visa fler datum (22 till)' }).click();
    expect(await boxes.count()).toBe(8);
    await boxes.nth(7).check();
    await panel
      .getByRole('combobox', { name: /Marknadsföringstyp/ })
      .nth(1)
      .selectOption('recommended');
    expect(await panel.getByText('Valda: 2 · Totalt: 147 kr').isVisible()).toBe(true);
    expect(await inViewport(page, 'Gå till betalning')).toBe(true);
    await boxes.nth(4).scrollIntoViewIfNeeded();
    expect(await inViewport(page, 'Gå till betalning')).toBe(true);
    await expectAccessible(page);

    // 29.4: one Premium and one Rekommenderat are told as such, not as "Premium Utvald".
    await panel.getByRole('button', { name: 'Gå till betalning' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/dev/checkout/'));
    await page.getByRole('button', { name: 'Betala' }).click();
    const success = page.getByRole('dialog', { name: 'Betalningen lyckades!' });
    await success.waitFor({ timeout: 15_000 });
    expect(await success.getByText('Marknadsföringen är aktiv direkt: 1 quiz som Premium Utvald och 1 quiz som Rekommenderat.').isVisible()).toBe(true);
    expect(await success.getByText('Ditt quiz är nu Premium Utvald').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('44.1: every series and quiz has "Marknadsför" at its head; one tap opens the purchase panel inside the first screen; a readable slot calendar; one description per tier', async () => {
    const city = STORY_TOWNS.ownerPromote;
    const { page, errors, context, clock, home } = await phoneOwnerWithSeries(browser(), {
      pub: 'Reklampuben',
      address: 'Torget 5',
      city,
      firstInDays: 3,
    });
    const single = addDays(clock.today, 5);
    await post(page, '/api/owner/quizzes', { locationId: home.id, date: single, startTime: '20:00', category: 'allmänbildning', recurring: false });

    await page.goto('/admin');
    const series = page.getByRole('article', { name: /^Quizserie/ });
    await series.waitFor({ timeout: 15_000 });
    // The help box points to what exists.
    expect(await page.getByText('Tryck på Marknadsför vid en serie eller ett quiz under Kommande quiz ovan', { exact: false }).count()).toBe(1);

    // At the series' head: above its date list's toggle, and no date list needs opening.
    const promote = series.getByRole('button', { name: /^Marknadsför serien/ });
    const head = await series.boundingBox();
    const promoteBox = await promote.boundingBox();
    const toggleBox = await series.getByRole('button', { name: 'Visa alla tillfällen' }).boundingBox();
    expect(promoteBox!.y).toBeLessThan(toggleBox!.y);
    expect(promoteBox!.y - head!.y).toBeLessThan(60);
    // One tap: the panel, its first dates and "Gå till betalning" are inside the first screen height.
    await promote.click();
    const panel = page.getByRole('region', { name: 'Marknadsför tillfällen' });
    await panel.waitFor();
    await expect.poll(() => panel.getByText('Kontrollerar...').count(), { timeout: 15_000 }).toBe(0);
    const panelBox = await panel.boundingBox();
    expect(panelBox!.y).toBeGreaterThanOrEqual(0);
    expect(panelBox!.y).toBeLessThan(844);
    const firstDate = panel.getByRole('checkbox').first();
    expect(await tappable(firstDate)).toBe(true);
    expect(await inViewport(page, 'Gå till betalning')).toBe(true);

    // The slot calendar on a phone: a list by week, no word broken or cut, nothing wider than the dialog.
    await panel.getByText(`Lediga dagar i ${city} de kommande 4 veckorna`).click();
    await panel.locator('tr[data-date]').first().waitFor({ timeout: 15_000 });
    expect(await panel.getByRole('table', { name: /^Vecka \d+/ }).count()).toBeGreaterThanOrEqual(4);
    const layout = await panel.evaluate((root) => {
      const words = [...root.querySelectorAll('tr[data-date] th, tr[data-date] td span')] as HTMLElement[];
      const lineHeight = (el: HTMLElement) => Number.parseFloat(getComputedStyle(el).lineHeight) || 16;
      const dialog = root.closest('dialog')!.getBoundingClientRect();
      return {
        count: words.length,
        broken: words.filter((el) => el.getBoundingClientRect().height > lineHeight(el) * 1.5 + 8).map((el) => el.textContent),
        outside: words.filter((el) => el.getBoundingClientRect().right > dialog.right).map((el) => el.textContent),
      };
    });
    expect(layout.count).toBeGreaterThan(28 * 2);
    expect(layout.broken).toEqual([]);
    expect(layout.outside).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Stäng' }).click();

    // A single quiz: its "Marknadsför" at its head; the purchase dialog describes each tier in the one text.
    const quiz = page.getByRole('article', { name: /^Quiz / });
    const quizPromote = quiz.getByRole('button', { name: `Marknadsför quiz ${single}` });
    expect((await quizPromote.boundingBox())!.y - (await quiz.boundingBox())!.y).toBeLessThan(60);
    await quizPromote.click();
    const dialog = page.getByRole('dialog', { name: 'Marknadsför quiz' });
    await dialog.waitFor();
    expect(await dialog.getByText(tierDescription('premium')).count()).toBe(1);
    expect(await dialog.getByText(tierDescription('recommended')).count()).toBe(1);
    expect(await dialog.getByText(/högst upp på startsidan/).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Stäng' }).click();
    // The help box and /annonsera say the same.
    expect(await page.getByText(tierDescription('premium')).count()).toBe(1);
    await page.goto('/annonsera');
    expect(await page.getByText(TIER_PLACEMENT.premium).count()).toBe(1);

    // Quiz management: the series and the single quiz have it too.
    await page.goto('/admin/quizzes');
    await page.getByRole('button', { name: /^Marknadsför serien/ }).click({ timeout: 15_000 });
    await page.getByRole('region', { name: 'Marknadsför tillfällen' }).getByRole('checkbox').first().waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Stäng' }).click();
    await page.getByRole('tab', { name: 'Enskilda quiz' }).click();
    await page.getByRole('button', { name: `Marknadsför quiz ${single}` }).click({ timeout: 15_000 });
    await page.getByRole('dialog', { name: 'Marknadsför quiz' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a new owner: the dashboard at once, one way in that creates the business and its first place', async () => {
    const { page, errors, context } = await newPage(browser(), { context: PHONE });
    const clock = await appClock();
    await page.clock.setFixedTime(new Date(clock.time));
    // Look-ups that were answered. The verify screen is left by its own redirect only: clicking "Gå vidare nu" raced
    // that redirect under load, the dashboard then mounted twice and both look-ups were answered (counts of 2, twice).
    // Polling — three answered look-ups 1 s apart — would still count 3.
    let lookups = 0;
    page.on('requestfinished', (r) => {
      if (new URL(r.url()).pathname === '/api/owner/dashboard') lookups++;
    });
    await registerVerifiedOwner(page, { byRedirect: true });
    await page.getByRole('heading', { name: 'Välkommen till Quizkväll!' }).waitFor({ timeout: 15_000 });
    // One look-up, not three 1 s apart.
    expect(lookups).toBe(1);
    // One first step: no competing button.
    expect(await page.getByRole('button', { name: 'Skapa verksamhet' }).count()).toBe(0);
    const start = page.getByRole('link', { name: 'Registrera din verksamhet' });
    expect(await start.isVisible()).toBe(true);
    await expectAccessible(page);
    await start.click();
    await page.getByRole('heading', { name: 'Registrera verksamhet' }).waitFor();
    const name = `Första puben ${letters()}`;
    await page.getByLabel('Namn').fill(name);
    await page.getByLabel('Adress').fill('Kajen 2');
    await page.getByLabel('Stad').fill('Umeå');

    // 29.4: a failed try, then success: only the success toast stands.
    let failOnce = true;
    await page.route('**/api/owner/venues/register', (route) => {
      if (!failOnce) return route.continue();
      failOnce = false;
      return route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'conflict', message: 'Det gick inte just nu – försök igen.' } }),
      });
    });
    await page.getByRole('button', { name: 'Registrera verksamhet' }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'Verksamheten kunde inte registreras' });
    await failed.waitFor();
    expect(await failed.textContent()).toContain('Det gick inte just nu – försök igen.');
    // Watch for the dashboard's spinner from here on (the SPA keeps this window).
    await page.evaluate(() => {
      const w = window as unknown as { sawSpinner: boolean };
      w.sawSpinner = false;
      new MutationObserver(() => {
        if (document.body.textContent?.includes('Laddar din verksamhet')) w.sawSpinner = true;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Registrera verksamhet' }).click();
    await page.waitForURL((u) => u.pathname === '/admin');
    await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 5_000 });
    expect(await page.getByRole('article', { name }).getByText('Kajen 2, Umeå').isVisible()).toBe(true);
    expect(await page.getByRole('status').filter({ hasText: 'Verksamheten har skapats' }).isVisible()).toBe(true);
    expect(await page.getByText('Verksamheten kunde inte registreras').count()).toBe(0);
    // The dashboard at once: no spinner between the form and the business.
    expect(await page.evaluate(() => (window as unknown as { sawSpinner: boolean }).sawSpinner)).toBe(false);

    // 44.6: one obvious next step, on screen and clear of the toast; no "Stämmer fortfarande" without a quiz.
    const next = page.getByRole('region', { name: 'Lägg upp ditt första quiz' });
    const create = next.getByRole('link', { name: 'Skapa ditt första quiz' });
    expect(await create.isVisible()).toBe(true);
    expect(await tappable(create)).toBe(true);
    expect(await page.getByRole('button', { name: 'Stämmer fortfarande' }).count()).toBe(0);
    expect(await page.getByText(/^Senast bekräftad/).count()).toBe(0);
    // The one primary action (the brand colour's fill): "Lägg till plats" and the place card's "Skapa quiz" are secondary.
    const filled = await next.getByRole('link').evaluate((el) => getComputedStyle(el).backgroundColor);
    const primary = await page
      .locator('main a, main button')
      .evaluateAll((els, fill) => els.filter((el) => getComputedStyle(el).backgroundColor === fill).map((el) => el.textContent), filled);
    expect(primary).toEqual(['Skapa ditt första quiz']);
    await expectAccessible(page);
    await create.click();
    await page.getByRole('heading', { name: 'Skapa quiz' }).waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('location')).toBeTruthy();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an unknown session_id on the payment return says the payment was not found', async () => {
    const { page, errors, context } = await phoneOwner(browser());
    await page.goto('/admin?payment=success&session_id=cs_finns_inte_alls');
    const dialog = page.getByRole('dialog', { name: 'Betalningen hittades inte' });
    await dialog.waitFor({ timeout: 15_000 });
    expect(await dialog.getByText('Vi hittar ingen betalning som hör till den här länken').isVisible()).toBe(true);
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Klar' }).click();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the create form shows the chosen date and time in words beside the native inputs', async () => {
    const { page, errors, context, clock } = await phoneOwner(browser(), { ...PHONE, locale: 'en-US' });
    const thisYear = Number(clock.today.slice(0, 4));
    const venue = await post(page, '/api/owner/venues', { name: `Ordpuben ${letters()}` });
    const place = await post(page, `/api/owner/venues/${venue.id}/locations`, { name: 'Ordpuben', address: 'Gatan 1', city: 'Lund' });
    await page.goto(`/admin/create-quiz?location=${place.id}`);
    await page.getByRole('heading', { name: 'Skapa quiz' }).waitFor({ timeout: 15_000 });
    // An English browser shows the native inputs its own way (11/28/2030, 7:30 PM); the words beside them are Swedish.
    const describedBy = async (label: string) => {
      const ids = (await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby')) ?? '';
      return (await Promise.all(ids.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()))).join(' ');
    };
    const start = addDays(clock.today, 3);
    await page.getByLabel('Datum', { exact: true }).fill(start);
    expect(await describedBy('Datum')).toBe(dateInWords(start, thisYear));
    expect(await describedBy('Datum')).toMatch(/^(måndag|tisdag|onsdag|torsdag|fredag|lördag|söndag) \d{1,2} [a-zåäö]+( \d{4})?$/);
    await page.getByLabel('Starttid', { exact: true }).fill('19:30');
    expect(await describedBy('Starttid')).toBe('kl 19:30');
    await page.getByRole('radio', { name: 'Till och med ett datum' }).check();
    // Next year's date carries its year.
    const until = `${thisYear + 1}-05-29`;
    await page.getByLabel('Slutdatum', { exact: true }).fill(until);
    expect(await describedBy('Slutdatum')).toBe(dateInWords(until, thisYear));
    expect(await describedBy('Slutdatum')).toMatch(new RegExp(` 29 maj ${thisYear + 1}$`));
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });
});
