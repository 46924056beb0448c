/**
 * GET /api/admin/status (issue 30 §4): the superadmin's "Drift" tab. Superadmin only (401 / 403 otherwise),
 * never cached. Which secrets are set is read here from the env (names only) and handed to the service, with
 * the job schedule (worker/jobs/schedule.ts: the features do not import the jobs layer).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { requireSuperadmin } from '../../lib/authz';
import { JOB_SCHEDULE } from '../../jobs/schedule';
import { opsStatus, secretPresence } from './service';

export const opsAdminRoutes = new Hono<AppEnv>().get('/status', async (c) => {
  requireSuperadmin(c.var.user);
  c.header('cache-control', 'private, no-store');
  return c.json(await opsStatus(c.var.deps, { secrets: secretPresence(c.env as Env & { LINK_SIGNING_SECRET_PREVIOUS?: string }), schedule: JOB_SCHEDULE }));
});
