/**
 * "Tipsa om ett quiz" (issue 31.1): a visitor finds the form from the footer, gets the shared contract's
 * Swedish messages, sends a tip; the superadmin sees "1 tips väntar"-style count in the Tips tab and
 * publishes it; the place then shows on its city page. Runs on the shared e2e app (real clock): the tip
 * is a weekly quiz, so nothing here depends on today's date.
 */
import { describe, expect, it } from 'vitest';
import { loginAs } from './support/auth';
import { baseURL, expectAccessible, hydrated, newPage, stamp, sharedBrowser, waitForMail } from './support/browser';
import { STORY_TOWNS } from './support/towns';

const ADMIN = { email: 'admin@quizkvall.local', password: 'quizkvall-admin' };

describe('tipsa om ett quiz', () => {
  const browser = sharedBrowser();

  it('a visitor tips, the superadmin publishes, the city page lists it and the tipster gets one mail', async () => {
    const id = stamp();
    const venue = `Tipsade Krogen ${id}`;
    const city = STORY_TOWNS.tips;
    const email = `tipsare-${id}@test.local`;

    const { page: visitor, errors } = await newPage(browser());
    await visitor.goto('/');
    await hydrated(visitor);
    await visitor.getByRole('contentinfo').getByRole('link', { name: 'Tipsa om ett quiz' }).click();
    await visitor.getByRole('heading', { name: 'Tipsa om ett quiz' }).waitFor();
    const form = visitor.getByRole('form', { name: 'Tipsa om ett quiz' });
    // The shared contract's messages, before anything is sent.
    await form.getByRole('button', { name: 'Skicka tipset' }).click();
    await form.getByText('Ange ställets namn').waitFor();
    await form.getByText('Välj en veckodag eller ange ett datum').waitFor();
    await expectAccessible(visitor);
    await form.getByLabel('Ställe').fill(venue);
    await form.getByLabel('Adress').fill('Tipsgatan 3');
    await form.getByLabel('Stad').fill(city);
    await form.getByLabel('Veckodag').selectOption({ label: 'Varje torsdag' });
    await form.getByLabel('Starttid').fill('19:30');
    // The owner forms' time field (issue 44.9): the native picker may say 07:30 PM, the words beside it are Swedish.
    const timeWords = (await form.getByLabel('Starttid').getAttribute('aria-describedby'))?.split(' ').at(-1) ?? '';
    expect(await form.locator(`[id="${timeWords}"]`).textContent()).toBe('kl 19:30');
    await form.getByLabel('E-post (valfritt)').fill(email);
    await form.getByRole('button', { name: 'Skicka tipset' }).click();
    await visitor.getByText('Tack för tipset!').waitFor();
    expect(errors).toEqual([]);

    const { page: admin } = await newPage(browser());
    await loginAs(admin, ADMIN.email, ADMIN.password);
    await admin.goto('/superadmin?flik=tips');
    await admin.getByText(/^\d+ tips väntar$/).waitFor();
    const item = admin.getByRole('listitem', { name: `Tips: ${venue}` });
    await item.waitFor();
    expect(await item.textContent()).toContain('Varje torsdag kl. 19:30');
    await expectAccessible(admin);
    await item.getByRole('button', { name: 'Publicera' }).click();
    await admin.getByText(`${venue} är publicerat`).waitFor();

    // The address was never confirmed: the mail names no place, its signed link leads to the page (issue 43.7).
    const mail = await waitForMail(email, 'Tack för ditt tips');
    expect(mail.subject).not.toContain(venue);
    const showLink = mail.links.find((l) => l.includes('/tipsa/visa?t='))!;
    expect(showLink).toBeTruthy();
    await visitor.goto(showLink);
    await visitor.getByRole('heading', { name: venue }).first().waitFor();
    const citySlug = new URL(visitor.url()).pathname.split('/')[2]!;
    await visitor.goto(`${baseURL()}/quiz/${citySlug}`);
    await visitor.getByRole('heading', { name: `Quiz i ${city}` }).waitFor();
    await visitor.getByText(venue).first().waitFor();

    // A second tip at the same address is flagged, and the flag opens the business that exists (issue 44.9).
    const again = await visitor.request.post('/api/tips', {
      data: { venueName: `${venue} igen`, address: 'Tipsgatan 3', city, weekday: 2, startTime: '20:00', humanToken: 'local-pass' },
      headers: { origin: baseURL() },
    });
    expect(again.status(), await again.text()).toBe(201);
    await admin.goto('/superadmin?flik=tips');
    const dup = admin.getByRole('listitem', { name: `Tips: ${venue} igen` });
    await dup.waitFor();
    const note = dup.getByRole('note');
    expect(await note.textContent()).toContain(`Samma adress som ${venue}`);
    await expectAccessible(admin);
    await note.getByRole('link', { name: 'Visa den befintliga verksamheten' }).click();
    await admin.waitForURL((u) => u.pathname.startsWith('/admin/venue/'));
    await admin.getByRole('heading', { name: venue, exact: true }).first().waitFor();
  });
});
