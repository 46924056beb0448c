/**
 * The owner's quiz story (issue 5, spec 02 §2.2–2.6, §4.4): a new owner goes from onboarding to a
 * weekly series on two weekdays, finds it on / and on its city page, edits one occurrence, then the
 * whole series, cancels one date and sees 'Inställt' publicly, manages series on /admin/quizzes and
 * deletes the series.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, isoWeekday } from '../../worker/lib/clock';
import { displayDate } from '../../worker/lib/swedish';
import { registerVerifiedOwner } from './support/auth';
import { baseURL, expectAccessible, newPage, sharedBrowser } from './support/browser';
import { appToday, stockholmDatePlus } from './support/clock';
import { STORY_TOWNS } from './support/towns';

const visible = (page: Page, text: string | RegExp) => expect.poll(() => page.getByText(text).first().isVisible(), { timeout: 10_000 }).toBe(true);

describe('owner quizzes and series', () => {
  const browser = sharedBrowser();

  it('onboarding → weekly series on two weekdays → public → edit one → edit series → cancel a date → manage → delete', async () => {
    const { page, errors, context } = await newPage(browser());
    await registerVerifiedOwner(page);
    await page.goto('/admin');
    const suffix = Math.random().toString(36).slice(2, 8).replace(/[0-9]/g, 'x');
    const venueName = `Seriepuben ${suffix}`;
    const city = STORY_TOWNS.ownerQuizzes;
    const citySlug = city.toLowerCase();

    // A business (through the API), then its place through the dashboard.
    await page.request.post('/api/owner/venues', { data: { name: venueName }, headers: { origin: baseURL() } });
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1, name: venueName }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Lägg till plats' }).click();
    const add = page.getByRole('dialog', { name: 'Lägg till plats' });
    await add.getByRole('checkbox', { name: /Verksamheten har bara en plats/ }).check();
    await add.getByLabel('Adress').fill('Quizgatan 3');
    await add.getByLabel('Stad').fill(city);
    await add.getByRole('button', { name: 'Lägg till plats' }).click();
    await add.waitFor({ state: 'hidden' });
    const card = page.getByRole('article', { name: venueName });
    await card.waitFor();

    // Create quiz: a weekly series on Tuesday and Thursday, starting next Tuesday.
    const today = appToday();
    const tuesday = addDays(today, (2 - isoWeekday(today) + 7) % 7 || 7);
    const thursday = addDays(tuesday, 2);
    await card.getByRole('link', { name: `Skapa quiz på ${venueName}` }).click();
    await page.getByRole('heading', { name: 'Skapa quiz' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Återkommande quiz' }).isChecked()).toBe(true);
    await page.getByLabel('Datum', { exact: true }).fill(tuesday);
    expect(await page.getByRole('checkbox', { name: 'tisdag', exact: true }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: 'torsdag', exact: true }).check();
    await page.getByLabel('Starttid').fill('19:30');
    await page.getByLabel('Kategori').selectOption('tema');
    // Tema without a theme is refused on the client.
    await page.getByRole('button', { name: 'Skapa quiz' }).click();
    await visible(page, 'Välj ett tema');
    await page.getByLabel('Tema', { exact: true }).selectOption('Musik');
    await page.getByLabel('Quizmaster (valfritt)').fill('Kim Quizlund');
    await page.getByLabel('Lagstorlek (valfritt)').selectOption('4');
    await page.getByLabel('Språk').selectOption('en');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Skapa quiz' }).click();
    await visible(page, 'Quiz skapat framgångsrikt');
    await visible(page, /\d+ quiz-evenemang schemalagda!/);
    await page.waitForURL((u) => u.pathname === '/admin');

    // The place card groups the series.
    const series = card.getByRole('article', { name: /Quizserie Tema: Musik · Varje vecka · tisdag, torsdag · kl\. 19:30/ });
    await series.waitFor();
    expect(await series.getByText('Quizmaster: Kim Quizlund').isVisible()).toBe(true);
    // The owner sees the language the public sees (issue 31.3).
    expect(await series.getByText('På engelska').isVisible()).toBe(true);

    // Public: the front page (search) and the city page list it.
    await page.goto(`/?weekday=all&search=${encodeURIComponent(venueName)}`);
    await visible(page, venueName);
    await page.goto(`/quiz/${citySlug}`);
    await visible(page, venueName);

    // Edit one occurrence (Thursday): only this quiz.
    await page.goto('/admin');
    await series.getByRole('button', { name: 'Visa alla tillfällen' }).click();
    await series.getByRole('link', { name: `Redigera ${displayDate(thursday)} kl. 19:30` }).click();
    await page.getByRole('heading', { name: 'Redigera återkommande quiz' }).waitFor();
    await page.getByRole('button', { name: 'Endast detta quiz' }).click();
    await page.getByRole('heading', { name: 'Redigera quiz' }).waitFor();
    expect(await page.getByLabel('Datum', { exact: true }).inputValue()).toBe(thursday);
    await page.getByLabel('Starttid').fill('20:15');
    await page.getByRole('button', { name: 'Spara ändringar' }).click();
    await visible(page, 'Quizet har uppdaterats');
    await page.waitForURL((u) => u.pathname === '/admin');
    await series.getByRole('button', { name: 'Visa alla tillfällen' }).click();
    await series.getByRole('link', { name: `Redigera ${displayDate(thursday)} kl. 20:15` }).waitFor();
    expect(await series.getByRole('link', { name: `Redigera ${displayDate(tuesday)} kl. 19:30` }).isVisible()).toBe(true);

    // Edit the whole series: start time and price for every future occurrence.
    await series.getByRole('link', { name: 'Redigera serie' }).click();
    await page.getByRole('heading', { name: 'Redigera serie' }).waitFor();
    expect(await page.getByLabel('Quizmaster (valfritt)').inputValue()).toBe('Kim Quizlund');
    await page.getByLabel('Starttid').fill('18:45');
    await page.getByLabel('Pris i kronor (valfritt)').fill('30');
    await page.getByRole('button', { name: 'Spara serien' }).click();
    await visible(page, 'Serien har uppdaterats');
    await page.waitForURL((u) => u.pathname === '/admin');
    const editedSeries = card.getByRole('article', { name: /Quizserie .* kl\. 18:45/ });
    await editedSeries.waitFor();
    await editedSeries.getByRole('button', { name: 'Visa alla tillfällen' }).click();
    await editedSeries.getByRole('link', { name: `Redigera ${displayDate(thursday)} kl. 18:45` }).waitFor();

    // The spec's /edit-quiz/{recurrenceId} lands on the series screen at /edit-series/{recurrenceId}.
    const seriesPath = (await editedSeries.getByRole('link', { name: 'Redigera serie' }).getAttribute('href')) ?? '';
    expect(seriesPath).toMatch(/^\/edit-series\/.+/);
    await page.goto(seriesPath.replace('/edit-series/', '/edit-quiz/'));
    await page.waitForURL((u) => u.pathname === seriesPath);
    await page.getByRole('heading', { name: 'Redigera serie' }).waitFor();
    await page.goto('/admin');
    await editedSeries.getByRole('button', { name: 'Visa alla tillfällen' }).click();

    // Cancel one date (Tuesday); visitors see 'Inställt'.
    await editedSeries.getByRole('button', { name: `Ställ in ${displayDate(tuesday)} kl. 18:45` }).click();
    await visible(page, 'Quizet är inställt');
    await editedSeries.getByRole('button', { name: `Ångra inställt ${displayDate(tuesday)} kl. 18:45` }).waitFor();
    await page.goto(`/quiz/${citySlug}`);
    await visible(page, venueName);
    await visible(page, 'Inställt');

    // Quiz management lists the series as active.
    await page.goto('/admin/quizzes');
    await page.getByRole('tab', { name: 'Återkommande serier', selected: true }).waitFor();
    const managed = page.getByRole('article', { name: `Serie ${venueName} – ${venueName}` });
    await managed.waitFor();
    expect(await managed.getByText('Aktiv').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Förläng automatiskt (0)' }).isDisabled()).toBe(true);
    await managed.getByRole('button', { name: /^Förläng serien/ }).click();
    await visible(page, 'Serien sträcker sig redan 6 månader framåt');
    await page.getByRole('tab', { name: 'Enskilda quiz' }).click();
    await visible(page, 'Du har inga kommande enskilda quiz.');
    await expectAccessible(page);

    // Delete the series (with its count); it disappears from the dashboard and the city page.
    await page.goto('/admin');
    await editedSeries.getByRole('button', { name: /^Ta bort serie \(\d+\)$/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Ta bort hela serien?' });
    await confirm.waitFor();
    expect(await confirm.getByText(/kan inte ångras/).isVisible()).toBe(true);
    await confirm.getByRole('button', { name: /^Ta bort \d+ quiz$/ }).click();
    await visible(page, 'Quiz borttaget');
    await card.getByText('Inga kommande quiz på den här platsen ännu.').waitFor();
    await page.goto(`/quiz/${citySlug}`);
    await expect.poll(() => page.getByText(venueName).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('create quiz with another owner’s place: Lokal ej tillgänglig → /admin; without a place: Ingen lokal hittad', async () => {
    const { page, errors, context } = await newPage(browser());
    await registerVerifiedOwner(page);
    await page.goto('/admin/create-quiz?location=seed-loc-01');
    await visible(page, 'Lokal ej tillgänglig');
    await page.waitForURL((u) => u.pathname === '/admin');
    // Without any place: 'Ingen lokal hittad'.
    await page.goto('/create-quiz');
    await page.getByRole('heading', { name: 'Ingen lokal hittad' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
  it('single quiz → recurring series → back to single (warning with count) → pause a series → delete a quiz', async () => {
    const { page, errors, context } = await newPage(browser());
    await registerVerifiedOwner(page);
    const suffix = Math.random().toString(36).slice(2, 8);
    const name = `Enkelpuben ${suffix}`;
    const headers = { origin: baseURL() };
    const venue = await (await page.request.post('/api/owner/venues', { data: { name }, headers })).json();
    const place = await page.request.post(`/api/owner/venues/${venue.id}/locations`, {
      data: { name, address: 'Gatan 1', city: STORY_TOWNS.ownerQuizzesSingle },
      headers,
    });
    expect(place.ok()).toBe(true);
    const day = stockholmDatePlus(3);

    // A single quiz.
    await page.goto('/admin/create-quiz');
    await page.getByRole('heading', { name: 'Skapa quiz' }).waitFor();
    await page.getByRole('checkbox', { name: 'Återkommande quiz' }).uncheck();
    expect(await page.getByRole('group', { name: 'Veckodagar' }).count()).toBe(0);
    await page.getByLabel('Datum', { exact: true }).fill(day);
    await page.getByRole('button', { name: 'Skapa quiz' }).click();
    await visible(page, 'Quiz skapat framgångsrikt');
    await page.waitForURL((u) => u.pathname === '/admin');
    const card = page.getByRole('article', { name, exact: true });
    const single = card.getByRole('article', { name: `Quiz ${displayDate(day)} kl. 19:00` });
    await single.waitFor();

    // Single → recurring (weekly until four weeks later).
    await single.getByRole('link', { name: /^Redigera/ }).click();
    await page.getByRole('heading', { name: 'Redigera quiz' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('checkbox', { name: 'Återkommande quiz' }).check();
    await page.getByRole('radio', { name: 'Till och med ett datum' }).check();
    await page.getByLabel('Slutdatum').fill(addDays(day, 21));
    await page.getByRole('button', { name: 'Spara ändringar' }).click();
    await visible(page, '4 quiz-evenemang schemalagda!');
    await page.waitForURL((u) => u.pathname === '/admin');
    const series = card.getByRole('article', { name: /^Quizserie / });
    await series.waitFor();
    expect(await series.getByRole('button', { name: 'Ta bort serie (4)' }).isVisible()).toBe(true);

    // Pause the series for the 2nd and 3rd week, then undo the pause.
    await series.getByRole('button', { name: 'Pausa serie' }).click();
    const pause = page.getByRole('dialog', { name: 'Pausa serien' });
    await pause.getByLabel('Från och med').fill(addDays(day, 7));
    await pause.getByLabel('Till och med').fill(addDays(day, 14));
    await pause.getByRole('button', { name: 'Pausa', exact: true }).click();
    await visible(page, '2 quiz markerade som inställda.');
    await expectAccessible(page); // the collapsed place list (the expanded one holds the promotion panel)
    await series.getByRole('button', { name: 'Visa alla tillfällen' }).click();
    await series.getByRole('button', { name: `Ångra inställt ${displayDate(addDays(day, 7))} kl. 19:00` }).waitFor();
    await series.getByRole('button', { name: 'Pausa serie' }).click();
    await pause.getByLabel('Från och med').fill(addDays(day, 7));
    await pause.getByLabel('Till och med').fill(addDays(day, 14));
    await pause.getByRole('button', { name: 'Ångra paus' }).click();
    await visible(page, '2 quiz är åter planerade.');

    // Recurring → single: the warning counts the other 3 occurrences.
    await series.getByRole('link', { name: `Redigera ${displayDate(day)} kl. 19:00` }).click();
    await page.getByRole('button', { name: 'Endast detta quiz' }).click();
    await page.getByRole('checkbox', { name: 'Återkommande quiz' }).uncheck();
    await page.getByRole('button', { name: 'Spara ändringar' }).click();
    const warn = page.getByRole('dialog', { name: 'Gör om till enskilt quiz?' });
    await warn.getByText('De 3 andra quizen i serien tas bort.', { exact: false }).waitFor();
    await warn.getByRole('button', { name: 'Ta bort 3 quiz och spara' }).click();
    await page.waitForURL((u) => u.pathname === '/admin');
    await single.waitFor();
    expect(await card.getByRole('article', { name: /^Quizserie / }).count()).toBe(0);

    // Delete the single quiz.
    await single.getByRole('button', { name: /^Ta bort/ }).click();
    await page.getByRole('dialog', { name: 'Ta bort quiz?' }).getByRole('button', { name: 'Ta bort', exact: true }).click();
    await visible(page, 'Quiz borttaget');
    await card.getByText('Inga kommande quiz på den här platsen ännu.').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
