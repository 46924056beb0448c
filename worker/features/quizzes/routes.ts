import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { CancelQuizSchema, CreateQuizSchema, EditQuizSchema, IdParamSchema } from './contract';
import { createQuiz, deleteQuiz, editQuiz, getQuiz, listPlaceQuizzes, listPlaces, listSingles, setCancelled } from './service';

/** Mounted at /api/owner: the owner's quizzes (spec 02 §2.2, §2.4, §5). */
export const quizRoutes = new Hono<AppEnv>()
  .get('/quiz-places', async (c) => c.json(await listPlaces(c.var.deps, c.var.user)))
  .get('/locations/:id/quizzes', validate('param', IdParamSchema), async (c) =>
    c.json(await listPlaceQuizzes(c.var.deps, c.var.user, { locationId: c.req.valid('param').id })),
  )
  .get('/quizzes', async (c) => c.json(await listSingles(c.var.deps, c.var.user)))
  .post('/quizzes', validate('json', CreateQuizSchema), async (c) => c.json(await createQuiz(c.var.deps, c.var.user, c.req.valid('json')), 201))
  .get('/quizzes/:id', validate('param', IdParamSchema), async (c) => c.json(await getQuiz(c.var.deps, c.var.user, { id: c.req.valid('param').id })))
  .patch('/quizzes/:id', validate('param', IdParamSchema), validate('json', EditQuizSchema), async (c) =>
    c.json(await editQuiz(c.var.deps, c.var.user, { id: c.req.valid('param').id, data: c.req.valid('json') })),
  )
  .delete('/quizzes/:id', validate('param', IdParamSchema), async (c) => c.json(await deleteQuiz(c.var.deps, c.var.user, { id: c.req.valid('param').id })))
  .post('/quizzes/:id/cancel', validate('param', IdParamSchema), validate('json', CancelQuizSchema), async (c) =>
    c.json(await setCancelled(c.var.deps, c.var.user, { id: c.req.valid('param').id, cancelled: c.req.valid('json').cancelled })),
  );
