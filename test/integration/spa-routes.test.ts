/**
 * Real 404s (issue 29.10): a path that is neither a Worker route, a static file nor a screen of the SPA
 * answers 404 with the SPA's page (its router shows 'Ops! Sidan hittades inte'); every screen of the SPA
 * and every public page keeps 200. The SPA's screens come from the one list the router builds from
 * (worker/lib/spa-routes.ts), so a new screen is covered here without editing this table.
 */
import { describe, expect, it } from 'vitest';
import { SPA_ROUTE_PATHS } from '../../worker/lib/spa-routes';
import { call } from '../factories';

const CLOCK = '2030-01-07T10:00:00Z';

/** A concrete path for a route pattern (':id' → a made-up id: the screen itself says if it is unknown). */
const concrete = (pattern: string) => pattern.replace(/:[A-Za-z]+/g, 'abc123');

describe('status of SPA paths', () => {
  it.each([...SPA_ROUTE_PATHS.map(concrete), '/login/', '/verify?token=x', '/admin?payment=success'])('%s → 200 with the app shell', async (path) => {
    const res = await call(path, { clock: CLOCK });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    await res.text();
  });

  it.each(['/finns-inte-alls', '/admin/finns-inte', '/login/extra', '/edit-quiz', '/edit-quiz/abc/def', '/superadmin/x', '/Login', '/dev-nope'])(
    '%s → 404 with the app shell',
    async (path) => {
      const res = await call(path, { clock: CLOCK });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-store');
      await res.text();
    },
  );

  it.each(['/', '/robots.txt', '/sitemap.xml', '/annonsera'])('public page %s keeps its own answer (not 404)', async (path) => {
    const res = await call(path, { clock: CLOCK });
    expect(res.status).not.toBe(404);
    await res.text();
  });

  it('an unknown API path stays a JSON 404', async () => {
    const res = await call('/api/finns-inte-alls', { clock: CLOCK });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'Resursen hittades inte.' } });
  });
});
