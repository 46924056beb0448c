import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { clientKeyOf } from '../../lib/rate-limit';
import { validate } from '../../lib/validate';
import { QuizIdParamSchema, RsvpRequestSchema, RsvpSettingsSchema } from './contract';
import { ownerRsvpCsv, ownerRsvpView, requestRsvp, rsvpCounts, setRsvpSettings, type OfferEnqueue } from './service';

/** The jobs queue's offer message for a freed table (worker/jobs/jobs-queue.ts runs it). */
export function offerEnqueue(c: Context<AppEnv>): OfferEnqueue {
  return async (quizId) => {
    const queue = (c.env as { JOBS_QUEUE?: Queue } | undefined)?.JOBS_QUEUE;
    if (!queue) throw new Error('JOBS_QUEUE binding missing');
    await queue.send({ type: 'rsvp-offer', quizId, at: c.var.clock.now().toISOString() });
  };
}

/** Mounted at /api/quizzes: "Vi kommer" (issue 47). The counts are never cached (the pages fetch them). */
export const rsvpRoutes = new Hono<AppEnv>()
  .post('/:quizId/rsvp', validate('param', QuizIdParamSchema), validate('json', RsvpRequestSchema), async (c) => {
    const out = await requestRsvp(c.var.deps, c.var.user, { ...c.req.valid('json'), quizId: c.req.valid('param').quizId, clientKey: clientKeyOf(c.req) });
    return out.status === 201 ? c.json({ state: out.state }, 201) : c.json({ message: out.message }, 202);
  })
  .get('/:quizId/rsvp', validate('param', QuizIdParamSchema), async (c) => {
    c.header('cache-control', 'no-store');
    return c.json(await rsvpCounts(c.var.deps, { quizId: c.req.valid('param').quizId }));
  });

/** Mounted at /api/owner/rsvp: the owner's view of one date, its CSV, and the series' RSVP settings. */
export const rsvpOwnerRoutes = new Hono<AppEnv>()
  .get('/quizzes/:quizId', validate('param', QuizIdParamSchema), async (c) =>
    c.json(await ownerRsvpView(c.var.deps, c.var.user, { quizId: c.req.valid('param').quizId })),
  )
  .get('/quizzes/:quizId/export.csv', validate('param', QuizIdParamSchema), async (c) => {
    const { filename, csv } = await ownerRsvpCsv(c.var.deps, c.var.user, { quizId: c.req.valid('param').quizId });
    c.header('cache-control', 'no-store');
    c.header('content-disposition', `attachment; filename="${filename}"`);
    return c.body(csv, 200, { 'content-type': 'text/csv; charset=utf-8' });
  })
  .put('/quizzes/:quizId/settings', validate('param', QuizIdParamSchema), validate('json', RsvpSettingsSchema), async (c) =>
    c.json(await setRsvpSettings(c.var.deps, c.var.user, { quizId: c.req.valid('param').quizId, settings: c.req.valid('json') })),
  );
