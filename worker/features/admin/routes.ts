/**
 * /api/admin — the superadmin panel. Every route runs requireSuperadmin first: 401 'No valid session
 * found' for visitors, 403 'User is not a superadmin' for everyone else (spec 02 §6, §8).
 */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../context';
import { requireSuperadmin } from '../../lib/authz';
import { latestJobRuns } from '../../lib/jobs';
import { validate } from '../../lib/validate';
import { deleteUserAccount } from '../accounts/service';
import { fixTakeoverIssues, listTakeoverIssues } from '../takeover/service';
import { CreateVenueSchema, FeedbackHandledSchema, FeedbackListQuerySchema, FixTakeoverSchema, IdParamSchema, VenueListQuerySchema } from './contract';
import { analyseImport, commitImport } from './import';
import { ImportRequestSchema } from './import-contract';
import { createVenue, deleteUserAsSuperadmin, deleteVenue, listFeedback, listVenues, setFeedbackHandled } from './service';

const superadminOnly = createMiddleware<AppEnv>(async (c, next) => {
  requireSuperadmin(c.var.user);
  c.header('cache-control', 'private, no-store');
  await next();
});

const viewer = (c: { var: AppEnv['Variables'] }) => {
  requireSuperadmin(c.var.user);
  return c.var.user;
};

export const adminRoutes = new Hono<AppEnv>()
  .use(superadminOnly)
  .get('/venues', validate('query', VenueListQuerySchema), async (c) =>
    c.json(await listVenues(c.var.db, viewer(c).id, c.req.valid('query'), { today: c.var.clock.today(), houseEmail: c.var.config.houseAccountEmail })),
  )
  .post('/venues', validate('json', CreateVenueSchema), async (c) => c.json(await createVenue(c.var.db, viewer(c), c.req.valid('json'), { mailer: c.var.mailer, config: c.var.config }), 201))
  .delete('/venues/:id', validate('param', IdParamSchema), async (c) => c.json(await deleteVenue(c.var.db, c.req.valid('param').id)))
  .delete('/users/:id', validate('param', IdParamSchema), async (c) =>
    c.json(
      await deleteUserAsSuperadmin(c.var.db, viewer(c).id, c.req.valid('param').id, {
        houseEmail: c.var.config.houseAccountEmail,
        deleteUserAccount,
      }),
    ),
  )
  .get('/feedback', validate('query', FeedbackListQuerySchema), async (c) => c.json(await listFeedback(c.var.db, c.req.valid('query').offset)))
  .patch('/feedback/:id', validate('param', IdParamSchema), validate('json', FeedbackHandledSchema), async (c) =>
    c.json(await setFeedbackHandled(c.var.db, c.req.valid('param').id, c.req.valid('json').handled, c.var.clock.now())),
  )
  // Every nightly task's job_runs rows (ARCHITECTURE.md "Jobs are observable"), newest 50.
  .get('/jobs', async (c) => c.json({ runs: await latestJobRuns(c.var.db, 50) }))
  .get('/takeover-issues', async (c) => c.json({ issues: await listTakeoverIssues(c.var.db, c.var.config.houseAccountEmail) }))
  .post('/takeover-issues/fix', validate('json', FixTakeoverSchema), async (c) =>
    c.json(await fixTakeoverIssues(c.var.db, c.req.valid('json'), { today: c.var.clock.today(), now: c.var.clock.now(), config: c.var.config, mailer: c.var.mailer })),
  )
  .post('/import/preview', validate('json', ImportRequestSchema), async (c) => c.json((await analyseImport(c.var.db, c.req.valid('json').csv)).preview))
  .post('/import', validate('json', ImportRequestSchema), async (c) =>
    c.json(await commitImport(c.var.db, c.req.valid('json').csv, { today: c.var.clock.today(), now: c.var.clock.now(), houseEmail: c.var.config.houseAccountEmail }), 201),
  );
