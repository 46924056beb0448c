/**
 * Issue 48 story on a phone (390 × 844): the demo owner links a profile to one of their series and invites the
 * quizmaster by e-mail (setup through the API); the quizmaster, signed in on a phone, opens the mailed link, claims
 * the profile, writes a bio on /account and finds it on the public profile page. Runs on the shared e2e app; the
 * series is unlinked again at the end so other stories see the demo data as seeded.
 */
import { describe, expect, it } from 'vitest';
import { loginViaApi, registerVerifiedOwner } from './support/auth';
import { baseURL, expectAccessible, hydrated, newPage, sharedBrowser, stamp, waitForMail } from './support/browser';

const OWNER = { email: 'agare@quizkvall.local', password: 'quizkvall-agare' };
/** A weekly series of the demo owner's second business (worker/db/seed.ts: seed venue 7). */
const SERIES = 'seed-series-07';
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

describe('quizmaster claims the profile (phone)', () => {
  const browser = sharedBrowser();

  it('opens the invitation, claims the profile and edits the bio', async () => {
    const id = stamp();
    const name = `Quizmaster ${id}`;
    const bio = `Jag har lett quiz i tio år. (${id})`;

    // The owner's part, through the API.
    const { page: owner } = await newPage(browser());
    await loginViaApi(owner, OWNER.email, OWNER.password);
    const headers = { origin: baseURL() };
    const created = await owner.request.post('/api/owner/quizmasters', { data: { name }, headers });
    expect(created.status()).toBe(201);
    const profile = (await created.json()) as { id: string; slug: string };
    const linked = await owner.request.put(`/api/owner/quizzes/${SERIES}/quizmaster`, { data: { quizmasterId: profile.id }, headers });
    expect(linked.status()).toBe(200);

    // The quizmaster registers on the phone, then the owner invites that address.
    const { page, errors } = await newPage(browser(), { context: PHONE });
    const account = await registerVerifiedOwner(page);
    const invited = await owner.request.post(`/api/owner/quizzes/${SERIES}/quizmaster/invite`, { data: { email: account.email }, headers });
    expect(invited.status()).toBe(200);
    const mail = await waitForMail(account.email, 'inbjuden som quizmaster');
    // The address is unconfirmed: the mail names neither the profile nor the business.
    expect(mail.subject).not.toContain(name);
    const claimLink = new URL(mail.links.find((l) => l.includes('/quizmaster-inbjudan?t='))!);

    await page.goto(claimLink.pathname + claimLink.search);
    await page.getByText(name).first().waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Gör anspråk på profilen' }).click();
    await page.getByText('är nu din').waitFor();
    await page.getByRole('link', { name: 'Redigera presentation och bild' }).click();

    await page.waitForURL((u) => u.pathname === '/account');
    const section = page.getByRole('region', { name: 'Min quizmasterprofil' });
    await section.waitFor();
    await section.getByLabel('Presentation').fill(bio);
    await section.getByRole('button', { name: 'Spara presentationen' }).click();
    await page.getByText('Presentationen är sparad').waitFor();
    await expectAccessible(page);

    await page.goto(`/quizmaster/${profile.slug}?_b=${id}`);
    await hydrated(page);
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    await page.getByText(bio).waitFor();
    // Nothing sticks out sideways on the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    expect(errors).toEqual([]);

    // Leave the demo series as seeded.
    expect((await owner.request.put(`/api/owner/quizzes/${SERIES}/quizmaster`, { data: { quizmasterId: null }, headers })).status()).toBe(200);
  });
});
