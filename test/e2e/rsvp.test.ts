/**
 * Issue 47 story on a phone (390 × 844): a visitor says "Vi kommer", confirms from /dev/mail and sees "1 lag
 * kommer"; the owner sets 2 tables; a second team fills them and the dialog says "Fullt"; the next team queues
 * ("Ställ dig i kö"; with the first team and two tables that is the third); a cancellation ("Vi kan inte komma")
 * offers the table to the queued team by mail (the jobs queue), who takes it. Browser clocks are pinned to the app's (support/clock.ts); the night is a week ahead.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { registerVerifiedOwner } from './support/auth';
import { baseURL, hydrated, newPage, sharedBrowser, stamp, uniqueEmail, waitForMail } from './support/browser';
import { stockholmDatePlus } from './support/clock';

const browser = sharedBrowser();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

const pathOf = (link: string) => {
  const u = new URL(link);
  return u.pathname + u.search;
};

/** Opens the night's detail dialog on the venue page and answers its "Vi kommer" figures line. */
async function openNight(page: Page, venuePath: string, title: string) {
  await page.goto(venuePath);
  await hydrated(page);
  await page.getByRole('button', { name: title, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  const figures = dialog.getByTestId('rsvp-figures');
  await figures.waitFor();
  return { dialog, figures };
}

/** A team RSVPs in the dialog with its e-mail and confirms from the mail; answers the confirmation page's heading. */
async function rsvpFromDialog(page: Page, venuePath: string, title: string, email: string, button: string): Promise<string> {
  const { dialog } = await openNight(page, venuePath, title);
  await dialog.getByLabel('E-post').fill(email);
  await dialog.getByRole('button', { name: button }).click();
  await dialog.getByText('Kolla din e-post').waitFor();
  const mail = await waitForMail(email, 'Bekräfta att ni kommer');
  expect(mail.text).toContain('Vi kan inte komma');
  await page.goto(pathOf(mail.links.find((l) => l.includes('/vi-kommer/bekrafta'))!));
  await page.getByRole('button', { name: 'Vi kommer' }).click();
  await page.getByRole('heading', { level: 1 }).waitFor();
  return (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
}

describe('"Vi kommer" on a phone (issue 47)', () => {
  it('RSVP → confirm → "1 lag kommer"; 2 tables fill → "Fullt"; the next team queues; a cancellation offers it the table', async () => {
    // The owner: a place with one quiz night a week ahead.
    const owner = await newPage(browser(), { context: PHONE });
    await registerVerifiedOwner(owner.page);
    const name = `Kömpuben ${stamp()}`;
    const reg = await owner.page.request.post('/api/owner/venues/register', {
      data: { name, address: 'Bordsgatan 1', city: 'Uppsala' },
      headers: { origin: baseURL() },
    });
    expect(reg.status(), await reg.text()).toBe(201);
    const { locationId, venue } = (await reg.json()) as { locationId: string; venue: { slug: string } };
    const created = await owner.page.request.post('/api/owner/quizzes', {
      data: { locationId, date: stockholmDatePlus(7), startTime: '19:00', category: 'allmänbildning', recurring: false },
      headers: { origin: baseURL() },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { firstId: quizId } = (await created.json()) as { firstId: string };
    const venuePath = `/quiz/uppsala/${venue.slug}`;
    // The place's one night: its row's button is named by the category (the quiz has no title).
    const rowButton = 'Allmänbildning';

    // A visitor on a phone: "Vi kommer" → confirm from /dev/mail → "1 lag kommer".
    const visitor = await newPage(browser(), { context: PHONE });
    const first = uniqueEmail('lag1');
    expect(await rsvpFromDialog(visitor.page, venuePath, rowButton, first, 'Vi kommer')).toBe('Ni är anmälda');
    expect(await (await openNight(visitor.page, venuePath, rowButton)).figures.textContent()).toBe('1 lag kommer');

    // The owner sets 2 tables on the date's edit page.
    await owner.page.goto(`/edit-quiz/${quizId}?scope=one`);
    await owner.page.getByLabel('Antal bord detta datum (tomt = ingen gräns)').fill('2');
    await owner.page.getByRole('button', { name: 'Spara antal bord' }).click();
    await expect.poll(() => owner.page.getByTestId('rsvp-owner-figures').textContent()).toContain('1 bord kvar');

    // More teams: the second fills the last table ("Fullt"), the third queues.
    const second = uniqueEmail('lag2');
    expect(await rsvpFromDialog(visitor.page, venuePath, rowButton, second, 'Vi kommer')).toBe('Ni är anmälda');
    const full = await openNight(visitor.page, venuePath, rowButton);
    expect(await full.figures.textContent()).toBe('2 lag kommer · Fullt');
    expect(await full.dialog.getByRole('button', { name: 'Ställ dig i kö' }).count()).toBe(1);
    const third = uniqueEmail('lag3');
    expect(await rsvpFromDialog(visitor.page, venuePath, rowButton, third, 'Ställ dig i kö')).toBe('Ni står i kö');
    expect(await (await openNight(visitor.page, venuePath, rowButton)).figures.textContent()).toBe('2 lag kommer · Fullt · 1 i kö');

    // The second team cannot come: one click from its mail frees the table; the queue's head is offered it by mail.
    const secondMail = await waitForMail(second, 'Bekräfta att ni kommer');
    await visitor.page.goto(pathOf(secondMail.links.find((l) => l.includes('/vi-kommer/avboka'))!));
    await visitor.page.getByRole('button', { name: 'Vi kan inte komma' }).click();
    await expect.poll(() => visitor.page.getByRole('heading', { level: 1 }).textContent()).toBe('Avbokat');
    const offer = await waitForMail(third, 'Ett bord är ledigt', 30_000);
    await visitor.page.goto(pathOf(offer.links.find((l) => l.includes('/vi-kommer/bekrafta'))!));
    await visitor.page.getByRole('button', { name: 'Ja, vi tar bordet' }).click();
    await expect.poll(() => visitor.page.getByRole('heading', { level: 1 }).textContent()).toBe('Ni är anmälda');
    expect(await (await openNight(visitor.page, venuePath, rowButton)).figures.textContent()).toBe('2 lag kommer · Fullt');

    // The owner sees the teams, the cancellation and no queue.
    await owner.page.reload();
    await expect.poll(() => owner.page.getByTestId('rsvp-owner-figures').textContent()).toContain('2 lag kommer');
    expect(visitor.errors).toEqual([]);
    expect(owner.errors).toEqual([]);
    await visitor.context.close();
    await owner.context.close();
  });
});
