import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { AnalyticsQuerySchema, SlotCalendarQuerySchema } from './contract';
import { analyticsCsv, getAnalytics, getOverview, getSlotCalendar } from './service';

/** Mounted at /api/analytics: the owner's numbers, their CSV, the slot calendar, the superadmin overview. */
export const analyticsRoutes = new Hono<AppEnv>()
  .get('/', validate('query', AnalyticsQuerySchema), async (c) => c.json(await getAnalytics(c.var.db, c.var.user, c.req.valid('query'), c.var.clock.today())))
  .get('/export.csv', validate('query', AnalyticsQuerySchema), async (c) => {
    const data = await getAnalytics(c.var.db, c.var.user, c.req.valid('query'), c.var.clock.today());
    return c.body(analyticsCsv(data), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="statistik-${data.from}-${data.to}.csv"`,
      'cache-control': 'private, no-store',
    });
  })
  .get('/slots', validate('query', SlotCalendarQuerySchema), async (c) =>
    c.json(await getSlotCalendar(c.var.db, c.var.user, c.req.valid('query').quizId, c.var.clock.today(), c.var.clock.now())),
  )
  .get('/overview', async (c) => c.json(await getOverview(c.var.db, c.var.user, c.var.clock.today(), c.var.clock.now())));
