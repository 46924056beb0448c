import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { EditSeriesSchema, IdParamSchema, PauseSeriesSchema } from '../quizzes/contract';
import { autoExtend, deleteSeries, editSeries, extendOneSeries, getSeries, listSeries, pauseSeries, resumeSeries } from './service';

/** Mounted at /api/owner/series (the holiday routes, worker/features/holidays, are mounted there too): quiz management, whole-series edits, extension (spec 02 §2.6, §4.4, §7). */
export const seriesRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json({ today: c.var.clock.today(), series: await listSeries(c.var.deps, c.var.user) }))
  .post('/auto-extend', async (c) => c.json(await autoExtend(c.var.deps, c.var.user)))
  .get('/:id', validate('param', IdParamSchema), async (c) => c.json(await getSeries(c.var.deps, c.var.user, { recurrenceId: c.req.valid('param').id })))
  .patch('/:id', validate('param', IdParamSchema), validate('json', EditSeriesSchema), async (c) =>
    c.json(await editSeries(c.var.deps, c.var.user, { recurrenceId: c.req.valid('param').id, data: c.req.valid('json') })),
  )
  .delete('/:id', validate('param', IdParamSchema), async (c) => c.json(await deleteSeries(c.var.deps, c.var.user, { recurrenceId: c.req.valid('param').id })))
  .post('/:id/extend', validate('param', IdParamSchema), async (c) =>
    c.json(await extendOneSeries(c.var.deps, c.var.user, { recurrenceId: c.req.valid('param').id })),
  )
  .post('/:id/pause', validate('param', IdParamSchema), validate('json', PauseSeriesSchema), async (c) =>
    c.json(await pauseSeries(c.var.deps, c.var.user, { ...c.req.valid('json'), recurrenceId: c.req.valid('param').id })),
  )
  .post('/:id/resume', validate('param', IdParamSchema), validate('json', PauseSeriesSchema), async (c) =>
    c.json(await resumeSeries(c.var.deps, c.var.user, { ...c.req.valid('json'), recurrenceId: c.req.valid('param').id })),
  );
