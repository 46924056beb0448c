import { describe, expect, it } from 'vitest';
import { loginAs } from './support/auth';
import { baseURL, newPage, stamp, sharedBrowser } from './support/browser';

describe('superadmin in a business profile dialog', () => {
  const browser = sharedBrowser();

  it('deletes the business (not an account) and returns to /superadmin', async () => {
    const { page, context, errors } = await newPage(browser());
    await loginAs(page, 'admin@quizkvall.local', 'quizkvall-admin');
    const name = `Raderas ${stamp()}`;
    const res = await page.request.post('/api/admin/venues', { data: { name }, headers: { origin: baseURL() } });
    expect(res.status()).toBe(201);
    const { venue } = (await res.json()) as { venue: { id: string } };

    await page.goto(`/admin/venue/${venue.id}`);
    await page.getByRole('button', { name: 'Redigera profil' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Konto' }).click();
    await dialog.getByRole('button', { name: 'Radera verksamheten' }).click();
    await page.getByRole('dialog', { name: 'Radera verksamheten?' }).getByRole('button', { name: 'Radera' }).click();
    await page.waitForURL((u) => u.pathname === '/superadmin');

    const gone = await page.request.get(`/api/owner/dashboard?venueId=${venue.id}`);
    expect(gone.status()).toBe(404);
    // The superadmin account itself still works.
    const session = (await (await page.request.get('/api/auth/session')).json()) as { user: { isSuperadmin: boolean } | null };
    expect(session.user?.isSuperadmin).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
