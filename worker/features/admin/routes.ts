/**
 * /api/admin — the superadmin panel. Every route runs requireSuperadmin first: 401 'No valid session
 * found' for visitors, 403 'User is not a superadmin' for everyone else (spec 02 §6, §8).
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
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
import { createImportJob, getImportJob, importReportCsv, listImportJobs, listReviews } from './import-job';
import { resolveReview } from './import-review';
import { resumeImportJob, startImportJob } from './import-run';
import { JOB_MAX_BYTES, JobIdParamSchema, ReviewActionSchema, ReviewParamSchema } from './import-job-contract';
import { invalidInput } from '../../lib/errors';
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
    c.json(await listVenues(c.var.deps, { ...c.req.valid('query'), viewerId: viewer(c).id })),
  )
  .post('/venues', validate('json', CreateVenueSchema), async (c) => c.json(await createVenue(c.var.deps, { ...c.req.valid('json'), viewer: viewer(c) }), 201))
  .delete('/venues/:id', validate('param', IdParamSchema), async (c) => c.json(await deleteVenue(c.var.deps, { venueId: c.req.valid('param').id })))
  .delete('/users/:id', validate('param', IdParamSchema), async (c) =>
    c.json(
      await deleteUserAsSuperadmin(c.var.deps, {
        viewerId: viewer(c).id,
        userId: c.req.valid('param').id,
        deleteUserAccount: (userId) => deleteUserAccount(c.var.deps, { userId }),
      }),
    ),
  )
  .get('/feedback', validate('query', FeedbackListQuerySchema), async (c) => c.json(await listFeedback(c.var.deps, c.req.valid('query'))))
  .patch('/feedback/:id', validate('param', IdParamSchema), validate('json', FeedbackHandledSchema), async (c) =>
    c.json(await setFeedbackHandled(c.var.deps, { id: c.req.valid('param').id, handled: c.req.valid('json').handled })),
  )
  // Every nightly task's job_runs rows (ARCHITECTURE.md "Jobs are observable"), newest 50; a killed run reads as failed.
  .get('/jobs', async (c) => c.json({ runs: await latestJobRuns(c.var.db, c.var.deps.clock.now(), 50) }))
  .get('/takeover-issues', async (c) => c.json({ issues: await listTakeoverIssues(c.var.deps) }))
  .post('/takeover-issues/fix', validate('json', FixTakeoverSchema), async (c) => c.json(await fixTakeoverIssues(c.var.deps, c.req.valid('json'))))
  .post('/import/preview', validate('json', ImportRequestSchema), async (c) => c.json((await analyseImport(c.var.deps, c.req.valid('json'))).preview))
  .post('/import', validate('json', ImportRequestSchema), async (c) => c.json(await commitImport(c.var.deps, c.req.valid('json')), 201))
  // The durable import (issue 21). The upload is the file's raw bytes (text/csv or
  // application/octet-stream, ?name=file.csv) so a Windows-1252 file can be detected: not JSON.
  // bodyLimit refuses a declared Content-Length over the limit at once and stops reading a chunked
  // body at the limit, so an oversized upload is never buffered whole (issue 27.4).
  .post(
    '/import/jobs',
    bodyLimit({
      maxSize: JOB_MAX_BYTES,
      onError: () => {
        throw invalidInput(`Filen får vara högst ${JOB_MAX_BYTES / 1_000_000} MB`, [{ path: 'csv', message: 'För stor fil' }]);
      },
    }),
    async (c) => {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!['text/csv', 'application/octet-stream', 'text/plain', 'application/vnd.ms-excel'].includes(type)) {
        throw invalidInput('Filen måste laddas upp som CSV (text/csv)', [{ path: 'csv', message: 'Fel innehållstyp' }]);
      }
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const name = (c.req.query('name') ?? 'import.csv').slice(0, 200);
      return c.json(await createImportJob(c.var.deps, { bucket: c.env.IMPORTS, bytes, fileName: name, userId: viewer(c).id }), 201);
    },
  )
  .get('/import/jobs', async (c) => c.json({ jobs: await listImportJobs(c.var.deps) }))
  .get('/import/jobs/:id', validate('param', JobIdParamSchema), async (c) => c.json(await getImportJob(c.var.deps, c.req.valid('param'))))
  .post('/import/jobs/:id/start', validate('param', JobIdParamSchema), async (c) =>
    c.json(await startImportJob(c.var.deps, { workflow: c.env.IMPORT_WORKFLOW, id: c.req.valid('param').id })),
  )
  .post('/import/jobs/:id/resume', validate('param', JobIdParamSchema), async (c) =>
    c.json(await resumeImportJob(c.var.deps, { workflow: c.env.IMPORT_WORKFLOW, id: c.req.valid('param').id })),
  )
  .get('/import/jobs/:id/report', validate('param', JobIdParamSchema), async (c) => {
    const id = c.req.valid('param').id;
    const csv = await importReportCsv(c.var.deps, { id });
    return c.body(csv, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="importrapport-${id.slice(0, 8)}.csv"` });
  })
  .get('/import/jobs/:id/reviews', validate('param', JobIdParamSchema), async (c) => c.json({ reviews: await listReviews(c.var.deps, c.req.valid('param')) }))
  .post('/import/jobs/:id/reviews/:row', validate('param', ReviewParamSchema), validate('json', ReviewActionSchema), async (c) => {
    const { id, row } = c.req.valid('param');
    return c.json(await resolveReview(c.var.deps, { id, rowNo: row, action: c.req.valid('json').action }));
  });
