/**
 * Results (issue 46) on a phone (390 × 844) and on a desktop: an owner posts tonight's results through the paste
 * box; the public results page shows the ranks with the tie (1, 2, 2, 4) and the team's page lists the night.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../worker/lib/clock';
import { displayDate } from '../../worker/lib/swedish';
import { registerVerifiedOwner } from './support/auth';
import { baseURL, expectAccessible, newPage, sharedBrowser } from './support/browser';
import { appToday } from './support/clock';
import { STORY_TOWNS } from './support/towns';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 900 } };

const letters = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

async function post<T = any>(page: Page, path: string, data: unknown): Promise<T> {
  const res = await page.request.post(path, { data, headers: { origin: baseURL() } });
  if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${await res.text()}`);
  return res.json();
}

describe('results: an owner posts a night, the public pages show it', () => {
  const browser = sharedBrowser();

  for (const [label, device, town] of [
    ['phone', PHONE, STORY_TOWNS.resultsPhone],
    ['desktop', DESKTOP, STORY_TOWNS.resultsDesktop],
  ] as const) {
    it(`${label}: paste box → ranks with a tie on /quiz/{stad}/{ställe}/resultat → the team's page lists the night`, async () => {
      const { page, errors, context } = await newPage(browser(), { context: device });
      await registerVerifiedOwner(page);
      const suffix = letters();
      const venueName = `Resultatkrogen ${suffix}`;
      const venue = await post<{ id: string; slug: string }>(page, '/api/owner/venues', { name: venueName });
      const place = await post<{ id: string }>(page, `/api/owner/venues/${venue.id}/locations`, { name: venueName, address: 'Storgatan 1', city: town });
      const today = appToday();
      await post(page, '/api/owner/quizzes', { locationId: place.id, date: today, recurring: false, startTime: '18:00', category: 'allmänbildning' });

      // The dashboard's place card → the place's results screen → tonight has no results yet.
      await page.goto('/admin');
      await page.getByRole('link', { name: `Resultat på ${venueName}` }).click();
      await page.getByRole('heading', { level: 1, name: 'Resultat' }).waitFor();
      const missing = page.getByRole('region', { name: /Kvällar utan resultat/ });
      await missing.getByRole('button', { name: `Resultat ${displayDate(today)}` }).click();
      const box = page.getByLabel('Ett lag per rad: Lagnamn;poäng');
      await box.waitFor();
      await expectAccessible(page);

      // A bad line first: refused with the line named, nothing stored.
      await box.fill(`Ugglorna ${suffix};42\nRävarna ${suffix}`);
      await page.getByRole('button', { name: 'Spara resultat' }).click();
      await expect.poll(() => page.getByText(`Rad 2: poäng saknas för ”Rävarna ${suffix}”`).first().isVisible(), { timeout: 10_000 }).toBe(true);

      await box.fill(`Ugglorna ${suffix};42\nRävarna ${suffix}\t40\nGrävlingarna ${suffix} 40\nMårdarna ${suffix};31,5`);
      await page.getByRole('button', { name: 'Spara resultat' }).click();
      const saved = page.getByRole('table', { name: 'Sparat resultat' });
      await saved.waitFor({ timeout: 15_000 });
      const ranks = await saved.locator('tbody tr td:first-child').allTextContents();
      expect(ranks).toEqual(['1', '2', '2', '4']);

      // The public results page: podium 1, 2, 2; the whole night 1, 2, 2, 4.
      const citySlug = town.toLowerCase();
      await page.goto(`/quiz/${citySlug}/${venue.slug}/resultat`);
      await page.getByRole('heading', { level: 1, name: `Resultat – ${venueName}` }).waitFor();
      const podium = page.getByRole('region', { name: /Senaste kvällen/ });
      expect(await podium.locator('li p:first-child').allTextContents()).toEqual(['1', '2', '2']);
      await expectAccessible(page);
      await page.getByRole('link', { name: /Hela resultatet/ }).click();
      const night = page.getByRole('table', { name: `Resultat ${today}` });
      await night.waitFor();
      expect(await night.locator('tbody tr td:first-child').allTextContents()).toEqual(['1', '2', '2', '4']);

      // The team's page lists the night at this venue.
      await night.getByRole('link', { name: `Grävlingarna ${suffix}` }).click();
      await page.getByRole('heading', { level: 1, name: `Grävlingarna ${suffix}` }).waitFor();
      const row = page.getByRole('row', { name: new RegExp(venueName) });
      await row.waitFor();
      expect(await row.locator('td').allTextContents()).toEqual([displayDate(today), `${venueName}, ${town}`, '2', '40']);
      await expectAccessible(page);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("a series' season: a date range the wrong way round is refused in the browser with the field named; a right one is listed", async () => {
    const { page, errors, context } = await newPage(browser(), { context: PHONE });
    await registerVerifiedOwner(page);
    const venueName = `Säsongskrogen ${letters()}`;
    const venue = await post<{ id: string }>(page, '/api/owner/venues', { name: venueName });
    const place = await post<{ id: string }>(page, `/api/owner/venues/${venue.id}/locations`, {
      name: venueName,
      address: 'Storgatan 2',
      city: STORY_TOWNS.resultsPhone,
    });
    const today = appToday();
    const series = await post<{ recurrenceId: string }>(page, '/api/owner/quizzes', {
      locationId: place.id,
      date: today,
      recurring: true,
      pattern: 'weekly',
      until: addDays(today, 70),
      startTime: '19:00',
      category: 'allmänbildning',
    });
    await page.goto(`/edit-series/${series.recurrenceId}`);
    const form = page.getByRole('form', { name: 'Ny säsong' });
    await form.waitFor({ timeout: 15_000 });
    await form.getByLabel('Säsongens namn').fill('Vårsäsongen');
    await form.getByLabel('Startdatum').fill(addDays(today, 30));
    await form.getByLabel('Slutdatum').fill(today);
    await form.getByRole('button', { name: 'Skapa säsong' }).click();
    await expect.poll(() => form.getByText('Slutdatum: får inte vara före startdatum').isVisible()).toBe(true);
    await form.getByLabel('Slutdatum').fill(addDays(today, 90));
    await form.getByRole('button', { name: 'Skapa säsong' }).click();
    await page.getByRole('region', { name: 'Säsonger och tabeller' }).getByText('Vårsäsongen').waitFor({ timeout: 15_000 });
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });
});
