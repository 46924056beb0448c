import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { EditSeriesSchema, HolidayDecisionsSchema, HolidayPreviewSchema, IdParamSchema, PauseSeriesSchema } from '../quizzes/contract';
import { decideHolidays, previewHolidays, seriesHolidays } from './holidays';
import { autoExtend, deleteSeries, editSeries, extendOneSeries, getSeries, listSeries, pauseSeries, resumeSeries } from './service';

/** Mounted at /api/owner/series: quiz management, whole-series edits, extension (spec 02 §2.6, §4.4, §7). */
export const seriesRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json({ today: c.var.clock.today(), series: await listSeries(c.var.db, c.var.user, c.var.clock.today()) }))
  // Swedish holidays (issue 20): the create form's preview, then per series list / skip / restore.
  .post('/holidays/preview', validate('json', HolidayPreviewSchema), async (c) => c.json({ holidays: previewHolidays(c.var.user, c.req.valid('json')) }))
  .get('/:id/holidays', validate('param', IdParamSchema), async (c) =>
    c.json(await seriesHolidays(c.var.db, c.var.user, c.req.valid('param').id, c.var.clock.today())),
  )
  .post('/:id/holidays', validate('param', IdParamSchema), validate('json', HolidayDecisionsSchema), async (c) =>
    c.json(await decideHolidays(c.var.db, c.var.user, c.req.valid('param').id, c.req.valid('json').decisions, c.var.clock.now(), c.var.clock.today())),
  )
  .post('/auto-extend', async (c) => c.json(await autoExtend(c.var.db, c.var.user, c.var.clock.today())))
  .get('/:id', validate('param', IdParamSchema), async (c) =>
    c.json(await getSeries(c.var.db, c.var.user, c.req.valid('param').id, c.var.clock.today())),
  )
  .patch('/:id', validate('param', IdParamSchema), validate('json', EditSeriesSchema), async (c) =>
    c.json(await editSeries(c.var.db, c.var.user, c.req.valid('param').id, c.req.valid('json'), c.var.clock.today(), c.var.clock.now())),
  )
  .delete('/:id', validate('param', IdParamSchema), async (c) => c.json(await deleteSeries(c.var.db, c.var.user, c.req.valid('param').id, c.var.clock)))
  .post('/:id/extend', validate('param', IdParamSchema), async (c) =>
    c.json(await extendOneSeries(c.var.db, c.var.user, c.req.valid('param').id, c.var.clock.today())),
  )
  .post('/:id/pause', validate('param', IdParamSchema), validate('json', PauseSeriesSchema), async (c) =>
    c.json(await pauseSeries(c.var.db, c.var.user, c.req.valid('param').id, c.req.valid('json'), c.var.clock.today(), c.var.clock.now())),
  )
  .post('/:id/resume', validate('param', IdParamSchema), validate('json', PauseSeriesSchema), async (c) =>
    c.json(await resumeSeries(c.var.db, c.var.user, c.req.valid('param').id, c.req.valid('json'), c.var.clock.now())),
  );
