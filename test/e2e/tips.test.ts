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

  it('on a phone: the published tip says "Pris ej angivet" with no category badge, and the Gratis filter leaves it out (issue 44.3)', async () => {
    const id = stamp();
    const venue = `Okända Krogen ${id}`;
    const city = STORY_TOWNS.tipsUnknownFacts;
    const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

    const { page: visitor, errors, context } = await newPage(browser(), { context: phone });
    await visitor.goto('/tipsa');
    await visitor.getByRole('heading', { name: 'Tipsa om ett quiz' }).waitFor();
    const form = visitor.getByRole('form', { name: 'Tipsa om ett quiz' });
    await form.getByLabel('Ställe').fill(venue);
    await form.getByLabel('Adress').fill('Okändgatan 1');
    await form.getByLabel('Stad').fill(city);
    await form.getByLabel('Veckodag').selectOption({ label: 'Varje onsdag' });
    await form.getByLabel('Starttid').fill('19:00');
    await form.getByRole('button', { name: 'Skicka tipset' }).click();
    await visitor.getByText('Tack för tipset!').waitFor();

    const { page: admin, context: adminContext } = await newPage(browser());
    await loginAs(admin, ADMIN.email, ADMIN.password);
    await admin.goto('/superadmin?flik=tips');
    const item = admin.getByRole('listitem', { name: `Tips: ${venue}` });
    await item.getByRole('button', { name: 'Publicera' }).click();
    await admin.getByText(`${venue} är publicerat`).waitFor();
    // The owner's series view (the superadmin sees every series) asks for what is missing; the form assumes nothing.
    await admin.goto('/admin/quizzes');
    const series = admin.getByRole('article', { name: `Serie ${venue} – ${venue}` });
    await series.getByText(/^Pris och kategori saknas/).waitFor();
    await series.getByRole('link', { name: /^Redigera/ }).click();
    const category = admin.getByLabel(/^Kategori/);
    await category.waitFor();
    expect(await category.inputValue()).toBe('');
    expect(await admin.getByLabel(/^Pris i kronor/).inputValue()).toBe('');
    await admin.getByText('0 = gratis. Tomt visas som ”Pris ej angivet”.').waitFor();
    await adminContext.close();

    // The city page (this story's town holds only this tip): the card states what the tip said, nothing more.
    await visitor.goto(`/quiz/${city.toLowerCase()}`);
    await hydrated(visitor);
    const card = visitor.locator('article[data-quiz-id]').filter({ hasText: venue });
    await card.waitFor();
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('Pris ej angivet');
    expect(text).not.toContain('Gratis');
    for (const invented of ['Allmänbildning', 'Quiz ·', 'Tema']) expect(text).not.toContain(invented);
    // The badge row holds no category badge (the card's first row: language, price, never a category).
    expect(await card.locator('span.rounded-full.bg-brand-50').count()).toBe(0);
    // The detail dialog's chips: "Pris ej angivet", no category chip.
    await card.getByRole('button', { name: /^Visa detaljer om / }).click();
    const dialog = visitor.getByRole('dialog');
    const chips = dialog.getByRole('list', { name: 'Om kvällen' });
    await chips.waitFor();
    expect((await chips.getByRole('listitem').allTextContents()).map((t) => t.trim())).toEqual(['Pris ej angivet']);
    await expectAccessible(visitor);
    await visitor.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // "Gratis" in the filter sheet: the unknown price is not free, so the tip leaves the list.
    await visitor.getByRole('link', { name: /^Filter/ }).click();
    await visitor.getByLabel('Pris').selectOption({ label: 'Gratis' });
    await visitor.waitForURL((u) => u.searchParams.get('price') === 'gratis');
    // This town holds only the tip: under "Gratis" the sheet offers none, and the page says which filter emptied it.
    await visitor.getByRole('button', { name: 'Visa 0 quiz' }).click();
    await visitor.getByText(`Inga quiz hittades i ${city} med filtret Gratis.`).waitFor();
    expect(await visitor.locator('article[data-quiz-id]').filter({ hasText: venue }).count()).toBe(0);
    // The same answer without JavaScript, from the server.
    const html = await (await visitor.request.get(`/quiz/${city.toLowerCase()}?price=gratis`)).text();
    expect(html).not.toContain(venue);
    expect(errors).toEqual([]);
    await context.close();
  });
});
