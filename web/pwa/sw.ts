/**
 * The service worker (issue 32, docs/features/pwa.md). Built by vite-plugin-pwa (injectManifest) into /sw.js.
 *
 *  - Public pages (the Worker's PUBLIC_PAGE_ROUTES: `/`, `/stad/*`, `/quiz/*`, …; never a signed-link page such as
 *    `/helgdag`): network first; the last good copy of each page a
 *    visitor opened is kept and, without a network, served with the note "Du är offline – visar sparad
 *    information från {tid}" (added to the HTML here, so it shows before any script runs).
 *  - Hashed files under /assets/: cache first (immutable); the public shell is precached.
 *  - A public page never opened, without a network: the precached /offline.html, which lists the pages that do open.
 *  - "Mina bevakningar" (`/account`, `/bevakningar`): network only, never stored; without a network the offline
 *    page, which shows this browser's own copy of the list and of the quizzes added to the calendar
 *    (localStorage under `qk_`, cleared on logout: web/pwa/saved.ts, web/public/offline.js).
 *  - `/tipsa`, `/login`, `/register` (linked from every public page): network only; without a network the offline page.
 *  - Everything else — `/api/*`, every non-GET, the rest of the SPA (owner, superadmin, account tabs), /dev —
 *    is not handled at all: the browser goes to the network as if there were no service worker.
 *  - A response is stored only when it is a 200 that the Worker marked shareable: `Cache-Control` with
 *    `private` or `no-store` (what the Worker sends to a request carrying the session cookie, which the
 *    service worker cannot see) is never stored (isStorable).
 *  - A new build waits until the page says "Ladda om" (message SKIP_WAITING), so a page never runs
 *    against a service worker from another build without asking.
 */
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute, setCatchHandler } from 'workbox-routing';
import { CacheFirst, NetworkFirst, NetworkOnly } from 'workbox-strategies';
import type { WorkboxPlugin } from 'workbox-core/types';
import { CACHED_AT_HEADER, isOfflinePageScreen, isPublicPagePath, isSavedListPath, isStorable, PAGES_CACHE, withOfflineNote } from './policy';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

const ASSETS_CACHE = 'qk-assets-v1';
/** How many public pages are kept (the last opened ones). */
const MAX_PAGES = 30;

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

/** Stores only what the Worker marked shareable, stamped with the time it was stored; keeps the newest MAX_PAGES. */
const pagePolicy: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => {
    if (!isStorable(response)) return null;
    const headers = new Headers(response.headers);
    headers.set(CACHED_AT_HEADER, new Date().toISOString());
    return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
  },
  // Only called when the network failed (network first): the copy gets the offline note.
  cachedResponseWillBeUsed: async ({ cachedResponse }) => (cachedResponse ? withOfflineNote(cachedResponse) : null),
  cacheDidUpdate: async ({ cacheName }) => {
    const cache = await caches.open(cacheName);
    const keys = await cache.keys();
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) await cache.delete(old);
  },
};

const pages = new NetworkFirst({ cacheName: PAGES_CACHE, plugins: [pagePolicy], matchOptions: { ignoreVary: true } });
const assets = new CacheFirst({
  cacheName: ASSETS_CACHE,
  plugins: [{ cacheWillUpdate: async ({ response }) => (isStorable(response) ? response : null) }],
});

const sameOrigin = (url: URL) => url.origin === self.location.origin;
registerRoute(({ request, url }) => request.mode === 'navigate' && sameOrigin(url) && isPublicPagePath(url.pathname), pages);
registerRoute(({ url }) => sameOrigin(url) && url.pathname.startsWith('/assets/'), assets);
// "Mina bevakningar" (account page, signed link): network only, nothing stored; offline, the catch handler's
// offline page shows this browser's own copy of the list (localStorage, web/pwa/saved.ts + offline.js).
registerRoute(({ request, url }) => request.mode === 'navigate' && sameOrigin(url) && isSavedListPath(url.pathname), new NetworkOnly());
// /tipsa, /login, /register (issue 44.9): network only, nothing stored; offline, the offline page instead of the browser's error.
registerRoute(({ request, url }) => request.mode === 'navigate' && sameOrigin(url) && isOfflinePageScreen(url.pathname), new NetworkOnly());

/** A public page never opened, without a network: the precached offline page. */
setCatchHandler(async ({ request }) => (request.mode === 'navigate' ? ((await matchPrecache('/offline.html')) ?? Response.error()) : Response.error()));

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: string; urls?: unknown } | null;
  if (data?.type === 'SKIP_WAITING') {
    void self.skipWaiting();
    return;
  }
  // The page the visitor opened before this worker controlled it (its first visit), and the files it
  // loaded: stored through the same strategies and rules as later visits.
  if (data?.type === 'CACHE_URLS' && Array.isArray(data.urls)) {
    const work = data.urls
      .filter((u): u is string => typeof u === 'string')
      .map((u) => new URL(u, self.location.origin))
      .filter(sameOrigin)
      .map((url) => {
        const request = new Request(url.href, { credentials: 'same-origin' });
        if (isPublicPagePath(url.pathname)) return pages.handle({ request, event }).catch(() => undefined);
        if (url.pathname.startsWith('/assets/')) return assets.handle({ request, event }).catch(() => undefined);
        return undefined;
      });
    event.waitUntil(Promise.all(work));
  }
});

/** Push reminders (worker/features/follows/push.ts reminderNotice): short, Swedish, no personal data. */
interface Notice {
  title: string;
  body: string;
  url: string;
  followId: string;
  tag: string;
}

self.addEventListener('push', (event: PushEvent) => {
  let notice: Notice | null = null;
  try {
    notice = event.data?.json() as Notice;
  } catch {
    notice = null;
  }
  if (!notice?.title) return;
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      icon: '/icons/icon-192.png',
      lang: 'sv',
      data: { url: notice.url, followId: notice.followId },
      actions: [{ action: 'stop', title: 'Sluta påminna' }],
    } as NotificationOptions),
  );
});

self.addEventListener('notificationclick', (event: NotificationEvent) => {
  const data = (event.notification.data ?? {}) as { url?: string; followId?: string };
  event.notification.close();
  if (event.action === 'stop') {
    // "Sluta påminna": this browser's subscription leaves that follow (POST …/push/stop, no session needed).
    event.waitUntil(
      (async () => {
        const sub = await self.registration.pushManager.getSubscription();
        if (!sub || !data.followId) return;
        await fetch(`/api/follows/${encodeURIComponent(data.followId)}/push/stop`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ endpoint: sub.endpoint }),
        });
      })(),
    );
    return;
  }
  // A tap opens the venue page at that quiz (same origin only).
  const url = new URL(data.url ?? '/', self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil(self.clients.openWindow(url.href).then(() => undefined));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});
