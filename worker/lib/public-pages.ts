/**
 * The Worker's public pages (server-rendered, worker/features/pages): the same HTML for every visitor, so the
 * Worker caches them (worker/app.ts mounts `httpCache` on these routes) and the service worker may keep a
 * visitor's last copies for offline use (`isPublicPagePath`, web/pwa/policy.ts). One list for both, in Hono's
 * route syntax ("/x/*" = a path below /x). Never a signed-link page (/helgdag, /bekrafta-quiz, /tipsa/stopp,
 * /bevakningar…): those carry a personal token (test/unit/public-pages.test.ts). No imports: the service worker
 * bundles this file.
 */
export const PUBLIC_PAGE_ROUTES = ['/', '/stad/*', '/quiz/*', '/lag/*', '/legacy', '/annonsera', '/quizmaster/*'] as const;

/** Public files the Worker caches like its pages; not pages, so the service worker does not keep them. */
export const PUBLIC_FILE_ROUTES = ['/sitemap.xml', '/sitemaps/*', '/robots.txt'] as const;

/** True when one of `routes` serves `path` ("/x/*" matches a non-empty path below /x). */
export function matchesRoute(routes: readonly string[], path: string): boolean {
  return routes.some((r) => (r.endsWith('/*') ? path.length > r.length - 1 && path.startsWith(r.slice(0, -1)) : r === path));
}
