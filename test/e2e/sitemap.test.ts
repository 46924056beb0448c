/**
 * Sitemaps at scale (issue 19 §4) through the real server (wrangler dev with the static assets): the
 * index and every child it names answer XML from the Worker — also to a client that prefers HTML, which
 * the assets layer would otherwise answer with the SPA's index.html (wrangler.toml run_worker_first).
 * The content rules (slices, hidden businesses, lastmod) are in test/integration/pages.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { baseURL } from './support/browser';

const HTML_FIRST = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('sitemap index through the real server', () => {
  it('robots.txt → /sitemap.xml → every child is XML with the demo pages', async () => {
    const robots = await (await fetch(`${baseURL()}/robots.txt`)).text();
    expect(robots).toMatch(/^Sitemap: .*\/sitemap\.xml$/m);
    const index = await fetch(`${baseURL()}/sitemap.xml`, { headers: HTML_FIRST });
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('application/xml');
    const children = [...(await index.text()).matchAll(/<sitemap><loc>(.*?)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(children).toContain('/sitemaps/sidor-1.xml');
    expect(children).toContain('/sitemaps/stallen-1.xml');
    const locs: string[] = [];
    for (const path of children) {
      const res = await fetch(`${baseURL()}${path}`, { headers: HTML_FIRST });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain('application/xml');
      const xml = await res.text();
      expect(xml, path).toContain('<urlset');
      locs.push(...[...xml.matchAll(/<loc>(.*?)<\/loc>/g)].map((m) => new URL(m[1]!).pathname));
    }
    for (const p of ['/', '/annonsera', '/quiz/stockholm', '/quiz/tisdag']) expect(locs).toContain(p);
    expect(
      locs.some((p) => /^\/quiz\/stockholm\/(?!mandag|tisdag|onsdag|torsdag|fredag|lordag|sondag)[a-z0-9-]+$/.test(p)),
      'a venue page',
    ).toBe(true);
    const missing = await fetch(`${baseURL()}/sitemaps/stallen-9999.xml`, { headers: HTML_FIRST });
    expect(missing.status).toBe(404);
  });
});
