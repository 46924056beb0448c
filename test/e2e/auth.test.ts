/** Issue 4 stories: register → verify → /admin; logout; wrong password; reset; TOTP; delete account. */
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { describe, expect, it } from 'vitest';
import { loginAs, loginViaApi, logoutViaHeader, registerVerifiedOwner } from './support/auth';
import { expectAccessible, newPage, uniqueEmail, sharedBrowser, waitForMail } from './support/browser';
import { appNow } from './support/clock';

function pathOf(link: string): string {
  const u = new URL(link);
  return u.pathname + u.search;
}

describe('accounts and sign-in', () => {
  const browser = sharedBrowser();

  it('registers through /register, verifies from the mail link, lands on /admin, logs out', async () => {
    const { page, errors, context } = await newPage(browser());
    await page.goto('/register');
    await page.getByRole('heading', { name: 'Skapa konto' }).waitFor();
    await expectAccessible(page);
    // Client validation: all messages under 'Valideringsfel'.
    await page.getByRole('button', { name: 'Registrera', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Valideringsfel' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('E-postadress krävs, Lösenord krävs');

    const email = uniqueEmail('reg');
    await page.getByLabel('E-post').fill(email);
    await page.getByLabel('Lösenord', { exact: true }).fill('hemligt-1');
    await page.getByLabel('Bekräfta lösenord').fill('hemligt-1');
    await page.getByRole('button', { name: 'Registrera', exact: true }).click();
    await page.getByRole('heading', { name: 'Bekräfta din e-postadress' }).waitFor();
    await expectAccessible(page);
    expect(await page.getByRole('button', { name: 'Skicka igen' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Använd en annan e-postadress' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Gå till inloggning' }).isVisible()).toBe(true);

    const mail = await waitForMail(email, 'Bekräfta');
    const link = mail.links.find((l) => l.includes('/verify?token='))!;
    await page.goto(pathOf(link));
    await page.getByRole('heading', { name: 'E-postadressen är bekräftad!' }).waitFor();
    await page.waitForURL((u) => u.pathname === '/admin', { timeout: 10_000 });
    const session = await (await page.request.get('/api/auth/session')).json();
    expect(session.user.email).toBe(email);
    expect(session.user.roles).toContain('admin');

    // The same link cannot be used twice.
    await page.goto(pathOf(link));
    await page.getByRole('heading', { name: 'Verifieringen misslyckades' }).waitFor();

    // Signed in, /login goes on to the dashboard.
    await page.goto('/login');
    await page.waitForURL((u) => u.pathname === '/admin', { timeout: 10_000 });

    await logoutViaHeader(page);
    await page.waitForURL((u) => u.pathname === '/', { timeout: 10_000 });
    await page.getByText('Utloggad').waitFor();
    expect((await (await page.request.get('/api/auth/session')).json()).user).toBeNull();
    expect(await page.getByRole('link', { name: 'Logga in' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a wrong password shows the spec toast; a duplicate registration shows the duplicate toast', async () => {
    const { page, errors, context } = await newPage(browser());
    await page.goto('/login');
    await expectAccessible(page);
    await page.getByLabel('E-post').fill('agare@quizkvall.local');
    await page.getByLabel('Lösenord', { exact: true }).fill('fel-losenord');
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Inloggning misslyckades' });
    await toast.waitFor();
    expect(await toast.textContent()).toContain('Felaktig e-post eller lösenord. Försök igen.');
    expect(new URL(page.url()).pathname).toBe('/login');

    await page.goto('/register');
    await page.getByLabel('E-post').fill('agare@quizkvall.local');
    await page.getByLabel('Lösenord', { exact: true }).fill('hemligt-1');
    await page.getByLabel('Bekräfta lösenord').fill('hemligt-1');
    await page.getByRole('button', { name: 'Registrera', exact: true }).click();
    const dup = page.getByRole('alert').filter({ hasText: 'E-postadressen är redan registrerad' });
    await dup.waitFor();
    expect(await dup.getByRole('button', { name: 'Logga in' }).isVisible()).toBe(true);
    expect(await dup.getByRole('button', { name: 'Glömt lösenord' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('login honours redirect and sends a superadmin to /superadmin', async () => {
    const { page, context } = await newPage(browser());
    await page.goto('/account');
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('redirect') === '/account');
    const owner = await registerVerifiedOwner(page);
    await page.request.post('/api/auth/logout', { headers: { origin: new URL(page.url()).origin } });
    await page.goto('/login?redirect=%2Faccount');
    await page.getByLabel('E-post').fill(owner.email);
    await page.getByLabel('Lösenord', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/account');
    await context.close();

    const second = await newPage(browser());
    await loginAs(second.page, 'admin@quizkvall.local', 'quizkvall-admin');
    expect(new URL(second.page.url()).pathname).toBe('/superadmin');
    await second.context.close();
  });

  it('forgot password → reset link → log in with the new password', async () => {
    const { page, errors, context } = await newPage(browser());
    const owner = await registerVerifiedOwner(page);
    const other = await newPage(browser());
    await loginViaApi(other.page, owner.email, owner.password);

    await page.goto('/forgot-password');
    await expectAccessible(page);
    await page.getByLabel('E-post').fill(owner.email);
    await page.getByRole('button', { name: 'Skicka återställningslänk' }).click();
    await page.getByRole('heading', { name: 'Kolla din e-post' }).waitFor();
    const mail = await waitForMail(owner.email, 'Återställ');
    const link = mail.links.find((l) => l.includes('/update-password'))!;
    await page.goto(pathOf(link));
    await page.getByRole('heading', { name: 'Välj nytt lösenord' }).waitFor();
    await expectAccessible(page);
    // Mismatch is caught before anything is sent.
    await page.getByLabel('Nytt lösenord', { exact: true }).fill('nytt-losen-9');
    await page.getByLabel('Bekräfta nytt lösenord').fill('annat-losen-9');
    await page.getByRole('button', { name: 'Spara nytt lösenord' }).click();
    await page.getByText('Lösenorden matchar inte').waitFor();
    await page.getByLabel('Nytt lösenord', { exact: true }).fill('nytt-losen-9');
    await page.getByLabel('Bekräfta nytt lösenord').fill('nytt-losen-9');
    await page.getByRole('button', { name: 'Spara nytt lösenord' }).click();
    await page.getByRole('heading', { name: 'Lösenordet har uppdaterats' }).waitFor();
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 10_000 });

    // Other sessions were ended.
    expect((await (await other.page.request.get('/api/auth/session')).json()).user).toBeNull();
    await other.context.close();

    await loginAs(page, owner.email, 'nytt-losen-9');
    expect(new URL(page.url()).pathname).toBe('/admin');

    // The link is single use: 'Ogiltig session' and back to /forgot-password.
    await page.goto(pathOf(link));
    await page.waitForURL((u) => u.pathname === '/forgot-password', { timeout: 10_000 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('enrols TOTP, then login asks for the code after the password', async () => {
    const { page, errors, context } = await newPage(browser());
    const owner = await registerVerifiedOwner(page);
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Byt lösenord' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('tab', { name: 'Säkerhet' }).click();
    await page.getByLabel('Lösenord', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Aktivera tvåstegsverifiering' }).click();
    await page.getByRole('img', { name: 'QR-kod för autentiseringsappen' }).waitFor();
    await expectAccessible(page);
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    const key = decodeBase32IgnorePadding(secret);
    await page.getByLabel('Kod från appen').fill(generateHOTP(key, BigInt(Math.floor(appNow().getTime() / 30000)), 6));
    await page.getByRole('button', { name: 'Bekräfta kod' }).click();
    await page.getByText('Tvåstegsverifiering är aktiverad.').waitFor();

    await logoutViaHeader(page);
    await page.waitForURL((u) => u.pathname === '/');

    await page.goto('/login');
    await page.getByLabel('E-post').fill(owner.email);
    await page.getByLabel('Lösenord', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    await page.getByRole('heading', { name: 'Tvåstegsverifiering' }).waitFor();
    expect((await (await page.request.get('/api/auth/session')).json()).user).toBeNull();
    // The enrolment code's time step is spent (no replay); the server also accepts the next step
    // (clock drift), so the next code works at once.
    const next = generateHOTP(key, BigInt(Math.floor(appNow().getTime() / 30000) + 1), 6);
    await page.getByLabel('Kod från autentiseringsappen').fill(next);
    await page.getByRole('button', { name: 'Verifiera' }).click();
    await page.waitForURL((u) => u.pathname === '/admin', { timeout: 10_000 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('deletes the account from /register: signed out, and the login no longer works', async () => {
    const { page, errors, context } = await newPage(browser());
    const owner = await registerVerifiedOwner(page);
    await page.goto('/register');
    await page.getByRole('tab', { name: 'Mitt konto' }).waitFor();
    expect(await page.getByText(owner.email).isVisible()).toBe(true);
    await expectAccessible(page);
    await page.getByRole('tab', { name: 'Radera konto' }).click();
    await page.getByText('Varning: detta går inte att ångra.').waitFor();
    await page.getByText(/0 verksamheter, 0 platser och 0 kommande quiz/).waitFor();
    await page.getByRole('button', { name: 'Radera konto' }).click();
    await page.getByRole('dialog', { name: 'Radera kontot permanent?' }).getByRole('button', { name: 'Ja, radera mitt konto' }).click();
    await page.waitForURL((u) => u.pathname === '/', { timeout: 10_000 });
    expect((await (await page.request.get('/api/auth/session')).json()).user).toBeNull();
    const res = await page.request.post('/api/auth/login', {
      data: { email: owner.email, password: owner.password },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(res.status()).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('route guards: login required keeps path + query, owners are kept out of /superadmin, auth errors get their screen', async () => {
    const { page, errors, context } = await newPage(browser());
    await page.goto('/admin/locations?visa=alla');
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('redirect') === '/admin/locations?visa=alla');
    await page.getByLabel('E-post').fill('agare@quizkvall.local');
    await page.getByLabel('Lösenord', { exact: true }).fill('quizkvall-agare');
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    await page.waitForURL((u) => u.pathname + u.search === '/admin/locations?visa=alla');
    await page.goto('/superadmin');
    await page.waitForURL((u) => u.pathname === '/admin');
    // Signed in, /login and /register (outside the account tabs) lead on through /auth-redirect.
    await page.goto('/login?redirect=%2Faccount');
    await page.waitForURL((u) => u.pathname === '/account');
    expect(errors).toEqual([]);
    await context.close();

    const broken = await newPage(browser(), { allowConsoleErrors: /status of 5\d\d/ });
    await broken.page.route('**/api/auth/session', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"internal","message":"x"}}' }),
    );
    await broken.page.goto('/admin');
    await broken.page.getByRole('heading', { name: 'Autentiseringsfel' }).waitFor();
    expect(await broken.page.getByRole('link', { name: 'Gå till inloggning' }).getAttribute('href')).toBe('/login?redirect=%2Fadmin');
    await broken.context.close();
  });

  it('warns 4 minutes before the session expires', async () => {
    const { page, context } = await newPage(browser());
    const owner = await registerVerifiedOwner(page);
    await page.route('**/api/auth/session', async (route) => {
      // The page's clock is the app's (pinned, support/clock.ts).
      const expiresAt = appNow().getTime() + 4 * 60 * 1000 + 1500;
      await route.fulfill({ json: { user: { id: 'x', email: owner.email, roles: ['admin'], isSuperadmin: false }, expiresAt } });
    });
    await page.goto('/account');
    const warning = page.getByRole('status').filter({ hasText: 'Session går snart ut' });
    await warning.waitFor({ timeout: 10_000 });
    expect(await warning.textContent()).toContain('Din session går ut snart. Du kommer att loggas ut automatiskt.');
    await context.close();
  });
});
