/**
 * Leagues (issue 46.3) on a desktop: an owner with two weekly quizzes in two towns creates a league from both
 * series on /admin/ligor, adds a season, posts tonight's results at each place, and the public /liga/{slug} shows
 * one table across both venues, linking to each venue's results page.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../worker/lib/clock';
import { registerVerifiedOwner } from './support/auth';
import { baseURL, expectAccessible, newPage, sharedBrowser } from './support/browser';
import { appToday } from './support/clock';
import { STORY_TOWNS } from './support/towns';

const letters = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

async function send<T = any>(page: Page, method: 'post' | 'put' | 'get', path: string, data?: unknown): Promise<T> {
  const res = await page.request[method](path, { ...(data === undefined ? {} : { data }), headers: { origin: baseURL() } });
  if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${await res.text()}`);
  return res.json();
}

describe('leagues: an owner makes one table of two venues', () => {
  const browser = sharedBrowser();

  it('creates the league and its season on /admin/ligor; /liga/{slug} ranks the teams of both venues', async () => {
    const { page, errors, context } = await newPage(browser(), { context: { viewport: { width: 1280, height: 900 } } });
    await registerVerifiedOwner(page);
    const suffix = letters();
    const today = appToday();
    const places: Array<{ venue: { id: string; slug: string; name: string }; placeId: string; town: string }> = [];
    for (const town of [STORY_TOWNS.leagueFirst, STORY_TOWNS.leagueSecond]) {
      const name = `Ligakrogen ${town} ${suffix}`;
      const venue = await send<{ id: string; slug: string }>(page, 'post', '/api/owner/venues', { name });
      const place = await send<{ id: string }>(page, 'post', `/api/owner/venues/${venue.id}/locations`, { name, address: 'Storgatan 1', city: town });
      await send(page, 'post', '/api/owner/quizzes', {
        locationId: place.id,
        date: today,
        startTime: '18:00',
        category: 'allmänbildning',
        recurring: true,
        pattern: 'weekly',
        until: addDays(today, 4 * 7),
      });
      places.push({ venue: { ...venue, name }, placeId: place.id, town });
    }

    const league = `Kedjeligan ${suffix}`;
    await page.goto('/admin/ligor');
    const form = page.getByRole('region', { name: 'Ny liga' });
    await form.waitFor({ timeout: 15_000 });
    await form.getByLabel('Ligans namn').fill(league);
    for (const p of places) await form.getByRole('checkbox', { name: new RegExp(p.venue.name) }).check();
    await form.getByRole('button', { name: 'Skapa liga' }).click();
    const section = page.getByRole('region', { name: league });
    await section.waitFor();
    await section.getByLabel('Säsongens namn').fill('Höstligan');
    await section.getByLabel('Startdatum').fill(addDays(today, -7));
    await section.getByLabel('Slutdatum').fill(addDays(today, 60));
    await section.getByRole('button', { name: 'Skapa säsong' }).click();
    await section.getByText('Höstligan', { exact: true }).waitFor();
    await expectAccessible(page);

    // Tonight's results at both places: Ugglorna win both nights.
    const texts = [`Ugglorna ${suffix};40\nRävarna ${suffix};30`, `Ugglorna ${suffix};35\nGrodorna ${suffix};38`];
    for (const [i, p] of places.entries()) {
      const { nights } = await send<{ nights: Array<{ quizId: string }> }>(page, 'get', `/api/owner/locations/${p.placeId}/results`);
      await send(page, 'put', `/api/owner/quizzes/${nights[0]!.quizId}/results`, { text: texts[i], acceptNew: true });
    }

    await page.goto(`/liga/kedjeligan-${suffix}`);
    await page.getByRole('heading', { level: 1, name: league }).waitFor();
    const table = page.getByRole('table', { name: 'Tabell Höstligan' });
    expect(await table.locator('tbody tr td:nth-child(2)').allTextContents()).toEqual([`Ugglorna ${suffix}`, `Grodorna ${suffix}`, `Rävarna ${suffix}`]);
    expect(await table.locator('tbody tr td:last-child').allTextContents()).toEqual(['75', '38', '30']);
    for (const p of places) {
      const link = page.getByRole('link', { name: p.venue.name });
      expect(await link.getAttribute('href')).toBe(`/quiz/${p.town.toLowerCase()}/${p.venue.slug}/resultat`);
    }
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });
});
