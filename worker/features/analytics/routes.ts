import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { AnalyticsQuerySchema, SlotCalendarQuerySchema } from './contract';
import { analyticsCsv, getAnalytics, getOverview, getSlotCalendar } from './service';

/** Mounted at /api/analytics: the owner's numbers, their CSV, the slot calendar, the superadmin overview. */
export const analyticsRoutes = new Hono<AppEnv>()
  .get('/', validate('query', AnalyticsQuerySchema), async (c) => c.json(await getAnalytics(c.var.deps, c.var.user, c.req.valid('query'))))
  .get('/export.csv', validate('query', AnalyticsQuerySchema), async (c) => {
    const data = await getAnalytics(c.var.deps, c.var.user, c.req.valid('query'));
    return c.body(analyticsCsv(data), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="statistik-${data.from}-${data.to}.csv"`,
      'cache-control': 'private, no-store',
    });
  })
  .get('/slots', validate('query', SlotCalendarQuerySchema), async (c) =>
    c.json(await getSlotCalendar(c.var.deps, c.var.user, { quizId: c.req.valid('query').quizId })),
  )
  .get('/overview', async (c) => c.json(await getOverview(c.var.deps, c.var.user)));
