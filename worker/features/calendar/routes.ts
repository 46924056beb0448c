import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { canonicalQuery } from '../../lib/cache';
import { withEdgeCache } from '../../middleware/edge-cache';
import { notFound } from '../../lib/errors';
import { validate } from '../../lib/validate';
import { LISTING_QUERY_KEYS, ListingQuerySchema } from '../listing/contract';
import { ICS_CONTENT_TYPE } from './event';
import { cityFeed, listingFeed, quizIcs, venueFeed, type IcsFile } from './service';

type C = Context<AppEnv>;

/** `name.ics` → `name`; anything else → null (404). */
function stem(file: string): string | null {
  return file.endsWith('.ics') && file.length > 4 ? file.slice(0, -4) : null;
}

function ics(c: C, file: IcsFile | null, disposition: 'attachment' | 'inline', missing: string) {
  if (!file) throw notFound(missing);
  return c.body(file.body, 200, {
    'content-type': ICS_CONTENT_TYPE,
    'content-disposition': `${disposition}; filename="${file.filename.replace(/[^a-z0-9._-]/gi, '-')}"`,
  });
}

/**
 * Calendar downloads and webcal-ready feeds (issue 16). Public, anonymous view only, edge-cached by
 * the public-data version and the Stockholm date (worker/lib/cache.ts).
 */
export const calendarRoutes = new Hono<AppEnv>()
  .get('/quiz/:file', (c) =>
    withEdgeCache(c, async () => {
      const id = stem(c.req.param('file'));
      return ics(c, id ? await quizIcs(c.var.deps, { id }) : null, 'attachment', 'Quizet hittades inte.');
    }),
  )
  .get('/city/:file', (c) =>
    withEdgeCache(c, async () => {
      const city = stem(c.req.param('file'));
      return ics(c, city ? await cityFeed(c.var.deps, { citySlug: city, weekdaySlug: null }) : null, 'inline', 'Staden hittades inte.');
    }),
  )
  .get('/city/:city/:file', (c) =>
    withEdgeCache(c, async () => {
      const weekday = stem(c.req.param('file'));
      return ics(
        c,
        weekday ? await cityFeed(c.var.deps, { citySlug: c.req.param('city'), weekdaySlug: weekday }) : null,
        'inline',
        'Staden eller veckodagen hittades inte.',
      );
    }),
  )
  .get('/venue/:city/:file', (c) =>
    withEdgeCache(c, async () => {
      const venue = stem(c.req.param('file'));
      return ics(c, venue ? await venueFeed(c.var.deps, { citySlug: c.req.param('city'), venueSlug: venue }) : null, 'inline', 'Stället hittades inte.');
    }),
  )
  .get('/listing.ics', validate('query', ListingQuerySchema), (c) =>
    withEdgeCache(
      c,
      // The feed names its own URL: the known parameters only, as the cache key holds them.
      async () => ics(c, await listingFeed(c.var.deps, { query: c.req.valid('query'), search: canonicalQuery(c.req.url, LISTING_QUERY_KEYS) }), 'inline', ''),
      { query: LISTING_QUERY_KEYS },
    ),
  );
