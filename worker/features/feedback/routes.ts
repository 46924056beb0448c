import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { FeedbackSchema } from './contract';
import { submitFeedback } from './service';

export const feedbackRoutes = new Hono<AppEnv>().post('/', validate('json', FeedbackSchema), async (c) => {
  const clientKey = c.req.header('cf-connecting-ip') ?? 'local';
  const result = await submitFeedback(c.var.db, c.req.valid('json'), {
    clientKey,
    user: c.var.user,
    now: c.var.clock.now(),
  });
  return c.json(result, 201);
});
