/**
 * Escaping in the browser (issue 9 item 3): an owner signs in, creates a business, place and quiz
 * whose texts carry `</script><script>alert(1)</script>`, `"><img src=x onerror=alert(1)>` and
 * U+2028, then the listing, the city page, the venue page, the quiz detail dialog, the owner
 * dashboard and the superadmin list are opened in Chromium. No dialog may fire, no injected element
 * may exist, and the text must be shown literally (escaped, not removed).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginViaApi, registerVerifiedOwner } from './support/auth';
import { baseURL, newPage, sharedBrowser } from './support/browser';
import { stockholmDatePlus } from './support/clock';
import { STORY_TOWNS } from './support/towns';

const SCRIPT_BREAKOUT = '</script><script>alert(1)</script>';
const ATTR_BREAKOUT = '"><img src=x onerror=alert(1)>';
const LINE_SEP = 'rad\u2028två';

const getBrowser = sharedBrowser();

/** Fails on any alert/confirm/prompt; counts elements an injection would have created. */
async function injected(page: Page): Promise<{ imgs: number; handlers: number; scripts: number }> {
  return page.evaluate(() => ({
    imgs: document.querySelectorAll('img[src="x"], img[onerror]').length,
    handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
    scripts: [...document.scripts].filter((s) => !['application/json', 'application/ld+json'].includes(s.type) && (s.textContent ?? '').includes('alert('))
      .length,
  }));
}

describe('hostile texts stay inert in every screen', () => {
  it('owner creates a business, place and quiz with script/attribute breakouts; no dialog fires anywhere', async () => {
    const { page, context, errors } = await newPage(getBrowser());
    const dialogs: string[] = [];
    page.on('dialog', async (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      await d.dismiss();
    });

    await registerVerifiedOwner(page);
    const tag = Math.random().toString(36).slice(2, 8);
    const city = STORY_TOWNS.xss;
    const name = `Puben ${tag} ${SCRIPT_BREAKOUT}`;
    const headers = { origin: baseURL() };
    const quizDate = stockholmDatePlus(2);
    const reg = await page.request.post('/api/owner/venues/register', {
      headers,
      data: { name, address: `Gatan 1 ${ATTR_BREAKOUT}`, city, description: `Om oss ${ATTR_BREAKOUT} ${LINE_SEP} ${SCRIPT_BREAKOUT}` },
    });
    expect(reg.status(), await reg.text()).toBe(201);
    const { venue, locationId } = (await reg.json()) as { venue: { id: string; slug: string }; locationId: string };
    const quiz = await page.request.post('/api/owner/quizzes', {
      headers,
      data: {
        locationId,
        date: quizDate,
        startTime: '19:30',
        category: 'tema',
        theme: 'Annat',
        customTheme: `Tema ${SCRIPT_BREAKOUT}`.slice(0, 60),
        quizmaster: `Kim ${ATTR_BREAKOUT}`,
        description: `Beskrivning ${SCRIPT_BREAKOUT} ${ATTR_BREAKOUT} ${LINE_SEP}`,
        recurring: false,
      },
    });
    expect(quiz.status(), await quiz.text()).toBe(201);

    const listing = (await (await page.request.get(`/api/listing?search=${encodeURIComponent(`Puben ${tag}`)}`)).json()) as {
      items: Array<{ location: { citySlug: string } }>;
    };
    expect(listing.items.length).toBeGreaterThan(0);
    const citySlug = listing.items[0]!.location.citySlug;

    const screens = [
      `/?search=${encodeURIComponent(`Puben ${tag}`)}`,
      `/quiz/${citySlug}`,
      `/stad/${citySlug}?date=${quizDate}`,
      `/quiz/${citySlug}/${venue.slug}`,
      '/admin',
    ];
    for (const path of screens) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      // The name is visible as text (escaped), so the check below is about escaping, not absence.
      await page.getByText(SCRIPT_BREAKOUT, { exact: false }).first().waitFor({ state: 'visible', timeout: 10_000 });
      expect(await injected(page), path).toEqual({ imgs: 0, handlers: 0, scripts: 0 });
    }

    // The quiz detail dialog on the listing renders the description and quizmaster.
    await page.goto(`/?search=${encodeURIComponent(`Puben ${tag}`)}`);
    await page
      .getByRole('button', { name: /^Visa detaljer om / })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Kim ${ATTR_BREAKOUT}`, { exact: false }).first().waitFor({ state: 'visible', timeout: 10_000 });
    expect(await injected(page), 'detail dialog').toEqual({ imgs: 0, handlers: 0, scripts: 0 });

    // The session cookie as the browser holds it: not readable by scripts, Lax.
    const cookie = (await context.cookies()).find((c) => c.name === 'qk_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(await page.evaluate(() => document.cookie)).not.toContain('qk_session');

    // The superadmin sees the same business in the superadmin list.
    const admin = await newPage(getBrowser());
    admin.page.on('dialog', async (d) => {
      dialogs.push(`superadmin ${d.type()}: ${d.message()}`);
      await d.dismiss();
    });
    await loginViaApi(admin.page, 'admin@quizkvall.local', 'quizkvall-admin');
    await admin.page.goto('/superadmin');
    await admin.page.getByRole('searchbox', { name: 'Sök verksamheter' }).fill(`Puben ${tag}`);
    await admin.page.getByText(SCRIPT_BREAKOUT, { exact: false }).first().waitFor({ state: 'visible', timeout: 10_000 });
    expect(await injected(admin.page), '/superadmin').toEqual({ imgs: 0, handlers: 0, scripts: 0 });
    await admin.context.close();

    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    // Leave the shared e2e database as found: deleting the account removes the hostile business.
    expect((await page.request.delete('/api/account', { headers })).status()).toBe(200);
    await context.close();
  });

  it('the SPA shell and public pages are served with CSP, nosniff, frame and referrer policies', async () => {
    const { page, context } = await newPage(getBrowser());
    for (const path of ['/', '/admin', '/login', '/finns-inte', '/api/health']) {
      const res = await page.request.get(path);
      const h = res.headers();
      expect(h['content-security-policy'], path).toContain("script-src 'self'");
      expect(h['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(h['x-content-type-options'], path).toBe('nosniff');
      expect(h['x-frame-options'], path).toBe('DENY');
      expect(h['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    }
    await context.close();
  });
});
