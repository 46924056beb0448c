/**
 * Share cards (issue 16): every public page names a 1200×630 PNG rendered by the Worker (satori +
 * resvg-wasm) as og:image / twitter:card; the bytes are checked, not just the headers.
 */
import { describe, expect, it } from 'vitest';
import { bumpDataVersion } from '../../worker/lib/data-version';
import { slugify } from '../../worker/lib/slug';
import { call, createLocation, createQuiz, createUser, createVenue, testDb, unique } from '../factories';

const CLOCK = '2030-01-07T10:00:00Z';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from the IHDR chunk (PNG spec §11.2.2: signature, length, "IHDR", then two big-endian uint32). */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.slice(0, 8)]).toEqual(PNG_SIGNATURE);
  expect(new TextDecoder().decode(bytes.slice(12, 16))).toBe('IHDR');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

async function image(path: string) {
  const res = await call(path, { clock: CLOCK });
  return { res, status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function world(venueName?: string) {
  const owner = await createUser();
  const tag = unique('o');
  const city = `Örebro ${tag}`;
  const venue = await createVenue(owner.id, { name: venueName ?? `Bildpuben ${tag}`, slug: `bildpuben-${tag}` });
  const location = await createLocation(venue.id, { city });
  await createQuiz(location.id, { date: '2030-01-08', startTime: '19:30:00' });
  await bumpDataVersion(testDb());
  return { venue, citySlug: slugify(city) };
}

function metaContent(html: string, attr: 'property' | 'name', key: string): string | null {
  const m = new RegExp(`<meta ${attr}="${key}" content="([^"]*)">`).exec(html);
  return m ? m[1]!.replace(/&amp;/g, '&') : null;
}

describe('share images', () => {
  it('start, city, weekday, city + weekday and venue cards are 1200×630 PNGs, edge-cached', async () => {
    const w = await world();
    for (const path of ['/og/start.png', `/og/city/${w.citySlug}.png`, '/og/weekday/tisdag.png', `/og/city/${w.citySlug}/tisdag.png`, `/og/venue/${w.citySlug}/${w.venue.slug}.png`]) {
      const { res, status, bytes } = await image(path);
      expect(status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('image/png');
      expect(res.headers.get('x-og-fallback'), `${path} rendered, not the fallback`).toBeNull();
      expect(pngSize(bytes), path).toEqual({ width: 1200, height: 630 });
      const again = await call(path, { clock: CLOCK });
      expect(again.headers.get('x-cache'), path).toBe('HIT');
      expect(again.headers.get('etag'), path).toBeTruthy();
      await again.arrayBuffer();
    }
  });

  it('a hostile venue name is drawn as text (a rendered PNG, not an error or the fallback)', async () => {
    const w = await world(`<img src=x onerror=alert(1)> "Bar" & </script><script>alert(1)</script> 🍺 ${'lång '.repeat(30)}`);
    const { status, res, bytes } = await image(`/og/venue/${w.citySlug}/${w.venue.slug}.png`);
    expect(status).toBe(200);
    expect(res.headers.get('x-og-fallback')).toBeNull();
    expect(pngSize(bytes)).toEqual({ width: 1200, height: 630 });
  });

  it('unknown pages answer 404, never a 5xx', async () => {
    const w = await world();
    for (const path of ['/og/city/no-such-city.png', '/og/weekday/blurgdag.png', `/og/city/${w.citySlug}/blurgdag.png`, `/og/venue/${w.citySlug}/no-such-venue.png`, `/og/city/${w.citySlug}.jpg`]) {
      const r = await call(path, { clock: CLOCK });
      expect(r.status, path).toBe(404);
      await r.arrayBuffer();
    }
  });

  it('every public page names its card: og:image (1200×630 PNG that renders) and twitter:card summary_large_image', async () => {
    const w = await world(`Bar "<script>alert(1)</script>" & Co ${unique('h')}`);
    const pages: Array<[string, string]> = [
      ['/', '/og/start.png'],
      [`/stad/${w.citySlug}`, `/og/city/${w.citySlug}.png`],
      [`/quiz/${w.citySlug}`, `/og/city/${w.citySlug}.png`],
      ['/quiz/tisdag', '/og/weekday/tisdag.png'],
      [`/quiz/${w.citySlug}/tisdag`, `/og/city/${w.citySlug}/tisdag.png`],
      [`/quiz/${w.citySlug}-tisdag`, `/og/city/${w.citySlug}/tisdag.png`],
      [`/quiz/${w.citySlug}/${w.venue.slug}`, `/og/venue/${w.citySlug}/${w.venue.slug}.png`],
    ];
    for (const [path, og] of pages) {
      const res = await call(path, { clock: CLOCK });
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(metaContent(html, 'property', 'og:image'), path).toBe(`http://localhost${og}`);
      expect(metaContent(html, 'name', 'twitter:card'), path).toBe('summary_large_image');
      expect(metaContent(html, 'name', 'twitter:image'), path).toBe(`http://localhost${og}`);
      const img = await image(og);
      expect(img.status, og).toBe(200);
      expect(pngSize(img.bytes), og).toEqual({ width: 1200, height: 630 });
    }
    // The hostile venue name reaches the head only escaped.
    const venueHtml = await (await call(`/quiz/${w.citySlug}/${w.venue.slug}`, { clock: CLOCK })).text();
    const head = venueHtml.slice(0, venueHtml.indexOf('</head>'));
    expect(head).not.toContain('<script>alert(1)');
    expect(head).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
