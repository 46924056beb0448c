/**
 * Quiz filters (issue 20 item 1) as a visitor uses them, against the seeded demo app: "Gratis" +
 * "Musik" in the filter panel gives only free music quizzes — with JavaScript (the listing refetches,
 * the URL follows) and without (a plain GET form, server-rendered).
 */
import { describe, expect, it } from 'vitest';
import { COUNT_LINE, expectAccessible, hydrated, newPage, shown, uniqueEmail, sharedBrowser, waitForMail } from './support/browser';

/** The count line in any of its forms: exact, a lower bound, or "there are more" (a filtered listing is not counted). */
const anyCountLine = /Visar \d+ (av (minst )?\d+ quiz|quiz – det finns fler)/;

async function countText(page: import('playwright-core').Page): Promise<string> {
  return (await page.getByText(anyCountLine).first().textContent()) ?? '';
}

/** Every card on the page is free (its price "Gratis"). */
async function onlyFree(page: import('playwright-core').Page) {
  const cards = page.locator('article[data-quiz-id]');
  await expect.poll(() => cards.count(), { timeout: 15_000 }).toBeGreaterThan(0);
  for (const text of await cards.allTextContents()) expect(text).toContain('Gratis');
}

/** Every card on the page is free and a music quiz (its badge "Tema: Musik", its price "Gratis"). */
async function onlyFreeMusic(page: import('playwright-core').Page) {
  const cards = page.locator('article[data-quiz-id]');
  await expect.poll(() => cards.count(), { timeout: 15_000 }).toBeGreaterThan(0);
  for (const text of await cards.allTextContents()) {
    expect(text).toContain('Gratis');
    expect(text).toContain('Musik');
  }
  return cards.count();
}

describe('quiz filters', () => {
  const browser = sharedBrowser();

  it('a visitor picks "Gratis" and "Musik" and gets only free music quizzes; the URL keeps the filters', async () => {
    const { page, errors, context } = await newPage(browser());
    await page.goto('/?weekday=all');
    await hydrated(page);
    await expect.poll(async () => (await shown(page))[1], { timeout: 15_000 }).toBeGreaterThan(12);
    const everything = await countText(page);

    // A quiz filter has no kept total: the line says "det finns fler" (or an exact count when it all fits one page).
    await page.getByLabel('Pris').selectOption({ label: 'Gratis' });
    await page.waitForURL((u) => u.searchParams.get('price') === 'gratis');
    await expect.poll(() => countText(page), { timeout: 15_000 }).not.toBe(everything);
    await onlyFree(page);
    const free = await countText(page);
    await page.getByLabel('Kategori').selectOption({ label: 'Musik' });
    await page.waitForURL((u) => u.searchParams.get('category') === 'musik' && u.searchParams.get('price') === 'gratis');
    await expect.poll(() => countText(page), { timeout: 15_000 }).not.toBe(free);
    const n = await onlyFreeMusic(page);
    expect((await shown(page))[1]).toBe(n);
    await expectAccessible(page);

    // Reloading the shared URL renders the answer on the server, with the selects set: only free music quizzes, as many
    // as its count line says. (Not "the same n": this listing spans every city, and stories running beside this one
    // create and delete free music quizzes in their own cities — a run read 4, then 3 after the reload.)
    await page.reload();
    await hydrated(page);
    expect(await page.getByLabel('Pris').inputValue()).toBe('gratis');
    expect(await page.getByLabel('Kategori').inputValue()).toBe('musik');
    const reloaded = await onlyFreeMusic(page);
    expect((await shown(page))[1]).toBe(reloaded);

    // Following this search keeps its filters: the dialog names them, the confirmation mail too.
    await page.getByRole('button', { name: 'Bevaka den här sökningen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bevaka sökningen' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Gratis · Musik');
    const email = uniqueEmail('filterbevakning');
    await dialog.getByLabel('E-post').fill(email);
    await dialog.getByRole('button', { name: 'Bevaka', exact: true }).click();
    await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: 15_000 }).toContain('Kolla din e-post');
    expect((await waitForMail(email, 'Bekräfta')).text).toContain('Gratis · Musik');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // "Alla priser" takes the price filter away again.
    await page.getByLabel('Pris').selectOption({ label: 'Alla priser' });
    await page.waitForURL((u) => !u.searchParams.has('price') && u.searchParams.get('category') === 'musik');
    await expect.poll(() => page.locator('article[data-quiz-id]').count(), { timeout: 15_000 }).toBeGreaterThan(n);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("on a city page the hero's calendar subscription follows a filter picked in the listing, without a reload", async () => {
    const { page, errors, context } = await newPage(browser());
    await page.goto('/quiz/uppsala');
    await hydrated(page);
    const address = async () => {
      await page.getByRole('button', { name: 'Prenumerera i kalendern' }).click();
      const value = await page.getByLabel('Eller kopiera adressen').inputValue();
      await page.keyboard.press('Escape');
      return value;
    };
    expect(await address()).toMatch(/\/api\/calendar\/city\/uppsala\.ics$/);
    const before = await countText(page);
    await page.getByLabel('Pris').selectOption({ label: 'Gratis' });
    await page.waitForURL((u) => u.searchParams.get('price') === 'gratis');
    await expect.poll(() => countText(page), { timeout: 15_000 }).not.toBe(before);
    await onlyFree(page);
    expect(await address()).toMatch(/\/api\/calendar\/listing\.ics\?city=uppsala&price=gratis$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('without JavaScript the same filters work through the plain form and on a city page URL', async () => {
    const { page, errors, context } = await newPage(browser(), { javaScriptEnabled: false });
    await page.goto('/?weekday=all');
    await page.getByLabel('Pris').selectOption('gratis');
    await page.getByLabel('Kategori').selectOption('musik');
    await page.getByRole('button', { name: 'Filtrera' }).click();
    await page.waitForURL((u) => u.searchParams.get('price') === 'gratis' && u.searchParams.get('category') === 'musik');
    const n = await onlyFreeMusic(page);
    expect(await page.getByText(COUNT_LINE).textContent()).toContain(`av ${n} quiz`);
    // A city page reads the same parameters; a bad one is ignored with a notice, not an error.
    await page.goto('/quiz/uppsala?price=gratis&category=musik&team=99');
    await onlyFreeMusic(page);
    expect(await page.getByText('Några filter kunde inte användas och visas inte: Lagstorlek.').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Språk = Engelska on a city page keeps the English quizzes (and those in both languages), each with its badge', async () => {
    const { page, errors, context } = await newPage(browser());
    await page.goto('/quiz/stockholm');
    await hydrated(page);
    const before = await countText(page);
    await page.getByLabel('Språk').selectOption({ label: 'Engelska' });
    await page.waitForURL((u) => u.searchParams.get('sprak') === 'engelska');
    await expect.poll(() => countText(page), { timeout: 15_000 }).not.toBe(before);
    const cards = page.locator('article[data-quiz-id]');
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // The demo's English quiz night in Stockholm (worker/db/seed.ts DEMO_QUIZ_LANGUAGES) is listed with "På engelska".
    // (Its series card; a single "Specialquiz" there may be listed too, in English as well.)
    const liffey = cards.filter({ has: page.getByRole('button', { name: 'The Liffey', exact: true }) });
    await expect.poll(() => liffey.count(), { timeout: 15_000 }).toBe(1);
    expect(await liffey.textContent()).toContain('På engelska');
    for (const text of await cards.allTextContents()) expect(text).toMatch(/På engelska|Svenska och engelska/);
    // The detail dialog shows the badge too.
    await liffey.getByRole('button', { name: 'The Liffey', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'The Liffey' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('På engelska');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expectAccessible(page);
    // The shared URL renders the same on the server, with the select set.
    await page.reload();
    await hydrated(page);
    expect(await page.getByLabel('Språk').inputValue()).toBe('engelska');
    expect(
      await page
        .locator('article[data-quiz-id]')
        .filter({ has: page.getByRole('button', { name: 'The Liffey', exact: true }) })
        .count(),
    ).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the venue page shows the language badge on every row that has one (issue 44.5)', async () => {
    const { page, errors, context } = await newPage(browser());
    // The demo's English quiz night (worker/db/seed.ts DEMO_QUIZ_LANGUAGES): every row of its venue page says so.
    await page.goto('/quiz/stockholm/the-liffey');
    await hydrated(page);
    const rows = page.locator('li[id^="quiz-"]');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    for (const text of await rows.allTextContents()) expect(text).toContain('På engelska');
    // A Swedish quiz night shows none.
    await page.goto('/quiz/stockholm/kvarnen-quizbar');
    await hydrated(page);
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    for (const text of await rows.allTextContents()) expect(text).not.toMatch(/På engelska|Svenska och engelska/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
