import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { withEdgeCache } from '../../middleware/edge-cache';
import { validate } from '../../lib/validate';
import * as z from 'zod';
import { notFound } from '../../lib/errors';
import { LISTING_MAP_QUERY_KEYS, LISTING_QUERY_KEYS, ListingMapQuerySchema, ListingQuerySchema, MapUnitParamSchema } from './contract';
import { listingContext } from '../../lib/listing-context';
import { listQuizzes, type ListingContext } from './service';
import { listingDayTrigger } from './listing-day';
import { mapCard, mapPoints } from './map';
import { publicCities } from './places';
import { rsvpFiguresOf } from '../rsvp/service';

/** The request's reader; a stale listing starts the listing-day job and is served as stored (issue 30.8). */
const readerContext = (c: Context<AppEnv>): ListingContext =>
  listingContext(c.var, { viewerId: c.var.user?.id ?? null, onStale: listingDayTrigger(c.env, () => c.executionCtx) });

/** GET /api/listing/card: the unit (a map marker) plus the listing's filters. */
const CardQuerySchema = ListingMapQuerySchema.extend(z.object({ unit: MapUnitParamSchema.shape.unit }).shape);
const CARD_QUERY_KEYS = Object.keys(CardQuerySchema.shape);

/**
 * GET /api/listing (spec 01 §4), GET /api/listing/cities, and the map of the current results (issue 15):
 * GET /api/listing/map (points) and GET /api/listing/card (a marker's card). Anonymous answers are edge-cached.
 */
export const listingRoutes = new Hono<AppEnv>()
  .get('/', validate('query', ListingQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return withEdgeCache(
      c,
      async () => {
        const result = await listQuizzes(c.var.db, query, readerContext(c));
        // Issue 47: each item's RSVP figures, one read keyed by the page's ids (the card JSON stays as stored).
        const figures = await rsvpFiguresOf(c.var.deps, { quizIds: result.items.map((i) => i.id) });
        return c.json({ ...result, items: result.items.map((i) => ({ ...i, teams: 0, tablesLeft: null, ...figures.get(i.id) })) });
      },
      { query: LISTING_QUERY_KEYS },
    );
  })
  .get('/cities', async (c) => withEdgeCache(c, async () => c.json({ cities: await publicCities(c.var.db) })))
  .get('/map', validate('query', ListingMapQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return withEdgeCache(c, async () => c.json(await mapPoints(c.var.db, query, readerContext(c))), { query: LISTING_MAP_QUERY_KEYS });
  })
  .get('/card', validate('query', CardQuerySchema), async (c) => {
    const { unit, ...query } = c.req.valid('query');
    return withEdgeCache(
      c,
      async () => {
        const item = await mapCard(c.var.db, unit, query, readerContext(c));
        if (!item) throw notFound('Quizet finns inte bland resultaten.');
        return c.json({ item });
      },
      { query: CARD_QUERY_KEYS },
    );
  });
