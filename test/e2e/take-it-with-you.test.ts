/**
 * Take it with you (issue 16): add to calendar downloads an .ics, "Prenumerera i kalendern" shows the
 * webcal:// and https:// links, "Dela" copies the link in desktop Chromium, and the owner dashboard's
 * embed snippet renders its live preview.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { registerVerifiedOwner } from './support/auth';
import { baseURL, expectAccessible, hydrated, newPage, sharedBrowser } from './support/browser';
import { stockholmDatePlus } from './support/clock';
import { STORY_TOWNS } from './support/towns';

/** A signed-in owner with a public business, one place and a weekly quiz starting in two days. */
async function ownerWithQuiz(page: Page) {
  await registerVerifiedOwner(page);
  const tag = Math.random().toString(36).slice(2, 8).replace(/[0-9]/g, 'x');
  const name = `Kalenderpuben ${tag}`;
  const city = STORY_TOWNS.takeItWithYou;
  const headers = { origin: baseURL() };
  const reg = await page.request.post('/api/owner/venues/register', { headers, data: { name, address: 'Kalendergatan 2', city } });
  expect(reg.status(), await reg.text()).toBe(201);
  const { venue, locationId } = (await reg.json()) as { venue: { id: string; slug: string }; locationId: string };
  const quiz = await page.request.post('/api/owner/quizzes', {
    headers,
    data: {
      locationId,
      date: stockholmDatePlus(2),
      startTime: '19:30',
      category: 'allmänbildning',
      quizmaster: 'Ada',
      teamSize: 6,
      price: 40,
      recurring: true,
      pattern: 'weekly',
    },
  });
  expect(quiz.status(), await quiz.text()).toBe(201);
  return { name, citySlug: city.toLowerCase(), venueSlug: venue.slug };
}

describe('take it with you', () => {
  const browser = sharedBrowser();

  it('venue page: add to calendar downloads an .ics, Google Kalender link, subscribe links, Dela copies the link', async () => {
    const { page, errors, context } = await newPage(browser());
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL() });
    const w = await ownerWithQuiz(page);
    await context.clearCookies(); // the visitor's view
    const venuePath = `/quiz/${w.citySlug}/${w.venueSlug}`;
    await page.goto(venuePath);
    await hydrated(page);
    await expectAccessible(page);

    // Lägg till i kalender → the .ics file of that date.
    const menu = page.locator('details').filter({ hasText: 'Lägg till i kalender' }).first();
    await menu.locator('summary').click();
    const [download] = await Promise.all([page.waitForEvent('download'), menu.getByRole('link', { name: 'Kalenderfil (.ics)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.ics$/);
    const file = await download.path();
    const text = (await import('node:fs')).readFileSync(file!, 'utf8');
    expect(text).toContain('BEGIN:VCALENDAR');
    expect(text).toContain(`SUMMARY:Pubquiz på ${w.name}`);
    const google = new URL((await menu.getByRole('link', { name: 'Google Kalender' }).getAttribute('href'))!);
    expect(google.hostname).toBe('calendar.google.com');
    expect(google.searchParams.get('text')).toBe(`Pubquiz på ${w.name}`);
    expect(google.searchParams.get('details')).toContain(`${baseURL()}${venuePath}`);

    // Prenumerera i kalendern: webcal:// and a copyable https:// address of the venue feed.
    await page.getByRole('button', { name: 'Prenumerera i kalendern' }).click();
    const panel = page.getByRole('group', { name: 'Prenumerera i kalendern' });
    const webcal = (await panel.getByRole('link', { name: 'Öppna i kalenderappen' }).getAttribute('href'))!;
    const feed = `/api/calendar/venue/${w.citySlug}/${w.venueSlug}.ics`;
    expect(webcal).toBe(`webcal://${new URL(baseURL()).host}${feed}`);
    expect(await panel.getByLabel('Eller kopiera adressen').inputValue()).toBe(`${baseURL()}${feed}`);
    const res = await page.request.get(feed);
    expect(res.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });

    // Dela: desktop Chromium copies the link and says so.
    await page.getByRole('button', { name: 'Dela', exact: true }).click();
    await page.getByText('Länk kopierad').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL()}${venuePath}`);

    // The detail dialog offers the same.
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.getByRole('button', { name: 'Allmänbildning' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Lägg till i kalender').waitFor();
    await dialog.getByRole('button', { name: 'Dela', exact: true }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL()}${venuePath}`);
    expect(errors).toEqual([]);
  });

  it('city and combined pages show "Prenumerera i kalendern" with both links', async () => {
    const { page, errors } = await newPage(browser());
    for (const [path, feed] of [
      ['/quiz/stockholm', '/api/calendar/city/stockholm.ics'],
      ['/quiz/stockholm/tisdag', '/api/calendar/city/stockholm/tisdag.ics'],
      ['/quiz/tisdag', '/api/calendar/listing.ics?weekday=tisdag'],
    ] as const) {
      await page.goto(path);
      await hydrated(page);
      await page.getByRole('button', { name: 'Prenumerera i kalendern' }).click();
      const panel = page.getByRole('group', { name: 'Prenumerera i kalendern' });
      expect(await panel.getByRole('link', { name: 'Öppna i kalenderappen' }).getAttribute('href'), path).toBe(`webcal://${new URL(baseURL()).host}${feed}`);
      expect(await panel.getByLabel('Eller kopiera adressen').inputValue(), path).toBe(`${baseURL()}${feed}`);
      const res = await page.request.get(feed);
      expect(res.status(), feed).toBe(200);
    }
    expect(errors).toEqual([]);
  });

  it('owner dashboard shows the embed snippet with a live preview', async () => {
    const { page, errors } = await newPage(browser());
    const w = await ownerWithQuiz(page);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Visa era quiz på er egen webbplats' }).waitFor({ timeout: 15_000 });
    const code = page.getByLabel('Kod att klistra in');
    expect(await code.inputValue()).toContain(`<iframe src="${baseURL()}/embed/${w.citySlug}/${w.venueSlug}"`);
    const preview = page.frameLocator(`iframe[title="Förhandsvisning: quiz på ${w.name}"]`);
    await preview.getByRole('heading', { name: `Quiz på ${w.name}` }).waitFor();
    expect(await preview.getByRole('listitem').count()).toBe(5);
    await page.getByLabel('Mörkt tema').check();
    expect(await code.inputValue()).toContain(`/embed/${w.citySlug}/${w.venueSlug}?theme=dark`);
    await preview.getByRole('heading', { name: `Quiz på ${w.name}` }).waitFor();
    expect(errors).toEqual([]);
  });
});
