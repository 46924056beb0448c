/**
 * Quizmaster profiles (issue 48). Owner: /api/owner/quizmasters (typeahead, create, free-text suggestions) and
 * /api/owner/quizzes/:id/quizmaster (link, invite, remove the assignment). Quizmaster: /api/quizmaster/me (own
 * bio and photo). Mail links: /quizmaster-inbjudan?t= (claim; GET shows, POST claims when signed in) and
 * /quizmaster-inbjudan/stopp?t= (RFC 8058 one-click stop). The public page is in the pages feature.
 */
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { PUBLIC_CACHE_CONTROL } from '../../lib/cache';
import { invalidInput } from '../../lib/errors';
import { LINK_BUTTON, linkButton, linkGuard, linkPage } from '../../lib/link-page';
import { validate } from '../../lib/validate';
import {
  CreateQuizmasterSchema,
  EditOwnProfileSchema,
  IdParamSchema,
  InviteSchema,
  LinkQuizmasterSchema,
  PHOTO_MAX_BYTES,
  PHOTO_TOO_BIG,
  TypeaheadQuerySchema,
} from './contract';
import * as svc from './service';

export const quizmasterOwnerRoutes = new Hono<AppEnv>()
  .get('/quizmasters', validate('query', TypeaheadQuerySchema), async (c) => c.json(await svc.searchProfiles(c.var.deps, c.var.user, c.req.valid('query'))))
  .post('/quizmasters', validate('json', CreateQuizmasterSchema), async (c) =>
    c.json(await svc.createProfile(c.var.deps, c.var.user, c.req.valid('json')), 201),
  )
  .get('/quizmaster-suggestions', async (c) => c.json(await svc.suggestions(c.var.deps, c.var.user)))
  .get('/quizzes/:id/quizmaster', validate('param', IdParamSchema), async (c) =>
    c.json(await svc.quizQuizmaster(c.var.deps, c.var.user, { quizId: c.req.valid('param').id })),
  )
  .put('/quizzes/:id/quizmaster', validate('param', IdParamSchema), validate('json', LinkQuizmasterSchema), async (c) =>
    c.json(await svc.linkQuizmaster(c.var.deps, c.var.user, { quizId: c.req.valid('param').id, quizmasterId: c.req.valid('json').quizmasterId })),
  )
  .post('/quizzes/:id/quizmaster/invite', validate('param', IdParamSchema), validate('json', InviteSchema), async (c) =>
    c.json(await svc.invite(c.var.deps, c.var.user, { quizId: c.req.valid('param').id, email: c.req.valid('json').email })),
  )
  .delete('/quizzes/:id/quizmaster/assignment', validate('param', IdParamSchema), async (c) =>
    c.json(await svc.removeAssignment(c.var.deps, c.var.user, { quizId: c.req.valid('param').id })),
  );

/**
 * Mounted at /api/quizmaster. `rasterize` draws the resized photo: the share engines' resvg (share/service.ts
 * rasterizeSvg), handed in by app.ts because the share feature reads this one (the profile's card).
 */
export const quizmasterSelfRoutes = (rasterize: svc.Rasterize) =>
  new Hono<AppEnv>()
    .get('/me', async (c) => c.json(await svc.ownProfile(c.var.deps, c.var.user)))
    .patch('/me', validate('json', EditOwnProfileSchema), async (c) => c.json(await svc.editOwnProfile(c.var.deps, c.var.user, c.req.valid('json'))))
    // The photo is the raw body (image/jpeg, image/png or image/webp); over 2 MB is refused before it is read whole.
    // It is resized by the share engines' resvg (a lazy module, loaded on the first upload).
    .put('/me/photo', async (c) => {
      const declared = Number(c.req.header('content-length') ?? '0');
      if (declared > PHOTO_MAX_BYTES) throw invalidInput(PHOTO_TOO_BIG, [{ path: 'photo', message: PHOTO_TOO_BIG }]);
      return c.json(await svc.uploadPhoto(c.var.deps, c.env.IMPORTS, c.var.user, await c.req.arrayBuffer(), rasterize));
    });

const CLAIM_TITLE = 'Inbjudan som quizmaster';

export const quizmasterLinkPages = new Hono<AppEnv>()
  .get('/', (c) =>
    linkGuard(c, CLAIM_TITLE, async () => {
      const t = c.req.query('t') ?? '';
      const { profile, venueName, invitation } = await svc.invitationOf(c.var.deps, t);
      const intro = html`<p><strong>${venueName}</strong> har bjudit in dig som quizmaster med profilen <strong>${profile.name}</strong>.</p>`;
      if (invitation.claimedAt) return linkPage(c, CLAIM_TITLE, html`${intro}<p>Inbjudan är redan använd.</p>`);
      const here = `/quizmaster-inbjudan?t=${encodeURIComponent(t)}`;
      if (!c.var.user)
        return linkPage(
          c,
          CLAIM_TITLE,
          html`${intro}<p>Logga in eller skapa ett konto för att göra anspråk på profilen.</p>
            <p><a class="${LINK_BUTTON}" href="/login?redirect=${encodeURIComponent(here)}">Logga in</a></p>
            <p><a href="/register?redirect=${encodeURIComponent(here)}">Skapa konto</a></p>`,
        );
      return linkPage(
        c,
        CLAIM_TITLE,
        html`${intro}<p>Du är inloggad som ${c.var.user.email}.</p>${linkButton('/quizmaster-inbjudan', t, 'Gör anspråk på profilen')}`,
      );
    }),
  )
  .post('/', (c) =>
    linkGuard(c, CLAIM_TITLE, async () => {
      const profile = await svc.claim(c.var.deps, c.var.user, c.req.query('t'));
      return linkPage(
        c,
        'Klart',
        html`<p>Profilen <strong>${profile.name}</strong> är nu din.</p><p><a href="/quizmaster/${profile.slug}">Se din profil</a> · <a href="/account">Redigera presentation och bild</a></p>`,
      );
    }),
  )
  .get('/stopp', (c) =>
    linkPage(
      c,
      'Inga fler inbjudningar',
      html`<p>Vill du att vi inte skickar fler inbjudningar som quizmaster till din adress?</p>${linkButton('/quizmaster-inbjudan/stopp', c.req.query('t') ?? '', 'Inga fler inbjudningar')}`,
    ),
  )
  // RFC 8058 one-click: mail clients POST here without cookies or Origin (csrf exemption in middleware/csrf.ts).
  .post('/stopp', (c) =>
    linkGuard(c, 'Inga fler inbjudningar', async () => {
      await svc.stopInvites(c.var.deps, c.req.query('t'));
      return linkPage(c, 'Klart', html`<p>Vi skickar inga fler inbjudningar till din adress.</p><p><a href="/">Till startsidan</a></p>`);
    }),
  );

/** GET /quizmaster-foto/:slug: the profile's photo from R2 (`?v=`, the key's last part, changes with every upload). */
async function photoResponse(c: Context<AppEnv>, slug: string): Promise<Response> {
  const obj = await svc.photoOf(c.var.db, c.env.IMPORTS, slug);
  if (!obj) return c.text('Bilden finns inte', 404);
  return new Response(obj.body, {
    headers: {
      'content-type': obj.httpMetadata?.contentType ?? 'application/octet-stream',
      'cache-control': PUBLIC_CACHE_CONTROL,
      'x-content-type-options': 'nosniff',
    },
  });
}

/** Mounted at /quizmaster-foto: GET /quizmaster-foto/:slug, the profile's photo (not a page: kept off /quizmaster/*). */
export const quizmasterFileRoutes = new Hono<AppEnv>().get('/:slug', (c) => photoResponse(c, c.req.param('slug')));
