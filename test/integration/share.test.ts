/**
 * Share cards (issue 16): every public page names a 1200×630 PNG rendered by the Worker (satori +
 * resvg-wasm) as og:image / twitter:card; the bytes are checked, not just the headers, and what a card
 * says is read from the render itself (x-og-text: the texts satori laid out, development/test only).
 * Issue 26.4: unknown query parameters never miss the cache, a rendered card is kept in R2 and reused
 * until its content changes, and renders are limited per client.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bumpDataVersion } from '../../worker/lib/data-version';
import { slugify } from '../../worker/lib/slug';
import { OG_RENDER_CLIENT_LIMIT } from '../../worker/features/share/store';
import { call, createLocation, createQuiz, createUser, createVenue, randomClientIp, testDb, unique, uniqueTown } from '../factories';

const CLOCK = '2030-01-07T10:00:00Z';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from the IHDR chunk (PNG spec §11.2.2: signature, length, "IHDR", then two big-endian uint32). */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.slice(0, 8)]).toEqual(PNG_SIGNATURE);
  expect(new TextDecoder().decode(bytes.slice(12, 16))).toBe('IHDR');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

async function image(path: string, client?: string) {
  const res = await call(path, { clock: CLOCK, ...(client ? { headers: { 'cf-connecting-ip': client } } : {}) });
  return { res, status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** The texts a render drew (x-og-text), or null when the PNG did not come from a render by this request. */
function drawnTexts(res: Response): string[] | null {
  const h = res.headers.get('x-og-text');
  return h === null ? null : (JSON.parse(decodeURIComponent(h)) as string[]);
}

/** Deletes the stored PNGs of a card (any content), so its next miss renders: for cards all tests share (start, weekday). */
async function forgetStored(prefix: string) {
  const listed = await env.CARDS.list({ prefix });
  if (listed.objects.length) await env.CARDS.delete(listed.objects.map((o) => o.key));
}

async function world(venueName?: string) {
  const owner = await createUser();
  const tag = unique('o');
  const city = uniqueTown({ nonAscii: true });
  const venue = await createVenue(owner.id, { name: venueName ?? `Bildpuben ${tag}`, slug: `bildpuben-${tag}` });
  const location = await createLocation(venue.id, { city });
  await createQuiz(location.id, { date: '2030-01-08', startTime: '19:30:00', title: `Tisdagsquiz ${tag}` });
  await bumpDataVersion(testDb());
  return { venue, location, city, citySlug: slugify(city), tag };
}

function metaContent(html: string, attr: 'property' | 'name', key: string): string | null {
  const m = new RegExp(`<meta ${attr}="${key}" content="([^"]*)">`).exec(html);
  return m ? m[1]!.replace(/&amp;/g, '&') : null;
}

describe('share images', () => {
  it('start, city, weekday, city + weekday and venue cards are 1200×630 PNGs, edge-cached', async () => {
    const w = await world();
    for (const path of [
      '/og/start.png',
      `/og/city/${w.citySlug}.png`,
      '/og/weekday/tisdag.png',
      `/og/city/${w.citySlug}/tisdag.png`,
      `/og/venue/${w.citySlug}/${w.venue.slug}.png`,
    ]) {
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

  it('a card says what its page is: title, kicker and the next date of each kind of card', async () => {
    const w = await world();
    const cityName = w.city;
    const expected: Array<[string, string[]]> = [
      [`/og/venue/${w.citySlug}/${w.venue.slug}.png`, ['Quizkväll', `Quiz i ${cityName}`, w.venue.name, `tis 8 jan 19:30 · Tisdagsquiz ${w.tag}`]],
      [`/og/city/${w.citySlug}.png`, ['Quizkväll', 'Pubquiz och quizkvällar', `Quiz i ${cityName}`, `tis 8 jan 19:30 · ${w.venue.name}`]],
      [`/og/city/${w.citySlug}/tisdag.png`, ['Quizkväll', 'Pubquiz tisdagskväll', `Quiz på tisdag i ${cityName}`, `tis 8 jan 19:30 · ${w.venue.name}`]],
      [`/og/city/${w.citySlug}/onsdag.png`, ['Quizkväll', 'Pubquiz onsdagskväll', `Quiz på onsdag i ${cityName}`, 'Hitta nästa quizkväll på quizkvall.se']],
      ['/og/weekday/tisdag.png', ['Quizkväll', 'Pubquiz i hela Sverige', 'Quiz på tisdag']],
      ['/og/start.png', ['Quizkväll', 'Pubquiz och quizkvällar i hela Sverige', 'Hitta kvällens quiz']],
    ];
    await forgetStored('t1/start/');
    await forgetStored('t1/weekday/tisdag/');
    for (const [path, says] of expected) {
      const { res, status } = await image(path);
      expect(status, path).toBe(200);
      expect(res.headers.get('x-og-source'), path).toBe('render');
      const texts = drawnTexts(res);
      expect(texts, path).not.toBeNull();
      for (const line of says) expect(texts, `${path} draws ${line}`).toContain(line);
    }
  });

  it('a hostile venue name is drawn as text (a rendered PNG, not an error or the fallback)', async () => {
    const hostile = `<img src=x onerror=alert(1)> "Bar" & </script><script>alert(1)</script> 🍺`;
    const w = await world(`${hostile} ${'lång '.repeat(30)}`);
    const { status, res, bytes } = await image(`/og/venue/${w.citySlug}/${w.venue.slug}.png`);
    expect(status).toBe(200);
    expect(res.headers.get('x-og-fallback')).toBeNull();
    expect(pngSize(bytes)).toEqual({ width: 1200, height: 630 });
    // Drawn literally (clipped to 70 characters with an ellipsis), not interpreted.
    const title = drawnTexts(res)!.find((t) => t.startsWith('<img'));
    expect(title).toBe(`${`${hostile} ${'lång '.repeat(30)}`.slice(0, 69)}…`);
  });

  it('unknown query parameters never reach the cache key: ?x=1 is an edge-cache hit, not a render', async () => {
    const w = await world();
    const path = `/og/city/${w.citySlug}.png`;
    const first = await image(path);
    expect(first.res.headers.get('x-cache')).toBe('MISS');
    for (const q of ['?x=1', '?utm_source=fb&fbclid=abc', `?x=${unique('r')}`]) {
      const again = await image(`${path}${q}`);
      expect(again.status, q).toBe(200);
      expect(again.res.headers.get('x-cache'), q).toBe('HIT');
      expect(again.bytes, q).toEqual(first.bytes);
    }
  });

  it('a rendered card is stored in R2: a data-version bump that does not change it reuses it; a change renders anew', async () => {
    const w = await world();
    const path = `/og/venue/${w.citySlug}/${w.venue.slug}.png`;
    const first = await image(path);
    expect(first.res.headers.get('x-og-source')).toBe('render');
    // Another venue's write bumps the version: the edge cache misses, the card is read from R2, not rendered.
    await world();
    const second = await image(path);
    expect(second.res.headers.get('x-cache')).toBe('MISS');
    expect(second.res.headers.get('x-og-source')).toBe('store');
    expect(drawnTexts(second.res)).toBeNull();
    expect(second.bytes).toEqual(first.bytes);
    // A new quiz at this venue changes what the card says: rendered once more, with the new line.
    await createQuiz(w.location.id, { date: '2030-01-09', startTime: '20:00:00', title: `Onsdagsquiz ${w.tag}` });
    await bumpDataVersion(testDb());
    const third = await image(path);
    expect(third.res.headers.get('x-og-source')).toBe('render');
    expect(drawnTexts(third.res)).toContain(`ons 9 jan 20:00 · Onsdagsquiz ${w.tag}`);
  });

  it(`renders are limited per client (${OG_RENDER_CLIENT_LIMIT} a minute): past the limit a 429; stored and cached cards still answer`, async () => {
    const w = await world();
    const client = randomClientIp();
    const stored = `/og/city/${w.citySlug}.png`;
    expect((await image(stored)).status).toBe(200);
    // This client has used up its renders (the same D1 counter the limit writes).
    const t = new Date(CLOCK).getTime();
    await testDb().run(
      sql`INSERT INTO rate_limits (key, count, window_start, last_attempt) VALUES (${`og-render:${client}`}, ${OG_RENDER_CLIENT_LIMIT}, ${t}, ${t})`,
    );
    const refused = await image(`/og/venue/${w.citySlug}/${w.venue.slug}.png`, client);
    expect(refused.status).toBe(429);
    expect(refused.res.headers.get('retry-after')).toBe('60');
    expect(refused.res.headers.get('cache-control')).toBe('no-store');
    // Another client is not affected, and the refused card is not cached as an error.
    const other = await image(`/og/venue/${w.citySlug}/${w.venue.slug}.png`);
    expect(other.status).toBe(200);
    // A card that needs no render (edge cache, or R2 after a version bump) costs this client nothing.
    expect((await image(stored, client)).status).toBe(200);
    await bumpDataVersion(testDb());
    const fromStore = await image(stored, client);
    expect(fromStore.status).toBe(200);
    expect(fromStore.res.headers.get('x-og-source')).toBe('store');
  });

  it('unknown pages answer 404, never a 5xx', async () => {
    const w = await world();
    for (const path of [
      '/og/city/no-such-city.png',
      '/og/weekday/blurgdag.png',
      `/og/city/${w.citySlug}/blurgdag.png`,
      `/og/venue/${w.citySlug}/no-such-venue.png`,
      `/og/city/${w.citySlug}.jpg`,
    ]) {
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
