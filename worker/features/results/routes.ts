import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { html } from 'hono/html';
import type { AppEnv } from '../../context';
import { requireSuperadmin } from '../../lib/authz';
import { linkButton, linkGuard, linkPage } from '../../lib/link-page';
import { clientKeyOf } from '../../lib/rate-limit';
import { validate } from '../../lib/validate';
import {
  AddLeagueSeriesSchema,
  AdminTeamSchema,
  CreateLeagueSchema,
  LeagueIdParamSchema,
  LeagueAnswerSchema,
  LeagueSeriesParamSchema,
  CreateSeasonSchema,
  SeriesIdParamSchema,
  HideTeamSchema,
  LocationIdParamSchema,
  PostResultsSchema,
  QuizIdParamSchema,
  ReportTeamSchema,
  TeamIdParamSchema,
  TeamSlugParamSchema,
} from './contract';
import {
  addLeagueSeries,
  answerLeagueInvitation,
  createLeague,
  createLeagueSeason,
  listLeagues,
  removeLeagueSeries,
  createSeason,
  dismissReport,
  getResults,
  listSeasons,
  hideTeamByLink,
  listPlaceNights,
  listTeamReports,
  postResults,
  reportTeam,
  requestTeamHide,
  updateTeam,
} from './service';

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
  )
  .get('/series/:seriesId/seasons', validate('param', SeriesIdParamSchema), async (c) =>
    c.json(await listSeasons(c.var.deps, c.var.user, { seriesId: c.req.valid('param').seriesId })),
  )
  .post('/series/:seriesId/seasons', validate('param', SeriesIdParamSchema), validate('json', CreateSeasonSchema), async (c) =>
    c.json(await createSeason(c.var.deps, c.var.user, { seriesId: c.req.valid('param').seriesId, data: c.req.valid('json') }), 201),
  )
  // Leagues: one table across several series (the superadmin's may span businesses, pending each owner's answer).
  .get('/leagues', async (c) => c.json(await listLeagues(c.var.deps, c.var.user)))
  .post('/leagues', validate('json', CreateLeagueSchema), async (c) => c.json(await createLeague(c.var.deps, c.var.user, c.req.valid('json')), 201))
  .post('/leagues/:leagueId/series', validate('param', LeagueIdParamSchema), validate('json', AddLeagueSeriesSchema), async (c) =>
    c.json(await addLeagueSeries(c.var.deps, c.var.user, { leagueId: c.req.valid('param').leagueId, seriesId: c.req.valid('json').seriesId })),
  )
  .delete('/leagues/:leagueId/series/:seriesId', validate('param', LeagueSeriesParamSchema), async (c) =>
    c.json(await removeLeagueSeries(c.var.deps, c.var.user, c.req.valid('param'))),
  )
  .post('/leagues/:leagueId/series/:seriesId/answer', validate('param', LeagueSeriesParamSchema), validate('json', LeagueAnswerSchema), async (c) =>
    c.json(await answerLeagueInvitation(c.var.deps, c.var.user, { ...c.req.valid('param'), accept: c.req.valid('json').accept })),
  )
  .post('/leagues/:leagueId/seasons', validate('param', LeagueIdParamSchema), validate('json', CreateSeasonSchema), async (c) =>
    c.json(await createLeagueSeason(c.var.deps, c.var.user, { leagueId: c.req.valid('param').leagueId, data: c.req.valid('json') }), 201),
  );

/** Mounted at /api/teams: a team hides itself (code + mail) or someone reports its name. Public, rate-limited. */
export const teamPublicRoutes = new Hono<AppEnv>()
  .post('/hide', validate('json', HideTeamSchema), async (c) =>
    c.json(await requestTeamHide(c.var.deps, { ...c.req.valid('json'), clientKey: clientKeyOf(c.req) }), 202),
  )
  .post('/:slug/report', validate('param', TeamSlugParamSchema), validate('json', ReportTeamSchema), async (c) =>
    c.json(await reportTeam(c.var.deps, { slug: c.req.valid('param').slug, reason: c.req.valid('json').reason, clientKey: clientKeyOf(c.req) }), 201),
  );

const superadminOnly = createMiddleware<AppEnv>(async (c, next) => {
  requireSuperadmin(c.var.user);
  c.header('cache-control', 'private, no-store');
  await next();
});

/** Mounted at /api/admin: the team-name reports of the moderation queue, rename and hide. */
export const teamAdminRoutes = new Hono<AppEnv>()
  .use('/team-reports', superadminOnly)
  .use('/team-reports/*', superadminOnly)
  .use('/teams/*', superadminOnly)
  .get('/team-reports', async (c) => c.json(await listTeamReports(c.var.deps)))
  .post('/team-reports/:id/dismiss', validate('param', TeamIdParamSchema), async (c) => c.json(await dismissReport(c.var.deps, c.req.valid('param'))))
  .patch('/teams/:id', validate('param', TeamIdParamSchema), validate('json', AdminTeamSchema), async (c) =>
    c.json(await updateTeam(c.var.deps, { ...c.req.valid('param'), ...c.req.valid('json') })),
  );

const HIDE_TITLE = 'Dölj laget';
/** GET /dolj-lag?t=… shows the confirmation; its button POSTs (the signed link from the mail). */
export const teamHidePages = new Hono<AppEnv>()
  .get('/', (c) =>
    linkPage(
      c,
      HIDE_TITLE,
      html`<p>Vill du dölja laget? Det försvinner från alla publika sidor, tabeller och resultat på Quizkväll.</p>${linkButton('/dolj-lag', c.req.query('t') ?? '', 'Dölj laget')}`,
    ),
  )
  .post('/', (c) =>
    linkGuard(c, HIDE_TITLE, async () => {
      await hideTeamByLink(c.var.deps, { token: c.req.query('t') });
      return linkPage(c, 'Klart', html`<p>Laget är dolt och syns inte längre på Quizkväll.</p><p><a href="/">Till startsidan</a></p>`);
    }),
  );
