import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../../context';
import { notFound } from '../../lib/errors';
import { linkButton, linkGuard, linkPage } from '../../lib/link-page';
import { validate } from '../../lib/validate';
import { QuizIdParamSchema, VenueIdParamSchema, type PublicFreshnessResponse } from './contract';
import { linkKeys, requireLink } from '../../lib/signed-link';
import { confirmByLink, confirmVenue, FRESHNESS_PURPOSE, publicFreshness, quizVenueId, venueFreshness } from './service';

/** Mounted at /api/owner/freshness: the dashboard's "Senast bekräftad" notice and its confirm button. */
export const freshnessOwnerRoutes = new Hono<AppEnv>()
  .get('/:id', validate('param', VenueIdParamSchema), async (c) => c.json(await venueFreshness(c.var.deps, c.var.user, { venueId: c.req.valid('param').id })))
  .post('/:id/confirm', validate('param', VenueIdParamSchema), async (c) =>
    c.json(await confirmVenue(c.var.deps, c.var.user, { venueId: c.req.valid('param').id })),
  );

/** Mounted at /api/freshness: public, cacheable — the detail dialog's line for one quiz. */
export const freshnessPublicRoutes = new Hono<AppEnv>().get('/quiz/:id', validate('param', QuizIdParamSchema), async (c) => {
  const venueId = await quizVenueId(c.var.deps, { quizId: c.req.valid('param').id });
  const f = venueId ? await publicFreshness(c.var.deps, { venueId }) : null;
  if (!f) throw notFound('Quizet hittades inte.');
  return c.json(f satisfies PublicFreshnessResponse);
});

/** /bekrafta-quiz?t=… — the monthly mail's link: confirms every quiz of one business without signing in. */
export const freshnessLinkPages = new Hono<AppEnv>()
  .get('/', (c) =>
    linkGuard(c, 'Bekräfta era quiz', async () => {
      const t = c.req.query('t');
      await requireLink(linkKeys(c.var.config), t, FRESHNESS_PURPOSE, c.var.clock.now());
      return linkPage(
        c,
        'Bekräfta era quiz',
        html`<p>Stämmer uppgifterna om era quiz på Quizkväll?</p>${linkButton('/bekrafta-quiz', t ?? '', 'Ja, det stämmer')}`,
      );
    }),
  )
  .post('/', (c) =>
    linkGuard(c, 'Bekräfta era quiz', async () => {
      const { venueName } = await confirmByLink(c.var.deps, { token: c.req.query('t') });
      return linkPage(
        c,
        'Tack för bekräftelsen',
        html`<p>Klart! Alla quiz hos ${venueName} är bekräftade idag och visas för besökare.</p><p><a href="/admin">Till mina quiz</a></p>`,
      );
    }),
  );
