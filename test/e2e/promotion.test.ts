/**
 * Paid promotion stories (issue 6, spec 02 §2.2, §2.3, §4.2, §4.3, §2.10): an owner buys Premium
 * Utvald for one date through the local checkout (no Stripe key: the same webhook code path as
 * production), sees the success dialog, and the quiz is full width on top of `/` for that city and
 * date; a cancelled checkout shows the cancelled dialog and leaves the slot free; the demo pages.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginViaApi, registerVerifiedOwner } from './support/auth';
import { baseURL, expectAccessible, newPage, sharedBrowser } from './support/browser';
import { stockholmDatePlus } from './support/clock';
import { STORY_TOWNS, type StoryTown } from './support/towns';

const letters = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

async function post<T = any>(page: Page, path: string, data: unknown): Promise<T> {
  const res = await page.request.post(path, { data, headers: { origin: baseURL() } });
  if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${await res.text()}`);
  return res.json();
}

/** A fresh owner (signed in) with a business, one place in a town of its own (each test's) and one single quiz. */
async function ownerWithQuiz(page: Page, date: string, town: StoryTown) {
  await registerVerifiedOwner(page);
  const suffix = letters();
  const city = STORY_TOWNS[town];
  const venueName = `Reklampuben ${suffix}`;
  const venue = await post(page, '/api/owner/venues', { name: venueName });
  const location = await post(page, `/api/owner/venues/${venue.id}/locations`, { name: venueName, address: 'Torget 1', city });
  const quiz = await post(page, '/api/owner/quizzes', { locationId: location.id, date, startTime: '19:00', category: 'allmänbildning', recurring: false });
  const quizId: string = quiz.firstId;
  return { venueId: venue.id as string, venueName, city, citySlug: city.toLowerCase(), quizId };
}

async function availability(page: Page, quizId: string) {
  return post(page, '/api/promotion/availability', { quizIds: [quizId] });
}

/**
 * From the dashboard's quiz list: 'Marknadsför' on the quiz → the purchase dialog → Premium Utvald,
 * 1 vecka → 'Gå till betalning' → the local checkout page.
 */
async function buyPremiumFromDashboard(page: Page, date: string) {
  await page.goto('/admin');
  const promote = page.getByRole('button', { name: `Marknadsför quiz ${date}` });
  await promote.waitFor({ timeout: 15_000 });
  await promote.click();
  const dialog = page.getByRole('dialog', { name: 'Marknadsför quiz' });
  await dialog.waitFor();
  await expect.poll(() => dialog.getByText('Kontrollerar tillgänglighet...').count()).toBe(0);
  // Without a type the pay button explains what is missing.
  await dialog.getByRole('button', { name: 'Gå till betalning' }).click();
  expect(await dialog.getByRole('alert').textContent()).toBe('Välj marknadsföringstyp');
  await dialog.getByRole('radio', { name: 'Premium Utvald' }).check();
  await dialog.getByRole('radio', { name: '1 vecka' }).check();
  expect(await dialog.getByText('Totalt: 98 kr').isVisible()).toBe(true);
  await dialog.getByRole('radio', { name: /2 veckor/ }).check();
  expect(await dialog.getByText('Totalt: 157 kr').isVisible()).toBe(true);
  // More than three weeks: the volume discount is its own line (2.4 × 98 = 235 kr − 10 %).
  await dialog.getByRole('radio', { name: /4 veckor/ }).check();
  expect(await dialog.getByText('Delsumma: 235 kr').isVisible()).toBe(true);
  expect(await dialog.getByText('Mängdrabatt 10 % (4 veckor): −23,50 kr').isVisible()).toBe(true);
  expect(await dialog.getByText('Totalt: 211,50 kr').isVisible()).toBe(true);
  await dialog.getByRole('radio', { name: '1 vecka' }).check();
  await expectAccessible(page);
  // The preview shows the quiz as Premium Utvald and as Rekommenderat.
  await dialog.getByRole('button', { name: 'Förhandsvisa' }).click();
  const preview = page.getByRole('dialog', { name: 'Förhandsvisning av marknadsföring' });
  await preview.waitFor();
  expect(await preview.getByRole('heading', { name: 'Som Premium Utvald' }).isVisible()).toBe(true);
  expect(await preview.getByRole('heading', { name: 'Som Rekommenderat' }).isVisible()).toBe(true);
  await preview.getByRole('button', { name: 'Stäng' }).click();
  await dialog.getByRole('button', { name: 'Gå till betalning' }).click();
  await page.waitForURL((u) => u.pathname.startsWith('/dev/checkout/'));
}

describe('paid promotion', () => {
  const browser = sharedBrowser();

  it('an owner buys Premium Utvald for one date; the quiz is full width on top of / for that city and date', async () => {
    const { page, errors, context } = await newPage(browser());
    const date = stockholmDatePlus(9);
    const owner = await ownerWithQuiz(page, date, 'promotionBuy');

    await buyPremiumFromDashboard(page, date);

    // The local checkout page: order summary, 'Betala' and 'Avbryt'.
    await page.getByRole('heading', { name: 'Lokal betalning (utveckling)' }).waitFor();
    expect(await page.getByText('Premium Utvald').first().isVisible()).toBe(true);
    expect(await page.getByText('Totalt: 98 kr').isVisible()).toBe(true);
    const sessionId = `cs_local_${new URL(page.url()).pathname.split('/').pop()}`;
    await page.getByRole('button', { name: 'Betala' }).click();

    // Back on the dashboard: verification, then the success dialog; the URL is cleaned.
    const success = page.getByRole('dialog', { name: 'Betalningen lyckades!' });
    await success.waitFor({ timeout: 15_000 });
    expect(await success.getByText('Ditt quiz är nu Premium Utvald').isVisible()).toBe(true);
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expectAccessible(page);
    await success.getByRole('button', { name: 'Klar' }).click();

    // Coming back with the same session again (reload, second tab): success with the 'already active' note.
    await page.goto(`/admin?payment=success&session_id=${sessionId}&venueId=${owner.venueId}`);
    const repeat = page.getByRole('dialog', { name: 'Betalningen lyckades!' });
    await repeat.waitFor({ timeout: 15_000 });
    expect(await repeat.getByText('marknadsföringen är redan aktiv').isVisible()).toBe(true);
    await repeat.getByRole('button', { name: 'Klar' }).click();

    // The quiz list now shows it as promoted; it cannot be bought again.
    await page.goto('/admin');
    const promoted = page.getByRole('button', { name: 'Premium Utvald' });
    await promoted.waitFor({ timeout: 15_000 });
    expect(await promoted.isDisabled()).toBe(true);
    expect(await page.getByTitle('Detta quiz är Premium Utvald').count()).toBe(1);

    // The slot is sold: purchased for this owner, sold out for everyone.
    const after = await availability(page, owner.quizId);
    expect(after.byDate[0].premium).toEqual({ isAvailable: false, availableSlots: 0, userHasPurchased: true });

    // A visitor sees it full width on top of the listing for that city and date.
    const visitor = await newPage(browser());
    await visitor.page.goto(`/?city=${owner.citySlug}&date=${date}`);
    const premium = visitor.page.getByRole('region', { name: 'Premium Utvald' });
    await premium.waitFor({ timeout: 15_000 });
    const card = premium.locator(`article[data-quiz-id="${owner.quizId}"]`);
    expect(await card.isVisible()).toBe(true);
    expect(await card.textContent()).toContain(owner.venueName);
    expect(await visitor.page.locator('article[data-quiz-id]').first().getAttribute('data-quiz-id')).toBe(owner.quizId);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();

    expect(errors).toEqual([]);
    await context.close();
  });

  it('a cancelled checkout shows the cancelled dialog and leaves the slot free', async () => {
    const { page, errors, context } = await newPage(browser());
    const date = stockholmDatePlus(10);
    const owner = await ownerWithQuiz(page, date, 'promotionCancelled');

    await buyPremiumFromDashboard(page, date);
    // While the checkout is open the slot is held.
    expect((await availability(page, owner.quizId)).byDate[0].premium.isAvailable).toBe(false);
    await page.getByRole('button', { name: 'Avbryt' }).click();

    const cancelled = page.getByRole('dialog', { name: 'Betalningen avbröts' });
    await cancelled.waitFor({ timeout: 15_000 });
    expect(await cancelled.getByRole('link', { name: /@/ }).isVisible()).toBe(true);
    // No retry for a cancelled payment.
    expect(await cancelled.getByRole('button', { name: 'Försök igen' }).count()).toBe(0);
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await cancelled.getByRole('button', { name: 'Klar' }).click();

    const after = await availability(page, owner.quizId);
    expect(after.byDate[0].premium).toEqual({ isAvailable: true, availableSlots: 1, userHasPurchased: false });

    // payment=failed: the payment_failed dialog, with a retry.
    await page.goto('/admin?payment=failed');
    const failed = page.getByRole('dialog', { name: 'Betalningen misslyckades' });
    await failed.waitFor({ timeout: 15_000 });
    expect(await failed.getByRole('button', { name: 'Försök igen' }).isVisible()).toBe(true);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('in an expanded series the owner ticks occurrences, picks a tier per occurrence and pays the total', async () => {
    const { page, errors, context } = await newPage(browser());
    await registerVerifiedOwner(page);
    const suffix = letters();
    const city = STORY_TOWNS.promotionSeries;
    const venue = await post(page, '/api/owner/venues', { name: `Seriepuben ${suffix}` });
    const location = await post(page, `/api/owner/venues/${venue.id}/locations`, { name: `Seriepuben ${suffix}`, address: 'Torget 2', city });
    const first = stockholmDatePlus(14);
    const until = stockholmDatePlus(14 + 21);
    await post(page, '/api/owner/quizzes', {
      locationId: location.id,
      date: first,
      startTime: '20:00',
      category: 'allmänbildning',
      recurring: true,
      pattern: 'weekly',
      until,
    });

    await page.goto('/admin');
    await page.getByRole('button', { name: /^Marknadsför serien/ }).click();
    const panel = page.getByRole('region', { name: 'Marknadsför tillfällen' });
    await panel.waitFor({ timeout: 15_000 });
    await expect.poll(() => panel.getByText('Kontrollerar...').count()).toBe(0);
    expect(await panel.getByText('Ledigt').count()).toBeGreaterThan(0);

    // 02 §5 messages.
    await panel.getByRole('button', { name: 'Gå till betalning' }).click();
    expect(await panel.getByRole('alert').textContent()).toBe('Inga quiz valda – Välj minst ett quiz att marknadsföra');
    const boxes = panel.getByRole('checkbox');
    expect(await boxes.count()).toBe(4);
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await panel.getByRole('button', { name: 'Gå till betalning' }).click();
    expect(await panel.getByRole('alert').textContent()).toBe('Välj marknadsföringstyp');

    const types = panel.getByRole('combobox');
    await types.nth(0).selectOption('premium');
    await types.nth(1).selectOption('recommended');
    expect(await panel.getByText('Valda: 2 · Totalt: 147 kr').isVisible()).toBe(true);
    await expectAccessible(page);
    await panel.getByRole('button', { name: 'Gå till betalning' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/dev/checkout/'));
    expect(await page.getByText('Totalt: 147 kr').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Betala' }).click();
    const success = page.getByRole('dialog', { name: 'Betalningen lyckades!' });
    await success.waitFor({ timeout: 15_000 });
    expect(await success.getByRole('listitem').count()).toBe(2);
    await success.getByRole('button', { name: 'Klar' }).click();

    // Bought occurrences cannot be ticked again; the tooltips say why.
    await page.goto('/admin');
    await page.getByRole('button', { name: /^Marknadsför serien/ }).click();
    const again = page.getByRole('region', { name: 'Marknadsför tillfällen' });
    await again.waitFor();
    expect(await again.getByRole('checkbox', { name: /Detta quiz är Premium Utvald/ }).isDisabled()).toBe(true);
    expect(await again.getByRole('checkbox', { name: /Detta quiz är redan rekommenderat/ }).isDisabled()).toBe(true);
    expect(await again.getByTitle('Detta quiz är Premium Utvald').count()).toBe(1);

    // Visitors see the second occurrence with the Rekommenderat banner in the first grid position.
    const visitor = await newPage(browser());
    await visitor.page.goto(`/?city=${city.toLowerCase()}&date=${stockholmDatePlus(21)}`);
    const firstCard = visitor.page.locator('article[data-quiz-id]').first();
    await firstCard.waitFor({ timeout: 15_000 });
    expect(await firstCard.textContent()).toContain('Rekommenderat');
    expect(await visitor.page.getByRole('region', { name: 'Premium Utvald' }).count()).toBe(0);
    await visitor.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('verification retries network errors 3 times, 2 s apart, then offers the network_error dialog', async () => {
    const { page, errors, context } = await newPage(browser(), { allowConsoleErrors: /ERR_FAILED|Failed to fetch/ });
    const date = stockholmDatePlus(11);
    const owner = await ownerWithQuiz(page, date, 'promotionVerifyRetries');
    const checkout = await post(page, '/api/promotion/marketing-checkout', { venueId: owner.venueId, items: [{ quizId: owner.quizId, tier: 'recommended' }] });
    let calls = 0;
    await page.route('**/api/payments/verify**', (route) => {
      calls++;
      return route.abort('failed');
    });
    await page.goto(`/admin?payment=success&session_id=${checkout.sessionId}&venueId=${owner.venueId}`);
    const verifying = page.getByRole('dialog', { name: 'Verifierar betalning' });
    await verifying.getByText('Försök 1 av 3').waitFor({ timeout: 15_000 });
    await verifying.getByText('Försöker igen...').waitFor();
    await verifying.getByText('Försök 2 av 3').waitFor();
    const failed = page.getByRole('dialog', { name: 'Anslutningsproblem' });
    await failed.waitFor({ timeout: 15_000 });
    expect(calls).toBe(3);
    await expect.poll(() => new URL(page.url()).search).toBe('');

    // The network is back and the payment went through: 'Försök igen' verifies again and succeeds.
    await page.unroute('**/api/payments/verify**');
    await page.request.post(`/dev/checkout/${checkout.orderId}/pay`, { headers: { origin: baseURL() }, maxRedirects: 0 });
    await failed.getByRole('button', { name: 'Försök igen' }).click();
    const success = page.getByRole('dialog', { name: 'Betalningen lyckades!' });
    await success.waitFor({ timeout: 15_000 });
    expect(await success.getByText('Ditt quiz är nu Rekommenderat').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a superadmin who bought for a business returns to /admin/venue/{venueId}', async () => {
    const owner = await newPage(browser());
    const date = stockholmDatePlus(12);
    const made = await ownerWithQuiz(owner.page, date, 'promotionSuperadmin');
    await owner.context.close();

    const { page, errors, context } = await newPage(browser());
    await loginViaApi(page, 'admin@quizkvall.local', 'quizkvall-admin');
    const checkout = await post(page, '/api/promotion/marketing-checkout', { venueId: made.venueId, items: [{ quizId: made.quizId, tier: 'premium' }] });
    await page.goto(checkout.url);
    await page.getByRole('button', { name: 'Betala' }).click();
    await page.getByRole('dialog', { name: 'Betalningen lyckades!' }).waitFor({ timeout: 15_000 });
    await page.waitForURL((u) => u.pathname === `/admin/venue/${made.venueId}` && u.search === '');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the marketing mockup: 'Välj datum för marknadsföring' until a date is chosen, then the total", async () => {
    const { page, errors, context } = await newPage(browser());
    await page.goto('/marketing-mockup');
    await page.getByRole('heading', { name: /designförslag/ }).waitFor();
    const pay = page.getByRole('button', { name: 'Välj datum för marknadsföring' });
    expect(await pay.isDisabled()).toBe(true);
    await expectAccessible(page);
    await page.getByRole('tab', { name: /Premium Utvald/ }).click();
    await page.getByRole('checkbox').first().check();
    expect(await page.getByRole('button', { name: 'Fortsätt till betalning (98 kr)' }).isEnabled()).toBe(true);
    // Compact inline alternative keeps the choice and adds a Rekommenderat date.
    await page.getByRole('button', { name: 'Alternativ 2: Kompakt' }).click();
    await page
      .getByRole('button', { name: /^Rekommenderat/ })
      .nth(1)
      .click();
    expect(await page.getByRole('button', { name: 'Fortsätt till betalning (147 kr)' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Alternativ 3: Flytande knapp' }).click();
    expect(await page.getByRole('button', { name: 'Fortsätt till betalning (147 kr)' }).isVisible()).toBe(true);

    for (const path of ['/premium-demo', '/premium-mockup']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.getByText('Premium Utvald').first().isVisible()).toBe(true);
      await expectAccessible(page);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
