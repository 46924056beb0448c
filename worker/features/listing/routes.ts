import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { withEdgeCache } from '../../lib/cache';
import { validate } from '../../lib/validate';
import { ListingQuerySchema } from './contract';
import { listQuizzes, publicCities } from './service';

/** GET /api/listing (spec 01 §4) and GET /api/listing/cities. Anonymous answers are edge-cached. */
export const listingRoutes = new Hono<AppEnv>()
  .get('/', validate('query', ListingQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return withEdgeCache(c, async () => {
      const result = await listQuizzes(c.var.db, query, {
        today: c.var.clock.today(),
        viewerId: c.var.user?.id ?? null,
        houseEmail: c.var.config.houseAccountEmail,
      });
      return c.json(result);
    });
  })
  .get('/cities', async (c) => withEdgeCache(c, async () => c.json({ cities: await publicCities(c.var.db) })));
