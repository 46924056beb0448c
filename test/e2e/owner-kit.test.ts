/**
 * Issue 48.7 story: on a phone (390 × 844), an owner with a weekly series opens the dashboard, finds "Affischer och
 * bilder" and downloads the A4 poster. The file is a PDF whose QR code decodes to the venue page tagged
 * ?src=affisch; a visitor who scans it (opens that address) is counted as a poster visit in the owner's statistics.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, isoWeekday } from '../../worker/lib/clock';
import { pdfQrText } from '../kit-decode';
import { registerVerifiedOwner } from './support/auth';
import { baseURL, expectAccessible, newPage, sharedBrowser } from './support/browser';
import { appToday } from './support/clock';
import { STORY_TOWNS } from './support/towns';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const letters = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

async function post<T = any>(page: Page, path: string, data: unknown): Promise<T> {
  const res = await page.request.post(path, { data, headers: { origin: baseURL() } });
  if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${await res.text()}`);
  return res.json();
}

describe('owner kit', () => {
  const browser = sharedBrowser();

  it('an owner downloads the poster from the dashboard on a phone; its QR code leads to the venue page, counted as a poster visit', async () => {
    const owner = await newPage(browser(), { context: PHONE });
    const page = owner.page;
    await registerVerifiedOwner(page);
    const venueName = `Affischpuben ${letters()}`;
    const city = STORY_TOWNS.ownerKit;
    const today = appToday();
    const tuesday = addDays(today, (2 - isoWeekday(today) + 7) % 7 || 7);
    const venue = await post(page, '/api/owner/venues', { name: venueName });
    const location = await post(page, `/api/owner/venues/${venue.id}/locations`, { name: venueName, address: 'Storgatan 9', city });
    await post(page, '/api/owner/quizzes', {
      locationId: location.id,
      date: tuesday,
      startTime: '19:30',
      category: 'allmänbildning',
      price: 40,
      teamSize: 4,
      recurring: true,
      pattern: 'weekly',
      until: addDays(tuesday, 8 * 7),
    });

    await page.goto('/admin');
    const kit = page.getByRole('region', { name: 'Affischer och bilder' });
    await kit.waitFor({ timeout: 15_000 });
    expect(await kit.getByText(`Varje tisdag 19:30 · ${venueName}`).isVisible()).toBe(true);
    // The latest night's top 3 is offered only once the quiz has posted results.
    expect(await kit.getByRole('link', { name: /topp 3/ }).count()).toBe(0);
    const link = kit.getByRole('link', { name: 'Affisch A4 (PDF)' });
    await link.scrollIntoViewIfNeeded();
    await expectAccessible(page);
    const [download] = await Promise.all([page.waitForEvent('download'), link.tap()]);
    expect(download.suggestedFilename()).toBe('quizkvall-affisch.pdf');
    const bytes = new Uint8Array(await readFile((await download.path())!));
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const scanned = await pdfQrText(bytes);
    const url = new URL(scanned ?? 'about:blank');
    expect(url.pathname).toBe(`/quiz/${city.toLowerCase()}/${venue.slug}`);
    expect(url.search).toBe('?src=affisch');
    expect(owner.errors).toEqual([]);

    // A visitor scans it: the venue page on this app, counted as a visit from the poster (not the owner's own view).
    const visitor = await newPage(browser(), { context: PHONE });
    await visitor.page.goto(`${url.pathname}${url.search}`);
    await visitor.page.getByRole('heading', { level: 1, name: venueName }).waitFor();
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/analytics?venueId=${venue.id}&days=7`);
          const body = await res.json();
          return [body.totals.venue_view ?? 0, body.totals.src_affisch ?? 0];
        },
        { timeout: 30_000 },
      )
      .toEqual([1, 1]);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
    await owner.context.close();
  });
});
