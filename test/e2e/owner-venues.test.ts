/**
 * Owner stories for businesses and places (issue 5 items 1–4, spec 02 §2.1–2.5): a fresh owner goes
 * through onboarding, creates a business, adds a place with the single-place toggle, edits and deletes
 * places and edits the business profile; the register-venue form; superadmin and visitor routing.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginViaApi, openAccountMenu, registerVerifiedOwner } from './support/auth';
import { baseURL, expectAccessible, newPage, stamp, sharedBrowser } from './support/browser';
import { UNKNOWN_CITY_MESSAGE } from '../../worker/lib/city-field';

const visible = (page: Page, text: string | RegExp) => expect.poll(() => page.getByText(text).first().isVisible(), { timeout: 10_000 }).toBe(true);

describe('owner dashboard: businesses and places', () => {
  const browser = sharedBrowser();

  it('a new owner: onboarding → business → place (single-place toggle) → edit and delete places → profile', async () => {
    const { page, errors, context } = await newPage(browser());
    await registerVerifiedOwner(page);
    await page.goto('/admin');

    // Onboarding: three steps and one way in (issue 29.3; the full path is in owner-first-steps.test.ts).
    await page.getByRole('heading', { name: 'Välkommen till Quizkväll!' }).waitFor({ timeout: 15_000 });
    for (const step of ['Registrera verksamheten', 'Publicera quiz', 'Fler platser när du vill']) {
      expect(await page.getByRole('heading', { name: step }).isVisible()).toBe(true);
    }
    expect(await page.getByRole('link', { name: 'Registrera din verksamhet' }).getAttribute('href')).toBe('/admin/create-venue');
    await expectAccessible(page);

    // A business without a place (made by name only through the API, as imports and superadmins do).
    const venueName = `Quizpuben ${stamp()}`;
    const made = await page.request.post('/api/owner/venues', { data: { name: venueName }, headers: { origin: baseURL() } });
    expect(made.status()).toBe(201);
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1, name: venueName }).waitFor();

    // Empty state, then add the first place with the single-place toggle.
    await page.getByRole('heading', { name: 'Lägg till din första plats' }).waitFor();
    await page.getByRole('button', { name: 'Lägg till plats' }).click();
    const add = page.getByRole('dialog', { name: 'Lägg till plats' });
    await add.waitFor();
    await add.getByRole('checkbox', { name: /Verksamheten har bara en plats/ }).check();
    expect(await add.getByLabel('Platsens namn').inputValue()).toBe(venueName);
    expect(await add.getByLabel('Platsens namn').isDisabled()).toBe(true);
    await add.getByRole('button', { name: 'Lägg till plats' }).click();
    expect(await add.getByText('Ange adress').isVisible()).toBe(true);
    await add.getByLabel('Adress').fill('Storgatan 12');
    await add.getByLabel('Stad').fill('Göteborg');
    await add.getByLabel('Telefon (valfritt)').fill('031-12 34 56');
    await add.getByLabel('Webbplats (valfritt)').fill('www.quizpuben.se');
    await add.getByRole('button', { name: 'Lägg till plats' }).click();
    await add.waitFor({ state: 'hidden' });
    const card = page.getByRole('article', { name: venueName });
    await card.waitFor();
    expect(await card.getByText('Storgatan 12, Göteborg').isVisible()).toBe(true);
    expect(await card.getByRole('link', { name: 'quizpuben.se' }).getAttribute('href')).toBe('https://www.quizpuben.se');
    expect(await card.getByRole('link', { name: `Skapa quiz på ${venueName}` }).getAttribute('href')).toMatch(/^\/admin\/create-quiz\?location=/);
    // No quiz yet: no promotion section.
    expect(await page.getByRole('heading', { name: 'Få fler deltagare till ditt quiz' }).count()).toBe(0);

    // Edit the place: city and coordinates.
    await card.getByRole('button', { name: `Redigera ${venueName}` }).click();
    const edit = page.getByRole('dialog', { name: 'Redigera plats' });
    await edit.waitFor();
    expect(await edit.getByLabel('Stad').inputValue()).toBe('Göteborg');
    // A town is a known place (issue 43.6): the form refuses a made-up one in Swedish and stores "molndal" as Mölndal.
    await edit.getByLabel('Stad').fill('Atlantis');
    await edit.getByRole('button', { name: 'Spara ändringar' }).click();
    expect(await edit.getByText(UNKNOWN_CITY_MESSAGE).isVisible()).toBe(true);
    await edit.getByLabel('Stad').fill('molndal');
    await edit.getByLabel('Latitud').fill('57,6554');
    await edit.getByRole('button', { name: 'Spara ändringar' }).click();
    expect(await edit.getByText('Ange både latitud och longitud, eller ingen av dem').isVisible()).toBe(true);
    await edit.getByLabel('Longitud').fill('12.0138');
    await edit.getByRole('button', { name: 'Spara ändringar' }).click();
    await edit.waitFor({ state: 'hidden' });
    await visible(page, 'Storgatan 12, Mölndal');

    // A second place, then delete it after the confirmation.
    await page.getByRole('button', { name: 'Lägg till plats' }).click();
    await add.waitFor();
    await add.getByLabel('Platsens namn').fill('Andra lokalen');
    await add.getByLabel('Adress').fill('Lillgatan 1');
    await add.getByLabel('Stad').fill('Borås');
    await add.getByRole('button', { name: 'Lägg till plats' }).click();
    await page.getByRole('article', { name: 'Andra lokalen' }).waitFor();
    await page.getByRole('button', { name: 'Ta bort Andra lokalen' }).click();
    const confirm = page.getByRole('dialog', { name: 'Ta bort plats?' });
    await confirm.waitFor();
    expect(await confirm.getByText(/kan inte ångras/).isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Ta bort plats' }).click();
    await page.getByRole('article', { name: 'Andra lokalen' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('article', { name: venueName }).isVisible()).toBe(true);

    // Business profile: Verksamhet and Kontakt tabs.
    await page.getByRole('button', { name: 'Redigera profil' }).click();
    const profile = page.getByRole('dialog', { name: 'Verksamhetsprofil' });
    await profile.waitFor();
    for (const tab of ['Verksamhet', 'Kontakt', 'Konto', 'Säkerhet']) expect(await profile.getByRole('tab', { name: tab }).isVisible()).toBe(true);
    await profile.getByLabel('Beskrivning').fill('Quiz varje tisdag sedan 2019.');
    await profile.getByLabel('Stad').fill('Göteborg');
    await profile.getByRole('checkbox', { name: /Synlig för besökare/ }).uncheck();
    await profile.getByRole('button', { name: 'Spara verksamhet' }).click();
    await visible(page, 'Verksamheten har uppdaterats');
    await visible(page, 'Dold för besökare');
    await profile.getByRole('tab', { name: 'Kontakt' }).click();
    await profile.getByLabel('Förnamn').fill('Kim');
    await profile.getByLabel('Efternamn').fill('Larsson');
    await profile.getByLabel('Telefon').fill('070-111 22 33');
    await profile.getByRole('button', { name: 'Spara kontaktuppgifter' }).click();
    await visible(page, 'Kontaktuppgifterna har sparats');
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await profile.waitFor({ state: 'hidden' });

    // Everything persisted: reload and check.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: venueName }).waitFor();
    await visible(page, 'Dold för besökare');
    await page.getByRole('button', { name: 'Redigera profil' }).click();
    await profile.waitFor();
    expect(await profile.getByLabel('Beskrivning').inputValue()).toBe('Quiz varje tisdag sedan 2019.');
    await profile.getByRole('tab', { name: 'Kontakt' }).click();
    await expect.poll(() => profile.getByLabel('Förnamn').inputValue()).toBe('Kim');
    await page.keyboard.press('Escape');

    // /admin/locations shows the same cards; the dashboard passes axe.
    await page.goto('/admin/locations');
    await page.getByRole('heading', { name: `Platser för ${venueName}` }).waitFor();
    expect(await page.getByRole('article', { name: venueName }).isVisible()).toBe(true);
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1, name: venueName }).waitFor();
    await expectAccessible(page);

    // One "Logga ut" on the dashboard (issue 29.11): the site header's, in its "Konto" menu (issue 44.2).
    await openAccountMenu(page);
    expect(await page.getByRole('button', { name: 'Logga ut' }).count()).toBe(1);
    await page.getByRole('navigation', { name: 'Konto' }).getByRole('button', { name: 'Logga ut' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('/admin/create-venue registers a business with its first place and returns to /admin', async () => {
    const { page, errors, context } = await newPage(browser());
    await registerVerifiedOwner(page);
    await page.goto('/admin/create-venue');
    await page.getByRole('heading', { name: 'Registrera verksamhet' }).waitFor();
    await page.getByRole('button', { name: 'Registrera verksamhet' }).click();
    expect(await page.getByText('Ange verksamhetens namn').isVisible()).toBe(true);
    expect(await page.getByText('Ange stad').isVisible()).toBe(true);
    const name = `Krogen ${stamp()}`;
    await page.getByLabel('Namn').fill(name);
    await page.getByLabel('Adress').fill('Hamngatan 4');
    await page.getByLabel('Stad').fill('Luleå');
    await page.getByLabel('Beskrivning (valfritt)').fill('Pubquiz vid hamnen');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Registrera verksamhet' }).click();
    await page.waitForURL((u) => u.pathname === '/admin');
    await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('article', { name }).getByText('Hamngatan 4, Luleå').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('visitor on /admin goes to /login; superadmin: /admin → /superadmin, unknown venue id, any business', async () => {
    const visitor = await newPage(browser());
    await visitor.page.goto('/admin');
    await visitor.page.waitForURL((u) => u.pathname === '/login');
    await visitor.context.close();

    const { page, errors, context } = await newPage(browser());
    await loginViaApi(page, 'admin@quizkvall.local', 'quizkvall-admin');
    await page.goto('/admin');
    await page.waitForURL((u) => u.pathname === '/superadmin');

    await page.goto('/admin/venue/finns-inte');
    await page.getByRole('heading', { name: 'Ingen verksamhet hittad' }).waitFor();
    expect(await page.getByRole('link', { name: 'Tillbaka till superadmin' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Försök igen' }).isVisible()).toBe(true);

    await page.goto('/admin/venue/seed-venue-01');
    await page.getByText('Du visar den här verksamheten som superadmin.').waitFor();
    expect(await page.getByRole('navigation', { name: 'Verksamhet' }).getByRole('link', { name: 'Tillbaka till superadmin' }).isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Verksamhet' }).getByRole('link', { name: 'Besöksvy' }).getAttribute('href')).toBe('/');
    expect(await page.getByRole('article').count()).toBeGreaterThan(0);
    // The seeded business has quizzes: the promotion section and its price dialog.
    await page.getByRole('heading', { name: 'Få fler deltagare till ditt quiz' }).waitFor();
    await page.getByRole('button', { name: 'Se priser' }).click();
    const prices = page.getByRole('dialog', { name: 'Priser för marknadsföring' });
    await prices.waitFor();
    expect(await prices.getByText('Populärast').count()).toBe(2);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });
});
