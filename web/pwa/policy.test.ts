import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CACHED_AT_HEADER, isOfflinePageScreen, isPublicPagePath, isStorable, offlineNote, PAGES_CACHE, withOfflineNote } from './policy';

describe('service worker policy (issue 32)', () => {
  it('handles only the server-rendered public pages', () => {
    for (const p of ['/', '/stad/stockholm', '/quiz/stockholm', '/quiz/stockholm/tisdag', '/quiz/stockholm/puben', '/legacy', '/annonsera'])
      expect(isPublicPagePath(p), p).toBe(true);
    // Signed-link pages (owner and follow mail) never: test/unit/public-pages.test.ts finds them all.
    for (const p of [
      '/api/listing',
      '/konto',
      '/admin',
      '/bevakningar',
      '/bevakningar/hantera',
      '/helgdag',
      '/bekrafta-quiz',
      '/tipsa/stopp',
      '/login',
      '/dev/mail',
      '/quiz/',
      '/og/x.png',
      '/sitemap.xml',
    ])
      expect(isPublicPagePath(p), p).toBe(false);
  });

  it('the screens linked from every public page show the offline page without a network, and are never stored (issue 44.9)', () => {
    for (const p of ['/tipsa', '/login', '/register']) {
      expect(isOfflinePageScreen(p), p).toBe(true);
      expect(isPublicPagePath(p), p).toBe(false);
    }
    for (const p of ['/tipsa/stopp', '/admin', '/account', '/superadmin', '/', '/quiz/stockholm']) expect(isOfflinePageScreen(p), p).toBe(false);
  });

  it('the offline page lists the cache the service worker keeps pages in', () => {
    expect(readFileSync(new URL('../public/offline.js', import.meta.url), 'utf8')).toContain(`const PAGES_CACHE = '${PAGES_CACHE}';`);
  });

  it('stores only 200s the Worker marked shareable (never private or no-store: a session cookie was sent)', () => {
    const res = (status: number, cc?: string) => new Response('x', { status, headers: cc ? { 'cache-control': cc } : {} });
    expect(isStorable(res(200, 'public, max-age=60, stale-while-revalidate=600'))).toBe(true);
    expect(isStorable(res(200))).toBe(true);
    expect(isStorable(res(200, 'private, no-store'))).toBe(false);
    expect(isStorable(res(200, 'no-store'))).toBe(false);
    expect(isStorable(res(200, 'Private'))).toBe(false);
    expect(isStorable(res(404, 'no-store'))).toBe(false);
    expect(isStorable(res(500))).toBe(false);
  });

  it('says when the stored copy is from, in Stockholm time', () => {
    expect(offlineNote(new Date('2026-11-27T09:15:00Z'))).toBe('Du är offline – visar sparad information från 27 november 10:15');
    expect(offlineNote(new Date('2026-07-01T18:05:00Z'))).toBe('Du är offline – visar sparad information från 1 juli 20:05');
  });

  it('puts the note first in <body>, outside #root, and drops the stored ETag and length', async () => {
    const stored = new Response('<html><body class="a"><div id="root">x</div></body></html>', {
      headers: { 'content-type': 'text/html; charset=utf-8', etag: '"1"', 'content-length': '58', [CACHED_AT_HEADER]: '2026-11-27T09:15:00.000Z' },
    });
    const out = await withOfflineNote(stored);
    const html = await out.text();
    expect(html).toMatch(
      /^<html><body class="a"><p role="status" data-offline-note style="[^"]+">Du är offline – visar sparad information från 27 november 10:15<\/p><div id="root">x<\/div>/,
    );
    expect(out.headers.get('etag')).toBeNull();
    expect(out.headers.get('content-length')).toBeNull();
    const json = new Response('{}', { headers: { 'content-type': 'application/json' } });
    expect(await withOfflineNote(json)).toBe(json);
  });
});
