/**
 * The app on the home screen (issue 32, docs/features/pwa.md): manifest and icons, the service worker
 * registered after load, a visited city page reopening offline with its note, a new build offered with
 * "Ny version finns", and the "Lägg till på hemskärmen" hint from the second visit on; "Påminn mig i telefonen"
 * with and without an account (PushManager stubbed); "Mina bevakningar" and calendar quizzes offline.
 * Every context's clock is pinned to the app's (newPage, support/clock.ts).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logoutViaHeader, registerVerifiedOwner } from './support/auth';
import { baseURL, newPage, stamp, uniqueEmail, sharedBrowser, waitForMail } from './support/browser';
import { STORY_TOWNS } from './support/towns';

/** Waits until the service worker controls the page (register.ts marks html[data-sw] once registered). */
async function controlled(page: Page): Promise<void> {
  await page.waitForSelector('html[data-sw="registered"]', { timeout: 30_000 });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
}

/** PushManager stubbed in the page (Chromium headless has no push service); counts permission asks. */
async function stubPush(page: Page, endpoint: string): Promise<void> {
  await page.addInitScript((ep) => {
    const w = window as unknown as { __asks: number };
    w.__asks = 0;
    Notification.requestPermission = async () => {
      w.__asks++;
      return 'granted';
    };
    const sub = {
      endpoint: ep,
      toJSON: () => ({
        endpoint: ep,
        keys: { p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4', auth: 'BTBZMqHH6r4Tts7J_aSIgg' },
      }),
    };
    PushManager.prototype.getSubscription = async () => null;
    PushManager.prototype.subscribe = async () => sub as unknown as PushSubscription;
  }, endpoint);
}
const asks = (page: Page) => page.evaluate(() => (window as unknown as { __asks: number }).__asks);

/** A signed-in owner's new public place (through the API, as the owner stories do). */
async function ownersPlace(page: Page, name: string, city: string): Promise<{ id: string }> {
  const post = async (path: string, data: unknown) => {
    const r = await page.request.post(path, { data, headers: { origin: baseURL() } });
    if (!r.ok()) throw new Error(`${path}: ${r.status()} ${await r.text()}`);
    return (await r.json()) as { id: string };
  };
  const venue = await post('/api/owner/venues', { name });
  return post(`/api/owner/venues/${venue.id}/locations`, { name, address: 'Storgatan 2', city });
}

describe('installable app', () => {
  const browser = sharedBrowser();
  /** A page whose service worker may install: every story here is about the installed app (newPage blocks it elsewhere). */
  const appPage = (opts: Parameters<typeof newPage>[1] = {}) => newPage(browser(), { ...opts, serviceWorkers: 'allow' });

  it('serves a Swedish web app manifest with 192/512 and maskable icons, linked from public pages', async () => {
    const html = await (await fetch(`${baseURL()}/quiz/stockholm`)).text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest">');
    const manifest = (await (await fetch(`${baseURL()}/manifest.webmanifest`)).json()) as {
      name: string;
      short_name: string;
      lang: string;
      start_url: string;
      display: string;
      theme_color: string;
      icons: Array<{ src: string; sizes: string; purpose: string }>;
    };
    expect(manifest).toMatchObject({ short_name: 'Quizkväll', lang: 'sv', start_url: '/', display: 'standalone', theme_color: '#4338ca' });
    expect(manifest.name).toMatch(/^Quizkväll/);
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of manifest.icons) {
      const res = await fetch(`${baseURL()}${icon.src}`);
      expect(res.status, icon.src).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
    }
  });

  it('Chromium finds the app installable: no installability errors on a public page once its worker controls it', async () => {
    // Page.getInstallabilityErrors is the check behind Lighthouse's former installable-manifest audit
    // (Lighthouse 12 dropped its PWA category): manifest fields, icons, a service worker with a fetch handler.
    const { page, context, errors } = await appPage();
    try {
      await page.goto('/quiz/stockholm');
      await controlled(page);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> };
      // 'in-incognito': every Playwright context is a fresh, non-persistent (incognito) profile; nothing else may be reported.
      expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a visited city page reopens offline with "Du är offline – visar sparad information från …"; the SPA and /api are never stored', async () => {
    const { page, context, errors } = await appPage({ allowConsoleErrors: /ERR_INTERNET_DISCONNECTED|Failed to load resource/ });
    try {
      await page.goto('/quiz/stockholm');
      await controlled(page);
      await page.getByRole('heading', { name: 'Quiz i Stockholm', level: 1 }).waitFor();
      const cardsOnline = await page.locator('article').count();
      expect(cardsOnline).toBeGreaterThan(0);
      // The first visit's page was handed to the worker (CACHE_URLS): wait until it is stored.
      await expect
        .poll(() => page.evaluate(async () => (await caches.match('/quiz/stockholm', { ignoreVary: true })) !== undefined), { timeout: 15_000 })
        .toBe(true);

      await context.setOffline(true);
      await page.reload();
      const note = page.getByRole('status').filter({ hasText: 'Du är offline' });
      await note.waitFor();
      expect(await note.textContent()).toMatch(/^Du är offline – visar sparad information från \d{1,2} \p{L}+ \d{2}:\d{2}$/u);
      await page.getByRole('heading', { name: 'Quiz i Stockholm', level: 1 }).waitFor();
      expect(await page.locator('article').count()).toBe(cardsOnline);

      // A public page never opened: the offline page, not the browser's error; it lists the pages that do open (issue 44.9).
      await page.goto('/quiz/goteborg');
      await page.getByRole('heading', { name: 'Du är offline' }).waitFor();
      const visited = page.getByRole('region', { name: 'Sidor du har besökt' });
      await visited.waitFor();
      const link = visited.getByRole('link', { name: 'Quiz i Stockholm' });
      expect(await link.getAttribute('href')).toBe('/quiz/stockholm');
      expect(await visited.getByRole('listitem').first().textContent()).toMatch(/ – sparad \d{1,2} \p{L}+ \d{2}:\d{2}$/u);
      // "Tipsa om ett quiz", "Logga in" and "Skapa konto", linked from every public page: the offline page too.
      for (const path of ['/tipsa', '/login', '/register']) {
        await page.goto(path);
        await page.getByRole('heading', { name: 'Du är offline' }).waitFor();
      }
      // Its links open: back to the stored city page.
      await page.getByRole('region', { name: 'Sidor du har besökt' }).getByRole('link', { name: 'Quiz i Stockholm' }).click();
      await page.getByRole('heading', { name: 'Quiz i Stockholm', level: 1 }).waitFor();
      await context.setOffline(false);

      // Nothing personal or from the API was stored: only public pages and hashed files.
      const stored = await page.evaluate(async () => {
        const urls: string[] = [];
        for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
        return urls;
      });
      expect(stored.filter((p) => p.startsWith('/api/') || p.startsWith('/konto') || p.startsWith('/admin') || p.startsWith('/bevakningar'))).toEqual([]);
      expect(stored).toContain('/quiz/stockholm');
      expect(errors.filter((e) => !/offline|ERR_/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a new build waits and is offered as "Ny version finns – ladda om"; "Ladda om" switches to it', async () => {
    const { page, context } = await appPage();
    try {
      await page.goto('/quiz/stockholm');
      await controlled(page);
      // A new build: another worker script for the same scope installs and waits beside the active one.
      await page.evaluate(() => navigator.serviceWorker.register('/sw.js?build=next', { scope: '/' }));
      const bar = page.getByRole('status').filter({ hasText: 'Ny version finns – ladda om' });
      await bar.waitFor({ timeout: 30_000 });
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
      await Promise.all([page.waitForEvent('load'), bar.getByRole('button', { name: 'Ladda om' }).click()]);
      await page.waitForFunction(() => navigator.serviceWorker.controller?.scriptURL.endsWith('/sw.js?build=next'), undefined, { timeout: 30_000 });
    } finally {
      await context.close();
    }
  });

  it('"Lägg till på hemskärmen" is never offered on the first visit, quietly from the second; "Inte nu" is remembered', async () => {
    const { page, context } = await appPage();
    // Chromium fires beforeinstallprompt only for a real install; the story fires it as Chromium would.
    const offerInstall = () =>
      page.evaluate(() => {
        const e = new Event('beforeinstallprompt', { cancelable: true }) as Event & { prompt?: () => Promise<void> };
        e.prompt = async () => undefined;
        window.dispatchEvent(e);
      });
    const hint = page.getByRole('button', { name: 'Lägg till på hemskärmen' });
    try {
      await page.goto('/quiz/stockholm');
      await controlled(page);
      await offerInstall();
      expect(await hint.count()).toBe(0);

      await page.reload();
      await page.waitForSelector('html[data-sw="registered"]');
      await offerInstall();
      await hint.waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      await page.getByRole('button', { name: 'Inte nu' }).click();
      await hint.waitFor({ state: 'hidden' });

      await page.reload();
      await page.waitForSelector('html[data-sw="registered"]');
      await offerInstall();
      expect(await hint.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('"Påminn mig i telefonen" asks for permission only after the tap and stores the subscription; "Sluta påminna i telefonen" removes it', async () => {
    const { page, context, errors } = await appPage();
    try {
      await stubPush(page, 'https://fcm.googleapis.com/fcm/send/e2e');
      await registerVerifiedOwner(page);
      const post = async (path: string, data: unknown) => {
        const r = await page.request.post(path, { data, headers: { origin: baseURL() } });
        if (!r.ok()) throw new Error(`${path}: ${r.status()} ${await r.text()}`);
        return (await r.json()) as { id: string; follow?: { id: string; label: string } };
      };
      const venue = await post('/api/owner/venues', { name: `Pushpuben ${stamp()}` });
      const place = await post(`/api/owner/venues/${venue.id}/locations`, { name: 'Pushpuben', address: 'Storgatan 2', city: STORY_TOWNS.pwa });
      const { follow } = await post('/api/follows', { placeId: place.id });

      await page.goto('/account');
      const enable = page.getByRole('button', { name: `Påminn mig i telefonen: ${follow!.label}` });
      await enable.waitFor();
      expect(await page.evaluate(() => (window as unknown as { __asks: number }).__asks)).toBe(0);
      await enable.click();
      await page.getByRole('status').filter({ hasText: 'Klart! Vi påminner dig i telefonen på quizdagar.' }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { __asks: number }).__asks)).toBe(1);
      const pushed = async () => ((await (await page.request.get('/api/follows/push')).json()) as { followIds: string[] }).followIds;
      expect(await pushed()).toEqual([follow!.id]);

      await page.getByRole('button', { name: `Sluta påminna i telefonen: ${follow!.label}` }).click();
      await enable.waitFor();
      expect(await pushed()).toEqual([]);

      // A followed search pushes too (its new quizzes, with the Monday digest), and says so.
      const search = (await post('/api/follows', { filters: { city: 'stockholm', q: 'musik' } })).follow!;
      await page.reload();
      await page.getByRole('button', { name: `Påminn mig i telefonen: ${search.label}` }).click();
      await page.getByRole('status').filter({ hasText: 'Klart! Vi meddelar dig i telefonen när det kommer nya quiz som passar sökningen.' }).waitFor();
      expect(await pushed()).toEqual([search.id]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
  it('without an account: after confirming, the signed "Mina bevakningar" link offers "Påminn mig i telefonen"; "Sluta påminna i telefonen" ends it; the list opens offline', async () => {
    const owner = await appPage();
    const { page, context, errors } = await appPage({ allowConsoleErrors: /ERR_INTERNET_DISCONNECTED|Failed to load resource/ });
    try {
      await registerVerifiedOwner(owner.page);
      const name = `Telefonpuben ${stamp()}`;
      const place = await ownersPlace(owner.page, name, STORY_TOWNS.pwa);
      const email = uniqueEmail('push');
      const follow = await page.request.post('/api/follows', { data: { placeId: place.id, email }, headers: { origin: baseURL() } });
      expect(follow.status()).toBe(202);
      const confirmMail = await waitForMail(email, 'Bekräfta');
      const manage = confirmMail.links.find((l) => /\/bevakningar\?t=/.test(l))!;
      expect(manage).toBeTruthy();

      await stubPush(page, `https://fcm.googleapis.com/fcm/send/${stamp()}`);
      // Before confirming, nothing is offered.
      await page.goto(manage);
      await page.getByRole('heading', { name: 'Mina bevakningar', level: 1 }).waitFor();
      expect(await page.getByRole('button', { name: /^Påminn mig i telefonen/ }).count()).toBe(0);

      await page.goto(confirmMail.links.find((l) => l.includes('/bevakningar/bekrafta'))!);
      await page.getByRole('button', { name: 'Bekräfta bevakningen' }).click();
      await page.getByRole('heading', { name: 'Bevakningen är bekräftad', level: 1 }).waitFor();

      await page.goto(manage);
      const enable = page.getByRole('button', { name: `Påminn mig i telefonen: ${name}, ${STORY_TOWNS.pwa}` });
      await enable.waitFor();
      expect(await asks(page)).toBe(0);
      await Promise.all([page.waitForURL(manage, { waitUntil: 'load' }), enable.click()]);
      const disable = page.getByRole('button', { name: `Sluta påminna i telefonen: ${name}, ${STORY_TOWNS.pwa}` });
      await disable.waitFor({ timeout: 30_000 });
      expect(await enable.count()).toBe(0);

      await disable.click();
      await enable.waitFor();
      expect(await disable.count()).toBe(0);

      // Offline: the list as this browser kept it (never the service worker's cache).
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
      await context.setOffline(true);
      await page.goto(manage);
      await page.getByRole('heading', { name: 'Du är offline', level: 1 }).waitFor();
      expect(await page.getByRole('status').filter({ hasText: 'Du är offline' }).textContent()).toMatch(
        /^Du är offline – visar sparad information från \d{1,2} \p{L}+ \d{2}:\d{2}$/u,
      );
      await page
        .getByRole('region', { name: 'Mina bevakningar' })
        .getByRole('link', { name: `${name}, ${STORY_TOWNS.pwa}` })
        .waitFor();
      await context.setOffline(false);
      expect(errors.filter((e) => !/offline|ERR_/.test(e))).toEqual([]);
    } finally {
      await owner.context.close();
      await context.close();
    }
  });

  it('signed in: "Mina bevakningar" and a quiz added to the calendar open offline with the note; logout forgets them', async () => {
    const { page, context, errors } = await appPage({ allowConsoleErrors: /ERR_INTERNET_DISCONNECTED|Failed to load resource/ });
    try {
      await registerVerifiedOwner(page);
      const name = `Offlinepuben ${stamp()}`;
      const place = await ownersPlace(page, name, STORY_TOWNS.pwaOffline);
      expect((await page.request.post('/api/follows', { data: { placeId: place.id }, headers: { origin: baseURL() } })).status()).toBe(201);

      await page.goto('/quiz/stockholm');
      await controlled(page);
      const card = page.locator('article').first();
      const quizLabel = JSON.parse((await card.locator('[data-saved-quiz]').first().getAttribute('data-saved-quiz'))!) as { label: string };
      await card.getByText('Lägg till i kalender').first().click();
      await card.getByRole('link', { name: 'Kalenderfil (.ics)' }).first().click();
      await expect.poll(() => page.evaluate(() => localStorage.getItem('qk_offline_calendar'))).toContain(quizLabel.label.slice(0, 10));

      await page.goto('/account');
      await page.getByRole('button', { name: `Ta bort bevakningen ${name}, ${STORY_TOWNS.pwaOffline}` }).waitFor();
      await expect.poll(() => page.evaluate(() => localStorage.getItem('qk_offline_follows'))).toContain(name);

      await context.setOffline(true);
      await page.goto('/account');
      await page.getByRole('heading', { name: 'Du är offline', level: 1 }).waitFor();
      expect(await page.getByRole('status').filter({ hasText: 'Du är offline' }).textContent()).toMatch(
        /^Du är offline – visar sparad information från \d{1,2} \p{L}+ \d{2}:\d{2}$/u,
      );
      await page
        .getByRole('region', { name: 'Mina bevakningar' })
        .getByRole('link', { name: `${name}, ${STORY_TOWNS.pwaOffline}` })
        .waitFor();
      await page.getByRole('region', { name: 'I min kalender' }).getByText(quizLabel.label, { exact: false }).waitFor();
      await context.setOffline(false);

      // Nothing personal went into the service worker's cache.
      const stored = await page.evaluate(async () => {
        const urls: string[] = [];
        for (const n of await caches.keys()) for (const req of await (await caches.open(n)).keys()) urls.push(new URL(req.url).pathname);
        return urls;
      });
      expect(stored.filter((p) => p.startsWith('/api/') || p === '/account' || p.startsWith('/bevakningar'))).toEqual([]);

      // A session gone without "Logga ut" (expired, or ended elsewhere): the next page that asks for it forgets the
      // account's list, so the next person on a shared phone does not read it offline.
      const cookies = await context.cookies();
      await context.clearCookies();
      await page.goto('/account');
      await expect.poll(() => page.evaluate(() => localStorage.getItem('qk_offline_follows'))).toBeNull();
      await context.addCookies(cookies);

      await page.goto('/account');
      await Promise.all([page.waitForURL((u) => u.pathname === '/'), logoutViaHeader(page)]);
      expect(await page.evaluate(() => [localStorage.getItem('qk_offline_follows'), localStorage.getItem('qk_offline_calendar')])).toEqual([null, null]);
      expect(errors.filter((e) => !/offline|ERR_/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
