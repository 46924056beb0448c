/**
 * Issue 20 stories: an owner creates a weekly series across the coming Christmas on julafton's weekday
 * (three weeks either side; a Thursday in 2026) and sees julafton suggested as a skip — and nyårsafton,
 * which they keep — confirms, and the skipped date is cancelled while the series goes on; a visitor reports "Stämmer inte?" from the detail
 * dialog and the superadmin finds the report in the feedback inbox, linked to the quiz.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, isoWeekday } from '../../worker/lib/clock';
import { displayDate, WEEKDAYS } from '../../worker/lib/swedish';
import { loginViaApi, registerVerifiedOwner } from './support/auth';
import { baseURL, expectAccessible, newPage, sharedBrowser } from './support/browser';
import { appToday } from './support/clock';
import { STORY_TOWNS } from './support/towns';

const visible = (page: Page, text: string | RegExp) => expect.poll(() => page.getByText(text).first().isVisible(), { timeout: 10_000 }).toBe(true);
const ADMIN = { email: 'admin@quizkvall.local', password: 'quizkvall-admin' };
/**
 * The series of the story, from the app's pinned day (support/clock.ts): weekly on julafton's weekday from
 * three weeks before the first julafton that is more than three weeks away to three weeks after it — seven
 * dates, of which julafton and nyårsafton (a week later, the same weekday) are the only holidays, in any year.
 */
function christmasSeries(today: string) {
  const thisYear = Number(today.slice(0, 4));
  const year = addDays(`${thisYear}-12-24`, -21) > today ? thisYear : thisYear + 1;
  const julafton = `${year}-12-24`;
  const nyarsafton = `${year}-12-31`;
  const weekday = WEEKDAYS.find((w) => w.iso === isoWeekday(julafton))!.name;
  const label = (date: string) => `${displayDate(date)} ${date.slice(0, 4)}`;
  return {
    start: addDays(julafton, -21),
    end: addDays(julafton, 21),
    julafton,
    nyarsafton,
    weekday,
    julaftonLabel: label(julafton),
    nyarsaftonLabel: label(nyarsafton),
  };
}
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('Swedish holidays in series and "Stämmer inte?"', () => {
  const browser = sharedBrowser();

  it('owner: weekly series across Christmas → julafton suggested as a skip, confirmed → cancelled; a report reaches the superadmin inbox', async () => {
    const { page, errors } = await newPage(browser());
    const xmas = christmasSeries(appToday());
    await registerVerifiedOwner(page);
    const suffix = Math.random().toString(36).slice(2, 8).replace(/[0-9]/g, 'x');
    const venueName = `Julpuben ${suffix}`;
    const city = STORY_TOWNS.holidays;
    const made = await page.request.post('/api/owner/venues/register', {
      data: { name: venueName, address: 'Tomtegatan 1', city },
      headers: { origin: baseURL() },
    });
    expect(made.status()).toBe(201);
    const places = await (await page.request.get('/api/owner/quiz-places')).json();
    const place = places.places.find((p: { city: string }) => p.city === city);

    await page.goto(`/create-quiz?location=${place.id}`);
    await page.getByRole('heading', { name: 'Skapa quiz' }).waitFor();
    await page.getByLabel('Datum', { exact: true }).fill(xmas.start);
    expect(await page.getByRole('checkbox', { name: xmas.weekday, exact: true }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'Till och med ett datum' }).check();
    await page.getByLabel('Slutdatum').fill(xmas.end);

    // The holiday dates of the series, the eves pre-selected; julafton's neighbours (juldagen, annandag jul) are not Thursdays.
    const julafton = page.getByRole('checkbox', { name: new RegExp(`Hoppa över Julafton \\(${escapeRegExp(xmas.julaftonLabel)}\\)`) });
    await julafton.waitFor({ timeout: 10_000 });
    expect(await julafton.isChecked()).toBe(true);
    const nyarsafton = page.getByRole('checkbox', { name: new RegExp(`Hoppa över Nyårsafton \\(${escapeRegExp(xmas.nyarsaftonLabel)}\\)`) });
    expect(await nyarsafton.isChecked()).toBe(true);
    // The preview follows the form (first the default 180 days, then up to the end date): wait for it to settle.
    await expect.poll(() => page.getByRole('checkbox', { name: /Hoppa över/ }).count()).toBe(2);
    await nyarsafton.uncheck(); // they do run on nyårsafton
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Skapa quiz' }).click();
    await visible(page, '7 quiz-evenemang schemalagda!');
    await page.waitForURL((u) => u.pathname === '/admin');

    // Stored: julafton cancelled, nyårsafton kept, the series intact.
    const list = await (await page.request.get('/api/owner/series')).json();
    const series = list.series.find((s: { locationId: string }) => s.locationId === place.id);
    expect(series.count).toBe(7);
    await page.goto(`/edit-series/${series.recurrenceId}`);
    const panel = page.getByRole('region', { name: 'Helgdagar' });
    await panel.getByRole('checkbox', { name: /Julafton/ }).waitFor();
    expect(await panel.getByRole('checkbox', { name: /Julafton/ }).isChecked()).toBe(true);
    expect(await panel.getByRole('checkbox', { name: /Nyårsafton/ }).isChecked()).toBe(false);
    await panel.getByText(/^Senast bekräftad /).waitFor();
    const holidays = await (await page.request.get(`/api/owner/series/${series.recurrenceId}/holidays`)).json();
    expect(holidays.holidays.map((h: { date: string; isCancelled: boolean; decision: string }) => [h.date, h.isCancelled, h.decision])).toEqual([
      [xmas.julafton, true, 'skip'],
      [xmas.nyarsafton, false, 'run'],
    ]);
    expect(errors).toEqual([]);

    // A visitor reports wrong information from the detail dialog.
    const visitor = await newPage(browser());
    await visitor.page.goto(`/quiz/${city.toLowerCase()}`);
    await visitor.page
      .getByRole('button', { name: `Visa detaljer om ${venueName}` })
      .first()
      .click();
    const dialog = visitor.page.getByRole('dialog', { name: venueName });
    await dialog.getByText(/^Senast bekräftad /).waitFor();
    await dialog.getByRole('button', { name: 'Stämmer inte?' }).click();
    await dialog.getByRole('radio', { name: 'Fel dag eller tid' }).check();
    await dialog.getByLabel('Berätta gärna mer (valfritt)').fill('De kör på onsdagar nu.');
    await dialog.getByRole('button', { name: 'Skicka rapport' }).click();
    await visible(visitor.page, 'Tack! Vi tittar på det.');
    expect(visitor.errors).toEqual([]);

    // The superadmin's inbox has it, labelled and linked to the quiz's page.
    const admin = await newPage(browser());
    await loginViaApi(admin.page, ADMIN.email, ADMIN.password);
    await admin.page.goto('/superadmin');
    await admin.page.getByRole('tab', { name: 'Feedback' }).click();
    const item = admin.page.getByRole('article', { name: new RegExp(`^Stämmer inte: Fel dag eller tid – ${venueName}`) });
    await item.waitFor();
    const text = (await item.textContent()) ?? '';
    expect(text).toContain('Stämmer inte?');
    expect(text).toContain('De kör på onsdagar nu.');
    expect(text).toContain(`/quiz/${city.toLowerCase()}/`);
    expect(admin.errors).toEqual([]);
  });
});
