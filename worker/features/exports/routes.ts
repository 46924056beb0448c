/**
 * /api/exports (issue 21): GET /me (own data, JSON attachment), GET /quizzes.csv[?venueId=] (own
 * quizzes), GET /catalogue.csv (superadmin: the catalogue in the import format). Never cached.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../context';
import { requireActor, requireSuperadmin } from '../../lib/authz';
import { validate } from '../../lib/validate';
import { exportCatalogueCsv, exportOwnData, exportQuizzesCsv } from './service';
import { lazySchema } from '../../lib/lazy-schema';

const QuizExportQuerySchema = lazySchema(() =>
  z.object({
    venueId: z.string().trim().min(1, 'Ange en verksamhet').max(64, 'Ogiltig verksamhet').optional().describe('venueId'),
  }),
);

const attachment = (name: string) => ({ 'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'private, no-store' });

export const exportRoutes = new Hono<AppEnv>()
  .get('/me', async (c) => {
    requireActor(c.var.user);
    const data = await exportOwnData(c.var.deps, { userId: c.var.user.id });
    return c.body(JSON.stringify(data, null, 2), 200, {
      'content-type': 'application/json; charset=utf-8',
      ...attachment(`quizkvall-mina-data-${c.var.clock.today()}.json`),
    });
  })
  .get('/quizzes.csv', validate('query', QuizExportQuerySchema), async (c) => {
    requireActor(c.var.user);
    const csv = await exportQuizzesCsv(c.var.deps, c.var.user, c.req.valid('query'));
    return c.body(csv, 200, { 'content-type': 'text/csv; charset=utf-8', ...attachment(`quiz-${c.var.clock.today()}.csv`) });
  })
  .get('/catalogue.csv', async (c) => {
    requireSuperadmin(c.var.user);
    const csv = await exportCatalogueCsv(c.var.deps);
    return c.body(csv, 200, { 'content-type': 'text/csv; charset=utf-8', ...attachment(`katalog-${c.var.clock.today()}.csv`) });
  });
