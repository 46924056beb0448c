/**
 * The embeddable widget (issue 16): /embed/{city}/{venue} and /embed/{city} may be framed by any site,
 * every other path keeps X-Frame-Options DENY and frame-ancestors 'none'; no cookies; hostile names inert.
 */
import { describe, expect, it } from 'vitest';
import { bumpDataVersion } from '../../worker/lib/data-version';
import { slugify } from '../../worker/lib/slug';
import { call, createLocation, createQuiz, createUser, createVenue, testDb, unique, uniqueTown } from '../factories';

const CLOCK = '2030-01-07T10:00:00Z';
const XSS = `<script>alert(1)</script><img src=x onerror=alert(1)>"'&`;

async function world(venueName?: string) {
  const owner = await createUser();
  const tag = unique('e');
  const city = uniqueTown({ nonAscii: true });
  const venue = await createVenue(owner.id, { name: venueName ?? `Inbäddat ${tag}`, slug: `inbaddat-${tag}` });
  const location = await createLocation(venue.id, { city });
  const dates = ['2030-01-06', '2030-01-08', '2030-01-09', '2030-01-10', '2030-01-11', '2030-01-12', '2030-01-13', '2030-01-14'];
  for (const d of dates) await createQuiz(location.id, { date: d, startTime: '19:00:00', title: `Quiz ${d}`, price: 30 });
  await bumpDataVersion(testDb());
  return { owner, venue, location, citySlug: slugify(city), city };
}

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await call(path, { clock: CLOCK, headers });
  return { res, status: res.status, html: await res.text() };
}

describe('embed widget', () => {
  it('venue widget: next 5 quizzes (past dropped), link back to the venue page, framable by anyone, no cookie', async () => {
    const w = await world();
    const { res, status, html } = await get(`/embed/${w.citySlug}/${w.venue.slug}`);
    expect(status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('x-frame-options')).toBeNull();
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain("default-src 'none'");
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(html).not.toContain('<script');
    const titles = [...html.matchAll(/Quiz (2030-01-\d\d)/g)].map((m) => m[1]);
    expect(titles).toEqual(['2030-01-08', '2030-01-09', '2030-01-10', '2030-01-11', '2030-01-12']);
    expect(html).toContain(`href="http://localhost/quiz/${w.citySlug}/${w.venue.slug}"`);
    expect(html).toContain('<base target="_blank">');
  });

  it('city widget lists venues; ?theme=dark and ?compact=1 change the rendering and are cached apart', async () => {
    const w = await world();
    const light = await get(`/embed/${w.citySlug}`);
    expect(light.status).toBe(200);
    expect(light.html).toContain(w.venue.name);
    expect(light.html).toContain('background:#ffffff');
    expect(light.html).toContain('Allmänbildning · 30 kr');
    const dark = await get(`/embed/${w.citySlug}?theme=dark`);
    expect(dark.html).toContain('background:#0f172a');
    const compact = await get(`/embed/${w.citySlug}?compact=1`);
    expect(compact.html).not.toContain('Allmänbildning · 30 kr');
    const again = await get(`/embed/${w.citySlug}?theme=dark`);
    expect(again.res.headers.get('x-cache')).toBe('HIT');
    expect(again.html).toBe(dark.html);
  });

  it('XSS payloads in names and titles are inert text', async () => {
    const w = await world(`Bar ${XSS} ${unique('x')}`);
    await createQuiz(w.location.id, { date: '2030-01-07', title: XSS });
    await bumpDataVersion(testDb());
    for (const path of [`/embed/${w.citySlug}/${w.venue.slug}`, `/embed/${w.citySlug}`]) {
      const { html } = await get(path);
      expect(html, path).not.toContain('<script>alert');
      expect(html, path).not.toContain('<img');
      expect(html, path).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    }
  });

  it('unknown city or venue and hidden businesses answer 404', async () => {
    const w = await world();
    const hiddenOwner = await createUser();
    const hidden = await createVenue(hiddenOwner.id, { isPublic: false });
    await createQuiz((await createLocation(hidden.id, { city: w.city })).id, { date: '2030-01-08', title: 'Hemligt quiz' });
    for (const path of ['/embed/no-such-city', `/embed/${w.citySlug}/no-such-venue`, `/embed/${w.citySlug}/${hidden.slug}`]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.res.headers.get('set-cookie'), path).toBeNull();
    }
    expect((await get(`/embed/${w.citySlug}`)).html).not.toContain('Hemligt quiz');
  });

  it('framing headers per path: only /embed/* may be framed, every other page keeps DENY', async () => {
    const w = await world();
    for (const path of [
      '/',
      `/quiz/${w.citySlug}`,
      `/quiz/${w.citySlug}/${w.venue.slug}`,
      '/api/health',
      '/api/listing',
      `/og/city/${w.citySlug}.png`,
      `/api/calendar/city/${w.citySlug}.ics`,
      '/embed',
      '/embedded/x',
      '/admin',
    ]) {
      const { res } = await get(path);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('content-security-policy') ?? '', path).toContain("frame-ancestors 'none'");
    }
  });
});
