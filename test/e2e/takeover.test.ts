/**
 * Takeover story (issue 7; spec 01 §2, §4; 02 §2.9, §4.6): a visitor finds an unclaimed business,
 * follows 'Ta kontroll' to registration, verifies through the link in the dev outbox, lands on the
 * takeover success dialog with the counts, and the business leaves the last ranking tier at once.
 */
import { describe, expect, it } from 'vitest';
import type { ListingQuiz, ListingResponse } from '../../worker/features/listing/contract';
import { loginViaApi } from './support/auth';
import { baseURL, expectAccessible, newPage, stamp, uniqueEmail, sharedBrowser, waitForMail } from './support/browser';
import { stockholmDatePlus } from './support/clock';

const ADMIN = { email: 'admin@quizkvall.local', password: 'quizkvall-admin' };
const WEEKDAY_NAMES = ['söndag', 'måndag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lördag'];

async function listing(params: Record<string, string>): Promise<ListingQuiz[]> {
  const out: ListingQuiz[] = [];
  for (let page = 1; page <= 20; page++) {
    const res = (await (await fetch(`${baseURL()}/api/listing?${new URLSearchParams({ ...params, page: String(page) })}`)).json()) as ListingResponse;
    out.push(...res.items);
    if (!res.hasMore) break;
  }
  return out;
}

describe('takeover of an unclaimed business', () => {
  const browser = sharedBrowser();

  it('link on the card → register → verification link → success dialog with counts; no longer sorted last', async () => {
    // A date in Stockholm (within a week) with an unpromoted quiz of a real owner.
    let date = '';
    for (let i = 1; i <= 7 && !date; i++) {
      const iso = stockholmDatePlus(i);
      const items = await listing({ city: 'stockholm', date: iso });
      const standard = items.filter((q) => q.tier === 'standard');
      if (standard.some((q) => !q.unclaimed)) date = iso;
    }
    expect(date, 'a Stockholm date with a claimed quiz').not.toBe('');
    const weekday = WEEKDAY_NAMES[new Date(`${date}T12:00:00Z`).getUTCDay()]!;

    // The superadmin imports two fresh unclaimed businesses for that weekday (house account): one to
    // take over and one that stays unclaimed, to compare with.
    const tag = stamp();
    const name = `Övertagspuben ${tag}`;
    const control = `Kontrollkrogen ${tag}`;
    const admin = await newPage(browser());
    await loginViaApi(admin.page, ADMIN.email, ADMIN.password);
    const csv = `name,address,city,weekday,start_time\n${name},Testgatan 7,Stockholm,${weekday},18:00\n${control},Testgatan 9,Stockholm,${weekday},18:00\n`;
    const imported = await admin.page.request.post('/api/admin/import', { data: { csv }, headers: { origin: baseURL() } });
    expect(imported.status()).toBe(201);
    await admin.context.close();

    const before = await listing({ city: 'stockholm', date });
    const mineBefore = before.findIndex((q) => q.venue.name === name);
    expect(mineBefore).toBeGreaterThanOrEqual(0);
    expect(before[mineBefore]!.unclaimed).toBe(true);
    // Tier 4: every unpromoted claimed quiz of the day comes before it.
    const claimedStandard = (list: ListingQuiz[]) =>
      list
        .map((q, i) => [q, i] as const)
        .filter(([q]) => !q.unclaimed && q.tier === 'standard')
        .map(([, i]) => i);
    expect(Math.max(...claimedStandard(before))).toBeLessThan(mineBefore);
    const venueId = before[mineBefore]!.venue.id;

    // The visitor finds it and follows the take-control link (opens in a new tab).
    const { page, errors, context } = await newPage(browser());
    await page.goto('/');
    await page.getByLabel('Sök').fill(name);
    await page
      .getByRole('button', { name: `Visa detaljer om ${name}` })
      .first()
      .click();
    const link = page.getByRole('link', { name: /Ta kontroll över verksamheten/ });
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe('/register');
    expect(new URL(tab.url()).searchParams.get('takeoverVenue')).toBe(venueId);
    await tab.getByText(`Du tar över ${name}`).waitFor();
    await expectAccessible(tab);

    const email = uniqueEmail('overtag');
    await tab.getByLabel('E-post').fill(email);
    await tab.getByLabel('Lösenord', { exact: true }).fill('hemligt-123');
    await tab.getByLabel('Bekräfta lösenord').fill('hemligt-123');
    await tab.getByRole('button', { name: 'Registrera' }).click();

    const mail = await waitForMail(email, 'Bekräfta');
    const verify = new URL(mail.links.find((l) => l.includes('/verify'))!);
    await tab.goto(verify.pathname + verify.search);
    await tab.waitForURL((u) => u.pathname === '/admin' && u.searchParams.get('from') === 'verify' && u.searchParams.get('takeoverVenue') === venueId, {
      timeout: 15_000,
    });
    const dialog = tab.getByRole('dialog', { name: 'Grattis – verksamheten är nu din!' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(name);
    expect(await dialog.textContent()).toContain('1 plats');
    expect(await dialog.textContent()).toMatch(/\d+ kommande quiz/);
    expect(await dialog.textContent()).toContain('Prioriterad synlighet');
    await expectAccessible(tab);
    await dialog.getByRole('button', { name: 'Kom igång' }).click();
    await tab.waitForURL((u) => !u.searchParams.has('takeoverVenue'));

    // The superadmins were told.
    await waitForMail(ADMIN.email, `Verksamhet övertagen: ${name}`);

    // Ranking reads ownership: the business is no longer in the last tier.
    const after = await listing({ city: 'stockholm', date });
    const mineAfter = after.findIndex((q) => q.venue.name === name);
    expect(after[mineAfter]!.unclaimed).toBe(false);
    // Promoted quizzes (tiers 1–2) come first whoever owns them; among the rest it now comes before
    // every unclaimed quiz, including the control business imported with it.
    const firstUnclaimed = after.findIndex((q) => q.unclaimed && q.tier === 'standard');
    expect(after[firstUnclaimed]).toBeDefined();
    expect(mineAfter).toBeLessThan(firstUnclaimed);
    expect(mineAfter).toBeLessThan(after.findIndex((q) => q.venue.name === control));
    expect(errors).toEqual([]);

    // The same link once the business is taken, and a link to no business, claim nothing (issue 44.9).
    const other = await newPage(browser());
    for (const id of [venueId, 'finns-inte-123']) {
      await other.page.goto(`/register?takeoverVenue=${encodeURIComponent(id)}`);
      await other.page.getByText('Länken gäller ingen verksamhet som kan tas över.', { exact: false }).waitFor();
      expect(await other.page.getByText(/Du tar över/).count()).toBe(0);
      expect(await other.page.getByRole('region', { name: 'Ta över verksamhet' }).count()).toBe(0);
    }
    await expectAccessible(other.page);
    expect(other.errors).toEqual([]);
    await other.context.close();
  });
});
