/**
 * What the service worker may store and how a stored page says it is offline (issue 32). Pure functions,
 * shared by web/pwa/sw.ts and its unit test (web/pwa/policy.test.ts).
 */
import { matchesRoute, PUBLIC_PAGE_ROUTES } from '../../worker/lib/public-pages';

/** Header the service worker adds to a stored page: when it was stored (ISO instant). */
export const CACHED_AT_HEADER = 'x-qk-cached-at';

/** The cache of visited public pages; web/public/offline.js lists it by this name (policy.test.ts checks both agree). */
export const PAGES_CACHE = 'qk-pages-v1';

/**
 * The Worker's public pages (PUBLIC_PAGE_ROUTES, the list its HTTP cache is mounted on) a visitor may reopen
 * offline. Signed-link pages are never on it: their token is personal.
 */
export function isPublicPagePath(path: string): boolean {
  return matchesRoute(PUBLIC_PAGE_ROUTES, path);
}

/**
 * Pages with personal lists ("Mina bevakningar" on the account page and behind its signed link): never stored
 * (network only); without a network the offline page shows this browser's own copy (web/pwa/saved.ts).
 */
export function isSavedListPath(path: string): boolean {
  return path === '/account' || path === '/bevakningar';
}

/**
 * The app's screens a public page's header or footer links to ("Tipsa om ett quiz", "Logga in", "Skapa konto"):
 * network only, never stored; without a network the offline page with the pages that do open (issue 44.9), not
 * the browser's own error.
 */
export function isOfflinePageScreen(path: string): boolean {
  return path === '/tipsa' || path === '/login' || path === '/register';
}

/**
 * A response may be stored only if it is a 200 the Worker marked shareable: no `private`, no `no-store`
 * (the Worker answers `private, no-store` to every request carrying the session cookie, worker/middleware/http-cache.ts),
 * and not an opaque or redirected answer.
 */
export function isStorable(res: Response): boolean {
  if (res.status !== 200 || res.type === 'opaque' || res.redirected) return false;
  const cc = (res.headers.get('cache-control') ?? '').toLowerCase();
  return !cc.includes('private') && !cc.includes('no-store');
}

const TIME = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });

/** "Du är offline – visar sparad information från 27 november 10:15" (Stockholm time of `storedAt`). */
export function offlineNote(storedAt: Date): string {
  return `Du är offline – visar sparad information från ${TIME.format(storedAt).replace(' kl. ', ' ')}`;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The stored page with the offline note as the first thing in <body> (outside #root, so hydration is
 * untouched; inline style, since the page's inlined CSS only holds the classes the server rendered).
 */
export async function withOfflineNote(stored: Response): Promise<Response> {
  if (!(stored.headers.get('content-type') ?? '').includes('text/html')) return stored;
  const at = new Date(stored.headers.get(CACHED_AT_HEADER) ?? '');
  const text = Number.isNaN(at.getTime()) ? 'Du är offline – visar sparad information' : offlineNote(at);
  const note = `<p role="status" data-offline-note style="margin:0;padding:.5rem 1rem;background:#fef3c7;color:#78350f;font:14px/1.4 system-ui,sans-serif;text-align:center">${escapeHtml(text)}</p>`;
  const html = (await stored.text()).replace(/<body([^>]*)>/, (m) => `${m}${note}`);
  const headers = new Headers(stored.headers);
  headers.delete('content-length');
  headers.delete('etag');
  return new Response(html, { status: 200, headers });
}
