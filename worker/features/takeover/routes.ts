import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { requireActor } from '../../lib/authz';
import { validate } from '../../lib/validate';
import { TakeoverSchema, TakeoverVenueParamSchema } from './contract';
import { getTakeoverInfo, takeoverVenue } from './service';

/** /api/takeover — public info about a claimable business, and the claim itself (signed-in, verified). */
export const takeoverRoutes = new Hono<AppEnv>()
  .get('/venues/:id', validate('param', TakeoverVenueParamSchema), async (c) => {
    const info = await getTakeoverInfo(c.var.deps, { venueId: c.req.valid('param').id });
    c.header('cache-control', 'no-store');
    return c.json(info);
  })
  .post('/', validate('json', TakeoverSchema), async (c) => {
    const user = c.var.user;
    requireActor(user);
    const result = await takeoverVenue(c.var.deps, { userId: user.id, email: user.email, venueId: c.req.valid('json').venueId });
    return c.json(result);
  });
