import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { HolidayDecisionsSchema, HolidayPreviewSchema, SeriesIdParamSchema } from './contract';
import { decideHolidays, previewHolidays, seriesHolidays } from './service';

/**
 * Mounted at /api/owner/series beside the series routes (issue 20): the create form's preview, then per
 * series the holiday dates with their state, and "Hoppa över" / restore.
 */
export const holidayRoutes = new Hono<AppEnv>()
  .post('/holidays/preview', validate('json', HolidayPreviewSchema), async (c) => c.json({ holidays: previewHolidays(c.var.user, c.req.valid('json')) }))
  .get('/:id/holidays', validate('param', SeriesIdParamSchema), async (c) =>
    c.json(await seriesHolidays(c.var.deps, c.var.user, { recurrenceId: c.req.valid('param').id })),
  )
  .post('/:id/holidays', validate('param', SeriesIdParamSchema), validate('json', HolidayDecisionsSchema), async (c) =>
    c.json(await decideHolidays(c.var.deps, c.var.user, { recurrenceId: c.req.valid('param').id, decisions: c.req.valid('json').decisions })),
  );
