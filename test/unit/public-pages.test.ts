/**
 * The service worker keeps offline copies of the Worker's public pages only (issue 42 item 5): its list is the
 * Worker's own (PUBLIC_PAGE_ROUTES, on which worker/app.ts mounts the HTTP cache), it holds no signed-link page
 * (every path a signed link in the Worker's source points at: `…/path?t=`), and every route on it is a page the
 * Worker serves to any visitor (a `PUBLIC(200)` GET of the authorization table, read as text like
 * run-worker-first.test.ts does).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPublicPagePath } from '../../web/pwa/policy';
import { matchesRoute, PUBLIC_FILE_ROUTES, PUBLIC_PAGE_ROUTES } from '../../worker/lib/public-pages';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
}

/** Every page a signed link of the Worker opens: `${appUrl}/helgdag?t=…` and the like. */
function signedLinkPages(): string[] {
  const found = sources('worker').flatMap((text) => [...text.matchAll(/\}(\/[a-z0-9/-]+)\?t=/g)].map((m) => m[1]!));
  return [...new Set(found)].sort();
}

/** The Worker's GET routes (route parameters as one segment "x"), and whether a visitor gets 200 (`PUBLIC(200)`). */
function getRoutes(): Array<{ path: string; public: boolean }> {
  const table = readFileSync(join(root, 'test', 'integration', 'security', 'route-table.ts'), 'utf8');
  return [...table.matchAll(/^\s*'GET (\/[^' ]*)'\s*:\s*\{([^\n]*)/gm)].map((m) => ({
    path: m[1]!.replace(/:[a-zA-Z]+/g, 'x'),
    public: /expect: PUBLIC\(200\)/.test(m[2]!),
  }));
}

describe('the service worker keeps only public pages (PUBLIC_PAGE_ROUTES)', () => {
  it('finds the signed-link pages in the Worker (the scan is not blind)', () => {
    const pages = signedLinkPages();
    expect(pages).toEqual(expect.arrayContaining(['/helgdag', '/bekrafta-quiz', '/tipsa/stopp', '/bevakningar', '/bevakningar/avsluta']));
  });

  it('holds no signed-link page, nor anything below one', () => {
    for (const page of signedLinkPages()) {
      expect(isPublicPagePath(page), page).toBe(false);
      expect(isPublicPagePath(`${page}/x`), `${page}/x`).toBe(false);
      expect(matchesRoute([...PUBLIC_PAGE_ROUTES, ...PUBLIC_FILE_ROUTES], page), page).toBe(false);
    }
  });

  it('holds only pages the Worker serves to every visitor', () => {
    const routes = getRoutes();
    expect(routes.length).toBeGreaterThan(50);
    // Each route of the list serves at least one public page of the Worker …
    for (const route of PUBLIC_PAGE_ROUTES)
      expect(
        routes.filter((r) => r.public && matchesRoute([route], r.path)),
        route,
      ).not.toEqual([]);
    // … and no other GET route of the Worker is on it.
    const kept = routes.filter((r) => isPublicPagePath(r.path));
    expect(kept.filter((r) => !r.public)).toEqual([]);
    for (const p of ['/login', '/account', '/admin', '/superadmin', '/tipsa', '/api/listing', '/og/start.png', '/embed/stockholm', '/dev/mail'])
      expect(isPublicPagePath(p), p).toBe(false);
  });

  it('is the Worker HTTP cache list: worker/app.ts mounts httpCache on exactly these routes', () => {
    const app = readFileSync(join(root, 'worker', 'app.ts'), 'utf8');
    expect(app).toMatch(/for \(const path of \[\.\.\.PUBLIC_PAGE_ROUTES, \.\.\.PUBLIC_FILE_ROUTES\]\) app\.use\(path, httpCache\);/);
  });

  it('matches a route the way Hono does for "/x/*", and "/" only exactly', () => {
    expect(matchesRoute(['/quiz/*'], '/quiz/stockholm')).toBe(true);
    expect(matchesRoute(['/quiz/*'], '/quiz/')).toBe(false);
    expect(matchesRoute(['/quiz/*'], '/quizzes')).toBe(false);
    expect(matchesRoute(['/'], '/x')).toBe(false);
  });
});
