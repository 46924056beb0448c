import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { withEdgeCache } from '../../middleware/edge-cache';
import { notFound } from '../../lib/errors';
import { clientKeyOf } from '../../lib/rate-limit';
import { ShareCard } from './card';
import fallbackPng from './fallback.png';
import { renderCard } from './render';
import { cardData, type CardRef } from './service';
import { storedOrRendered } from './store';

type C = Context<AppEnv>;

/** `name.png` → `name`; anything else → null. */
function stem(file: string): string | null {
  return file.endsWith('.png') && file.length > 4 ? file.slice(0, -4) : null;
}

class RenderFailed extends Error {}

/**
 * Serves a page's share card; an unknown page is a 404. Edge cache first, then the card store in R2
 * (store.ts), and only then a render — limited per client (429 past the limit). A render failure (wasm,
 * font, layout) is logged and answered with the bundled static brand image — never a 5xx, and never
 * stored (`no-store`), so the next request tries again. `x-og-source: store|render` says where a miss
 * found its PNG; in development and test `x-og-text` carries the texts a render drew (JSON, URI-encoded).
 */
function card(c: C, ref: CardRef | null): Promise<Response> {
  return withEdgeCache(c, async () => {
    if (!ref) throw notFound('Bilden hittades inte.');
    const data = await cardData(c.var.deps, ref);
    if (!data) throw notFound('Sidan hittades inte.');
    const stored = await storedOrRendered(
      {
        cards: c.env.CARDS,
        db: c.var.db,
        now: c.var.clock.now(),
        clientKey: clientKeyOf(c.req),
        defer: (work) => {
          try {
            c.executionCtx.waitUntil(work);
          } catch {
            void work;
          }
        },
      },
      ref,
      data,
      () =>
        renderCard(ShareCard({ data })).catch((err: unknown) => {
          throw new RenderFailed(String(err));
        }),
    );
    const headers: Record<string, string> = { 'content-type': 'image/png', 'x-og-source': stored.source };
    if (c.var.config.isDev && stored.texts) headers['x-og-text'] = encodeURIComponent(JSON.stringify(stored.texts));
    return c.body(stored.png as unknown as ArrayBuffer, 200, headers);
  }).catch((err: unknown) => {
    if (!(err instanceof RenderFailed)) throw err;
    console.warn(JSON.stringify({ msg: 'og image render failed, static brand image served', requestId: c.var.requestId, error: err.message }));
    return c.body(fallbackPng, 200, { 'content-type': 'image/png', 'cache-control': 'no-store', 'x-og-fallback': '1' });
  });
}

/** Share images (og:image) of the public pages, 1200×630 PNG (issue 16). Edge-cached (no query parameter in the key), stored in R2. */
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
  })
  .get('/quizmaster/:file', (c) => {
    const slug = stem(c.req.param('file'));
    return card(c, slug ? { kind: 'quizmaster', slug } : null);
  })
  .get('/resultat/:city/:file', (c) => {
    const venue = stem(c.req.param('file'));
    return card(c, venue ? { kind: 'results', city: c.req.param('city'), venue } : null);
  })
  .get('/liga/:file', (c) => {
    const slug = stem(c.req.param('file'));
    return card(c, slug ? { kind: 'league', slug } : null);
  });
