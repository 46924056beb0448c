/**
 * Sign-in helpers for browser stories (owned by the accounts work, issue 4).
 *   loginAs(page, email, password)  signs in through the real /login screen and waits until signed in.
 *   registerVerifiedOwner(page)      registers a fresh owner, follows the verification link from the
 *                                    dev outbox and ends signed in (on /admin). Returns the credentials.
 */
import type { Page } from 'playwright-core';
import { baseURL, uniqueEmail, waitForMail } from './browser';

/** Signs in via the API (same cookies as the page). For setup steps that are not about the login UI. */
export async function loginViaApi(page: Page, email: string, password: string): Promise<void> {
  const res = await page.request.post('/api/auth/login', { data: { email, password }, headers: { origin: baseURL() } });
  if (!res.ok()) throw new Error(`login failed for ${email}: ${res.status()} ${await res.text()}`);
}

/** Signs in through the /login screen; resolves once the session cookie works (the page has left /login). */
export async function loginAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-post').fill(email);
  await page.getByLabel('Lösenord', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Logga in', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login') && !url.pathname.startsWith('/auth-redirect'), { timeout: 15_000 });
}

/** A fresh verified owner, registered through the API, verified through the /verify screen; signed in. */
export async function registerVerifiedOwner(
  page: Page,
  opts: {
    password?: string;
    /**
     * Leave /verify by the screen's own redirect (after 3 s) instead of its "Gå vidare nu" button. The button races
     * that redirect on a loaded machine, so the dashboard can mount twice; a story that counts the dashboard's
     * look-ups needs exactly one navigation.
     */
    byRedirect?: boolean;
  } = {},
): Promise<{ email: string; password: string }> {
  const email = uniqueEmail('agare');
  const password = opts.password ?? 'hemligt-123';
  // The page's context is its own client (newPage, ./browser.ts): the mail-sending endpoints' per-client
  // limit does not count every story's owner against one address.
  const res = await page.request.post('/api/auth/register', { data: { email, password, confirmPassword: password }, headers: { origin: baseURL() } });
  if (!res.ok()) throw new Error(`register failed: ${res.status()} ${await res.text()}`);
  const mail = await waitForMail(email, 'Bekräfta');
  const link = mail.links.find((l) => l.includes('/verify'));
  if (!link) throw new Error('no verification link in mail');
  const url = new URL(link);
  await page.goto(url.pathname + url.search);
  // The verify screen redirects by itself after 3 s; its button goes at once.
  if (!opts.byRedirect) await page.getByRole('button', { name: 'Gå vidare nu' }).click({ timeout: 15_000 });
  await page.waitForURL((u) => u.pathname.startsWith('/admin'), { timeout: 15_000 });
  return { email, password };
}

/** The header's "Konto" menu opened (issue 44.2: "Mina bevakningar", "Kontoinställningar" and "Logga ut" live there). */
export async function openAccountMenu(page: Page): Promise<void> {
  const menu = page.getByRole('navigation', { name: 'Konto' }).getByRole('button', { name: 'Konto' });
  if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
}

/** "Logga ut" in the header's "Konto" menu. */
export async function logoutViaHeader(page: Page): Promise<void> {
  await openAccountMenu(page);
  await page.getByRole('navigation', { name: 'Konto' }).getByRole('button', { name: 'Logga ut' }).click();
}
