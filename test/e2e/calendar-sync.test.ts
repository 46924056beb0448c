/**
 * Calendar sync (issue 31.2): an ICS feed served by a local test server (allowed in development) becomes
 * quizzes on a place, and stays in sync after an edit, a removal and an EXDATE ("Synka nu").
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerVerifiedOwner } from './support/auth';
import { baseURL, expectAccessible, newPage, stamp, sharedBrowser } from './support/browser';
import { stockholmDatePlus } from './support/clock';
import { shortDate } from '../../worker/lib/swedish';

const compact = (date: string) => date.replaceAll('-', '');
let feed = '';
let server: Server;
let feedUrl = '';

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' });
    res.end(feed);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/quiz.ics`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const calendar = (...events: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//e2e//SV', ...events, 'END:VCALENDAR'].join('\r\n');
const event = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'].join('\r\n');

describe('calendar sync for owners', () => {
  const browser = sharedBrowser();

  it('a feed becomes quizzes on a place and stays in sync after an edit, a removal and an EXDATE', async () => {
    const [d1, d2, d3, d4, single] = [1, 8, 15, 22, 3].map((n) => stockholmDatePlus(n));
    const weekly = (time: string, ...extra: string[]) =>
      event('UID:veckoquiz@e2e', 'SUMMARY:Veckoquiz', `DTSTART;TZID=Europe/Stockholm:${compact(d1!)}T${time}`, 'RRULE:FREQ=WEEKLY;COUNT=4', ...extra);
    feed = calendar(weekly('190000'), event('UID:special@e2e', 'SUMMARY;LANGUAGE=en:Specialquiz', `DTSTART;TZID=Europe/Stockholm:${compact(single!)}T180000`));

    const { page, errors } = await newPage(browser());
    await registerVerifiedOwner(page);
    const name = `Kalenderpuben ${stamp()}`;
    const reg = await page.request.post('/api/owner/venues/register', {
      data: { name, address: 'Kalendergatan 1', city: 'Uppsala' },
      headers: { origin: baseURL() },
    });
    expect(reg.status(), await reg.text()).toBe(201);
    const { locationId } = (await reg.json()) as { locationId: string };
    await page.goto('/admin');
    const card = page.getByRole('article', { name });
    await card.waitFor({ timeout: 15_000 });

    // The card has settled (its quiz list loaded): a click is not aimed at a button that is still moving.
    await expect.poll(() => card.getByRole('status').count(), { timeout: 15_000 }).toBe(0);
    // Preview first: what would become quizzes; nothing is stored yet.
    await card.getByRole('button', { name: `Lägg till kalender för ${name}` }).click();
    await card.getByLabel('Kalenderadress (ICS)').fill(feedUrl);
    await card.getByRole('button', { name: 'Förhandsgranska' }).click();
    const events = card.getByRole('list', { name: 'Händelser som blir quiz' });
    await events.waitFor();
    expect(await events.getByRole('listitem').count()).toBe(2);
    expect(await events.getByText(/Veckoquiz – Varje vecka/).isVisible()).toBe(true);
    // Swedish dates ("3 dec", the year only when it is another) and the language the sync read (issue 44.5, 44.9).
    const thisYear = Number(stockholmDatePlus(0).slice(0, 4));
    const items = await events.getByRole('listitem').allTextContents();
    expect(items.find((t) => t.startsWith('Veckoquiz'))).toContain(`från ${shortDate(d1!, thisYear)} (4 st)På svenska`);
    expect(items.find((t) => t.startsWith('Specialquiz'))).toContain(`Specialquiz – ${shortDate(single!, thisYear)} kl. 18:00 (1 st)På engelska`);
    for (const t of items) expect(t).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    await expectAccessible(page);
    const quizzes = async () => {
      const res = await page.request.get(`/api/owner/locations/${locationId}/quizzes`);
      const body = (await res.json()) as { singles: Q[]; series: { occurrences: Q[] }[] };
      return [...body.singles, ...body.series.flatMap((s) => s.occurrences)].map((q) => [q.date, q.startTime, q.isCancelled]).sort();
    };
    type Q = { date: string; startTime: string; isCancelled: boolean };
    expect(await quizzes()).toEqual([]);

    // Accept: the quizzes are there, and the place shows the last sync.
    await card.getByRole('button', { name: 'Synka kalendern' }).click();
    const status = card.getByTestId('calendar-sync-status');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/5 nya, 0 ändrade, 0 inställda/);
    expect(await quizzes()).toEqual(
      [
        [d1, '19:00:00', false],
        [d2, '19:00:00', false],
        [d3, '19:00:00', false],
        [d4, '19:00:00', false],
        [single, '18:00:00', false],
      ].sort(),
    );

    // The calendar changes: every week at 20:00 instead, one week skipped (EXDATE), the special quiz removed.
    feed = calendar(weekly('200000', `EXDATE;TZID=Europe/Stockholm:${compact(d2!)}T200000`));
    await card.getByRole('button', { name: 'Synka nu' }).click();
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/0 nya, 3 ändrade, 2 inställda/);
    expect(await quizzes()).toEqual(
      [
        [d1, '20:00:00', false],
        [d2, '19:00:00', true],
        [d3, '20:00:00', false],
        [d4, '20:00:00', false],
        [single, '18:00:00', true],
      ].sort(),
    );
    expect(errors).toEqual([]);
  }, 120_000);
});
