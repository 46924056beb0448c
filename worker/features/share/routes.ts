import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { withEdgeCache } from '../../lib/cache';
import { notFound } from '../../lib/errors';
import { ShareCard } from './card';
import fallbackPng from './fallback.png';
import { renderPng } from './render';
import { cardData, type CardRef } from './service';

type C = Context<AppEnv>;

/** `name.png` → `name`; anything else → null. */
function stem(file: string): string | null {
  return file.endsWith('.png') && file.length > 4 ? file.slice(0, -4) : null;
}

class RenderFailed extends Error {}

/**
 * Renders a page's share card; an unknown page is a 404. A render failure (wasm, font, layout) is
 * logged and answered with the bundled static brand image — never a 5xx, and never stored in the
 * edge cache (`no-store`), so the next request tries again.
 */
function card(c: C, ref: CardRef | null): Promise<Response> {
  return withEdgeCache(c, async () => {
    if (!ref) throw notFound('Bilden hittades inte.');
    const data = await cardData(c.var.deps, ref);
    if (!data) throw notFound('Sidan hittades inte.');
    let body: Uint8Array;
    try {
      body = await renderPng(ShareCard({ data }));
    } catch (err) {
      throw new RenderFailed(String(err));
    }
    return c.body(body as unknown as ArrayBuffer, 200, { 'content-type': 'image/png' });
  }).catch((err: unknown) => {
    if (!(err instanceof RenderFailed)) throw err;
    console.warn(JSON.stringify({ msg: 'og image render failed, static brand image served', requestId: c.var.requestId, error: err.message }));
    return c.body(fallbackPng, 200, { 'content-type': 'image/png', 'cache-control': 'no-store', 'x-og-fallback': '1' });
  });
}

/** Share images (og:image) of the public pages, 1200×630 PNG (issue 16). Edge-cached by data version and build. */
export const shareRoutes = new Hono<AppEnv>()
  .get('/start.png', (c) => card(c, { kind: 'start' }))
  .get('/city/:file', (c) => {
      const city = stem(c.req.param('file'));
      return card(c, city ? { kind: 'city', city } : null);
  })
  .get('/city/:city/:file', (c) => {
      const weekday = stem(c.req.param('file'));
      return card(c, weekday ? { kind: 'combined', city: c.req.param('city'), weekday } : null);
  })
  .get('/weekday/:file', (c) => {
      const weekday = stem(c.req.param('file'));
      return card(c, weekday ? { kind: 'weekday', weekday } : null);
  })
  .get('/venue/:city/:file', (c) => {
      const venue = stem(c.req.param('file'));
      return card(c, venue ? { kind: 'venue', city: c.req.param('city'), venue } : null);
  });
