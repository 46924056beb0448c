import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { clientKeyOf } from '../../lib/rate-limit';
import { validate } from '../../lib/validate';
import { FeedbackSchema, QuizReportSchema } from './contract';
import { reportQuiz } from './report';
import { submitFeedback } from './service';

export const feedbackRoutes = new Hono<AppEnv>()
  .post('/', validate('json', FeedbackSchema), async (c) => {
    const result = await submitFeedback(c.var.deps, { ...c.req.valid('json'), clientKey: clientKeyOf(c.req), user: c.var.user });
    return c.json(result, 201);
  })
  // "Stämmer inte?" in the quiz detail dialog (issue 20): no personal data, rate-limited per client.
  .post('/report', validate('json', QuizReportSchema), async (c) => {
    const result = await reportQuiz(c.var.deps, { ...c.req.valid('json'), clientKey: clientKeyOf(c.req), queue: c.var.deps.mailQueue });
    return c.json(result, 201);
  });
