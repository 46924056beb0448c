/**
 * Superadmin stories (issue 7, spec 02 §2.7): search, open a business dashboard, add a business,
 * read and handle a feedback item, import the sample CSV. Non-superadmins are sent to /admin.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loginAs, loginViaApi, registerVerifiedOwner } from './support/auth';
import type { OverviewResponse } from '../../worker/features/analytics/contract';
import { isoWeekKey } from '../../worker/features/promotion/contract';
import { addDays } from '../../worker/lib/clock';
import { displayDate } from '../../worker/lib/swedish';
import { baseURL, expectAccessible, newPage, stamp, sharedBrowser } from './support/browser';
import { appNow, appToday } from './support/clock';

const SAMPLE_CSV = fileURLToPath(new URL('../fixtures/venues-import.csv', import.meta.url));
const ADMIN = { email: 'admin@quizkvall.local', password: 'quizkvall-admin' };

describe('superadmin panel', () => {
  const browser = sharedBrowser();

  it('searches, opens a business dashboard, adds a business, reads feedback and imports the sample CSV', async () => {
    const { page, errors } = await newPage(browser());
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.goto('/superadmin');
    await page.getByRole('heading', { name: 'Superadmin' }).waitFor();
    await page.getByText(/^\d+ av \d+$/).waitFor();
    await expectAccessible(page);

    // Search: case-insensitive with å/ä/ö, 'X av Y'.
    await page.getByLabel('Sök verksamheter').fill('SÖDERS HJÄRTA');
    await expect.poll(() => page.getByText(/^\d+ av \d+$/).textContent()).toBe('1 av 1');
    const card = page.getByRole('article', { name: 'Söders Hjärta' });
    await expect.poll(() => card.getByText('Fiktiv', { exact: true }).isVisible()).toBe(true);
    await card.getByRole('button', { name: 'Visa detaljer' }).click();
    await expect.poll(() => card.getByRole('heading', { name: 'Kommande quiz' }).isVisible()).toBe(true);

    // Open the business dashboard.
    await card.getByRole('link', { name: 'Visa verksamhet' }).click();
    await page.waitForURL(/\/admin\/venue\/seed-venue-06$/);
    await page.getByRole('heading', { name: 'Söders Hjärta' }).first().waitFor();
    await page.goto('/superadmin');

    // Add a business.
    const name = `Nya Krogen ${stamp()}`;
    await page.getByRole('button', { name: 'Lägg till verksamhet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Lägg till verksamhet' });
    await dialog.getByRole('button', { name: 'Skapa verksamhet' }).click();
    await dialog.getByText('Ange ett namn').waitFor();
    await dialog.getByLabel('Namn *').fill(name);
    await dialog.getByLabel('Ägarens e-post (valfritt)').fill('blivande.agare@example.se');
    await dialog.getByText(/E-postadressen sparas/).waitFor();
    await dialog.getByRole('button', { name: 'Skapa verksamhet' }).click();
    await page.getByText('Verksamheten har skapats framgångsrikt!').waitFor();
    await page.getByLabel('Sök verksamheter').fill(name);
    const created = page.getByRole('article', { name });
    await created.waitFor();
    expect(await created.getByText('Fiktiv', { exact: true }).isVisible()).toBe(true);
    expect(await created.getByText('0 platser · 0 kommande quiz').isVisible()).toBe(true);

    // Feedback from the public form shows in the inbox, newest first, and can be marked handled.
    const title = `E2E-feedback ${stamp()}`;
    // Sent by a visitor (no session: a signed-in sender's own e-mail would replace the typed one).
    const sent = await fetch(`${baseURL()}/api/feedback`, {
      method: 'POST',
      body: JSON.stringify({ category: 'feature', title, description: 'Det vore fint med en karta.', senderEmail: 'besokare@example.se' }),
      headers: { origin: baseURL(), 'content-type': 'application/json' },
    });
    expect(sent.status).toBe(201);
    await page.getByRole('tab', { name: 'Feedback' }).click();
    const item = page.getByRole('article', { name: title });
    await item.waitFor();
    expect(await item.textContent()).toContain('Önskemål');
    expect(await item.textContent()).toContain('Det vore fint med en karta.');
    expect(await item.textContent()).toContain('besokare@example.se');
    await item.getByRole('button', { name: 'Markera som hanterad' }).click();
    await item.getByText('Hanterad', { exact: true }).waitFor();
    await expectAccessible(page);

    // Import the sample CSV: preview first (nothing stored), then confirm.
    await page.getByRole('tab', { name: 'Import' }).click();
    await page.getByLabel('CSV-fil').setInputFiles(SAMPLE_CSV);
    await page.getByText('4 rader · 4 nya · 0 dubbletter · 0 med fel').waitFor();
    expect(await page.getByRole('row').count()).toBe(5);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Importera', exact: true }).click();
    await page.getByText('4 av 4 rader (100 %)').waitFor();
    await page.getByRole('tab', { name: 'Verksamheter' }).click();
    await page.getByLabel('Sök verksamheter').fill('ankaret');
    const imported = page.getByRole('article', { name: 'Kvarterskrogen Ankaret' });
    await imported.waitFor();
    expect(await imported.getByText('Fiktiv', { exact: true }).isVisible()).toBe(true);
    expect(await imported.textContent()).toMatch(/1 plats · \d+ kommande quiz/);
    expect(errors).toEqual([]);
  });

  it('shows every business in Swedish order with Ladda fler in pages of 10', async () => {
    const { page, errors } = await newPage(browser());
    await loginViaApi(page, ADMIN.email, ADMIN.password);
    await page.goto('/superadmin');
    const counter = page.getByText(/^\d+ av \d+$/);
    await counter.waitFor();
    const [shown, total] = ((await counter.textContent()) ?? '').split(' av ').map(Number);
    expect(shown).toBe(10);
    expect(total).toBeGreaterThan(10);
    await page.getByRole('button', { name: 'Ladda fler' }).click();
    // Fewer than 20 when other stories add businesses inside the first page meanwhile (repeats are skipped).
    await expect.poll(async () => Number(((await counter.textContent()) ?? '').split(' av ')[0])).toBeGreaterThanOrEqual(15);
    const names = await page.locator('article h3 > span:first-child').allTextContents();
    expect(names.length).toBeGreaterThanOrEqual(15);
    const sorted = [...names].sort(new Intl.Collator('sv').compare);
    expect(names).toEqual(sorted);
    expect(errors).toEqual([]);
  });

  it('refreshes on focus, deletes a user with their business and deletes a business, with confirmations', async () => {
    // A fresh owner with a business (their own browser context).
    const ownerCtx = await newPage(browser());
    await registerVerifiedOwner(ownerCtx.page);
    const tag = stamp();
    const ownerVenue = `Raderaskrogen ${tag}`;
    const made = await ownerCtx.page.request.post('/api/owner/venues', { data: { name: ownerVenue }, headers: { origin: baseURL() } });
    expect(made.status()).toBe(201);
    await ownerCtx.context.close();

    const { page, errors } = await newPage(browser());
    await loginViaApi(page, ADMIN.email, ADMIN.password);
    await page.goto('/superadmin');
    await page.getByLabel('Sök verksamheter').fill(tag);
    const counter = page.getByText(/^\d+ av \d+$/);
    await expect.poll(() => counter.textContent()).toBe('1 av 1');

    // Created elsewhere; appears when the window regains focus.
    const other = `Fokuskrogen ${tag}`;
    expect((await page.request.post('/api/admin/venues', { data: { name: other }, headers: { origin: baseURL() } })).status()).toBe(201);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => counter.textContent()).toBe('2 av 2');

    // Delete the owner (a Real business): confirmation, then the user and the business are gone.
    const real = page.getByRole('article', { name: ownerVenue });
    expect(await real.getByText('Riktig', { exact: true }).isVisible()).toBe(true);
    await real.getByRole('button', { name: 'Visa detaljer' }).click();
    await real.getByRole('button', { name: 'Ta bort användare' }).click();
    const confirmUser = page.getByRole('dialog', { name: 'Ta bort användare' });
    await confirmUser.getByText(/Alla användarens verksamheter/).waitFor();
    await confirmUser.getByRole('button', { name: 'Ta bort användaren' }).click();
    await page.getByText('Användaren har tagits bort').waitFor();
    await expect.poll(() => counter.textContent()).toBe('1 av 1');

    // The superadmin's own (Dummy) business: no delete-user button; delete the business.
    const mine = page.getByRole('article', { name: other });
    await mine.getByRole('button', { name: 'Visa detaljer' }).click();
    expect(await mine.getByRole('button', { name: 'Ta bort användare' }).count()).toBe(0);
    await mine.getByRole('button', { name: 'Ta bort verksamhet' }).click();
    await page.getByRole('dialog', { name: 'Ta bort verksamhet' }).getByRole('button', { name: 'Ta bort verksamheten' }).click();
    await page.getByText('Verksamheten har tagits bort').waitFor();
    await expect.poll(() => counter.textContent()).toBe('0 av 0');
    await page.waitForURL((u) => u.pathname === '/superadmin');
    expect(errors).toEqual([]);
  });

  it("shows 'Kunde inte hämta verksamheter' and 'Sökfel' when the list cannot be loaded", async () => {
    const { page } = await newPage(browser(), { allowConsoleErrors: /status of 500/ });
    await loginViaApi(page, ADMIN.email, ADMIN.password);
    await page.route('**/api/admin/venues?*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"x"}}' }),
    );
    await page.goto('/superadmin');
    await page.getByText('Kunde inte hämta verksamheter').waitFor();
    await page.getByLabel('Sök verksamheter').fill('kvarn');
    await page.getByText('Sökfel').waitFor();
    await page.getByText('Ett fel uppstod vid sökning. Försök igen.').waitFor();
    await page.unroute('**/api/admin/venues?*');
    await page.getByRole('button', { name: 'Försök igen' }).click();
    await page.getByRole('article', { name: 'Kvarnen Quizbar' }).waitFor();
  });

  it("has an 'Att återbetala' tab listing payments to give back (issue 13.2)", async () => {
    const { page } = await newPage(browser());
    await loginViaApi(page, ADMIN.email, ADMIN.password);
    await page.goto('/superadmin');
    await page.getByRole('tab', { name: 'Att återbetala' }).click();
    await page.waitForURL((u) => u.searchParams.get('flik') === 'aterbetalningar');
    await page.getByRole('heading', { name: 'Att återbetala' }).waitFor();
    await page
      .getByText(/Inga återbetalningar\.|kräver åtgärd|Inget kräver åtgärd/)
      .first()
      .waitFor();
    await expectAccessible(page);
  });

  it("shows follow counts and dead letters in the 'Översikt' tab (read only, no addresses)", async () => {
    const { page } = await newPage(browser());
    await loginViaApi(page, ADMIN.email, ADMIN.password);
    await page.goto('/superadmin?flik=oversikt');
    await page.getByRole('heading', { name: 'Bevakningar' }).waitFor();
    await page.getByText('Bekräftade bevakningar').waitFor();
    await page.getByRole('heading', { name: 'Olevererade meddelanden' }).waitFor();
    await page
      .getByText(/Inga olevererade meddelanden\.|Försök/)
      .first()
      .waitFor();
    expect(await page.getByRole('tabpanel').textContent()).not.toMatch(/@/);
    await expectAccessible(page);
  });

  it('on a phone (issue 44.8): the tab bar wraps, no tab makes the page wider than 390 px; weeks, cities and queues read in Swedish', async () => {
    const { page, errors, context } = await newPage(browser(), { context: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } });
    await loginViaApi(page, ADMIN.email, ADMIN.password);
    // Rows with ids in them, as the API answers when there are sales and dead letters (the demo data has neither).
    const today = appToday();
    const thisYear = Number(today.slice(0, 4));
    const week = isoWeekKey(today);
    const lastYears = `${thisYear - 1}-W52`;
    const overview: OverviewResponse = {
      from: today,
      to: addDays(today, 27),
      revenue: [
        { week, citySlug: 'goteborg', amount: 9800, orders: 1 },
        { week: lastYears, citySlug: 'vasteras', amount: 4900, orders: 1 },
      ],
      occupancy: [{ citySlug: 'goteborg', date: addDays(today, 4), recommended: 2, premium: 1 }],
      topPlaces: [],
    };
    await page.route('**/api/analytics/overview', (route) => route.fulfill({ json: overview }));
    await page.route('**/api/admin/dead-letters', (route) =>
      route.fulfill({
        json: {
          deadLetters: [
            {
              id: 'dl1',
              queue: 'quizkvall-mail-dlq',
              messageId: 'm1',
              body: { type: 'digest', followId: 'f1', week },
              attempts: 5,
              reason: 'timeout',
              createdAt: appNow().toISOString(),
            },
          ],
        },
      }),
    );
    const pageWidth = () => page.evaluate(() => document.scrollingElement!.scrollWidth);
    await page.goto('/superadmin');
    const tabs = page.getByRole('tablist', { name: 'Superadmin' }).getByRole('tab');
    await page.getByText(/^\d+ av \d+$/).waitFor();
    expect(await pageWidth()).toBeLessThanOrEqual(390);
    // Every tab is on screen, none cut off or scrolled away.
    for (const tab of await tabs.all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    for (const name of ['Feedback', 'Tips', 'Import', 'Att återbetala', 'Drift', 'Översikt']) {
      await tabs.filter({ hasText: name }).click();
      await page.getByRole('tabpanel').locator('h2, p, table').first().waitFor();
      expect(await pageWidth(), name).toBeLessThanOrEqual(390);
    }

    // Översikt: "vecka 48", "Göteborg", a date in words, the queue and the message type in words.
    const panel = page.getByRole('tabpanel');
    const revenue = panel.getByRole('region', { name: 'Intäkter per vecka och stad' }).getByRole('table');
    await revenue.waitFor();
    const rows = await revenue.getByRole('row').allTextContents();
    expect(rows[1]).toContain(`vecka ${Number(week.slice(-2))}`);
    expect(rows[1]).toContain('Göteborg');
    expect(rows[2]).toContain(`vecka 52, ${thisYear - 1}`);
    expect(rows[2]).toContain('Västerås');
    expect(await panel.getByRole('region', { name: 'Beläggning per stad och dag' }).getByRole('row').nth(1).textContent()).toContain(
      displayDate(addDays(today, 4)),
    );
    await panel.getByRole('heading', { name: 'Olevererade meddelanden' }).waitFor();
    const dead = panel.getByRole('row').filter({ hasText: 'Veckosammanfattning' });
    await dead.waitFor();
    expect(await dead.textContent()).toContain('E-postkön (dead letters)');
    const text = (await panel.textContent()) ?? '';
    for (const id of [week, 'goteborg', 'vasteras', 'quizkvall-mail', 'digest', addDays(today, 4)]) expect(text, id).not.toContain(id);
    expect(await pageWidth()).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends an owner who opens /superadmin to /admin', async () => {
    const { page } = await newPage(browser());
    await loginViaApi(page, 'agare@quizkvall.local', 'quizkvall-agare');
    await page.goto('/superadmin');
    await page.waitForURL((u) => u.pathname === '/admin');
  });
});
