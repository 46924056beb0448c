/**
 * "Tipsa om ett quiz" (issue 31.1). Public: GET /api/tips/config, POST /api/tips (rate-limited per client,
 * honeypot, human check). Superadmin: /api/admin/tips (list, count, approve, reject). Mail link:
 * /tipsa/stopp?t=… (GET shows, POST is the RFC 8058 one-click stop), /tipsa/visa?t=… (the published mail's
 * signed link to the place's page).
 */
import { Hono } from 'hono';
import { html } from 'hono/html';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../context';
import { requireSuperadmin } from '../../lib/authz';
import { linkButton, linkGuard, linkPage } from '../../lib/link-page';
import { clientKeyOf } from '../../lib/rate-limit';
import { validate } from '../../lib/validate';
import { RejectTipSchema, TipIdParamSchema, TipListQuerySchema, TipSchema } from './contract';
import { approveTip, countPendingTips, listTips, rejectTip, stopTipMail, submitTip, tipFormConfig, tipPagePath } from './service';

export const tipRoutes = new Hono<AppEnv>()
  .get('/config', (c) => c.json(tipFormConfig(c.var.deps)))
  .post('/', validate('json', TipSchema), async (c) => {
    const result = await submitTip(c.var.deps, { ...c.req.valid('json'), clientKey: clientKeyOf(c.req) });
    return c.json(result, 201);
  });

const superadminOnly = createMiddleware<AppEnv>(async (c, next) => {
  requireSuperadmin(c.var.user);
  c.header('cache-control', 'private, no-store');
  await next();
});

export const tipAdminRoutes = new Hono<AppEnv>()
  .use('/tips', superadminOnly)
  .use('/tips/*', superadminOnly)
  .get('/tips', validate('query', TipListQuerySchema), async (c) => c.json(await listTips(c.var.deps, c.req.valid('query'))))
  .get('/tips/count', async (c) => c.json(await countPendingTips(c.var.deps)))
  .post('/tips/:id/approve', validate('param', TipIdParamSchema), async (c) => c.json(await approveTip(c.var.deps, c.req.valid('param'))))
  .post('/tips/:id/reject', validate('param', TipIdParamSchema), validate('json', RejectTipSchema), async (c) =>
    c.json(await rejectTip(c.var.deps, { ...c.req.valid('param'), ...c.req.valid('json') })),
  );

const STOP_TITLE = 'Ingen e-post om tips';
export const tipLinkPages = new Hono<AppEnv>()
  .get('/', (c) =>
    linkPage(
      c,
      STOP_TITLE,
      html`<p>Vill du att vi raderar din e-postadress och inte skickar något mer om ditt tips?</p>${linkButton('/tipsa/stopp', c.req.query('t') ?? '', 'Radera min adress')}`,
    ),
  )
  // RFC 8058 one-click: mail clients POST here without cookies or Origin (csrf exemption in middleware/csrf.ts).
  .post('/', (c) =>
    linkGuard(c, STOP_TITLE, async () => {
      await stopTipMail(c.var.deps, { token: c.req.query('t') });
      return linkPage(c, 'Klart', html`<p>Din e-postadress är raderad. Vi skickar inget mer om ditt tips.</p><p><a href="/">Till startsidan</a></p>`);
    }),
  );

/** GET /tipsa/visa?t=: the published mail's page link (signed: the mail names no place, issue 43.7). */
export const tipShowLink = new Hono<AppEnv>().get('/', (c) =>
  linkGuard(c, 'Quizet på Quizkväll', async () => {
    const path = await tipPagePath(c.var.deps, { token: c.req.query('t') });
    c.header('cache-control', 'private, no-store');
    return c.redirect(path, 302);
  }),
);
