import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { LocationIdParamSchema, PostResultsSchema, QuizIdParamSchema } from './contract';
import { getResults, listPlaceNights, postResults } from './service';

/** Mounted at /api/owner: a night's results (issue 46) and a place's recent nights. */
export const resultsOwnerRoutes = new Hono<AppEnv>()
  .get('/quizzes/:quizId/results', validate('param', QuizIdParamSchema), async (c) =>
    c.json(await getResults(c.var.deps, c.var.user, { quizId: c.req.valid('param').quizId })),
  )
  .put('/quizzes/:quizId/results', validate('param', QuizIdParamSchema), validate('json', PostResultsSchema), async (c) =>
    c.json(await postResults(c.var.deps, c.var.user, { quizId: c.req.valid('param').quizId, body: c.req.valid('json') })),
  )
  .get('/locations/:id/results', validate('param', LocationIdParamSchema), async (c) =>
    c.json(await listPlaceNights(c.var.deps, c.var.user, { locationId: c.req.valid('param').id })),
  );
