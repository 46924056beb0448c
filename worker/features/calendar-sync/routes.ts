import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { CalendarUrlSchema, FeedParamSchema, LocationParamSchema } from './contract';
import * as svc from './service';

/** Mounted at /api/owner: a place's calendar addresses (issue 31.2). */
export const calendarSyncRoutes = new Hono<AppEnv>()
  .get('/locations/:id/calendar-feeds', validate('param', LocationParamSchema), async (c) =>
    c.json(await svc.listFeeds(c.var.deps, c.var.user, { locationId: c.req.valid('param').id })),
  )
  .post('/locations/:id/calendar-feeds/preview', validate('param', LocationParamSchema), validate('json', CalendarUrlSchema), async (c) =>
    c.json(await svc.previewFeed(c.var.deps, c.var.user, { locationId: c.req.valid('param').id, url: c.req.valid('json').url })),
  )
  .post('/locations/:id/calendar-feeds', validate('param', LocationParamSchema), validate('json', CalendarUrlSchema), async (c) =>
    c.json(await svc.addFeed(c.var.deps, c.var.user, { locationId: c.req.valid('param').id, url: c.req.valid('json').url }), 201),
  )
  .post('/locations/:id/calendar-feeds/:feedId/sync', validate('param', FeedParamSchema), async (c) =>
    c.json(await svc.syncNow(c.var.deps, c.var.user, { locationId: c.req.valid('param').id, feedId: c.req.valid('param').feedId })),
  )
  .delete('/locations/:id/calendar-feeds/:feedId', validate('param', FeedParamSchema), async (c) =>
    c.json(await svc.removeFeed(c.var.deps, c.var.user, { locationId: c.req.valid('param').id, feedId: c.req.valid('param').feedId })),
  );
