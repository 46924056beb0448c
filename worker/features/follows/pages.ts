/**
 * The pages behind the links in follow mail (server-rendered, Swedish, no JavaScript): confirm a follow,
 * unsubscribe one follow (RFC 8058 one-click POST, exempt from the CSRF guard in middleware/csrf.ts),
 * unsubscribe everything, and "Mina bevakningar" (list, pause reminders, remove) — all by signed link,
 * without a session. A GET never changes anything (mail scanners prefetch links); the buttons POST.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../../context';
import { invalidInput } from '../../lib/errors';
import { linkGuard, linkPage } from '../../lib/link-page';
import { linkKeys, linkRefusal, verifyLink } from '../../lib/signed-link';
import { PushSubscriptionSchema } from './contract';
import { pushedFollowIds, subscribePush, unsubscribePush } from './push';
import { followDeps } from './routes';
import { confirmFollow, inspectUnsubscribe, ownerOfManageLink, unsubscribe, unsubscribeAll } from './links';
import { listFollows, removeFollow, setReminders } from './rules';

/**
 * "Påminn mig i telefonen" on "Mina bevakningar" without an account (issue 32): the page works without
 * JavaScript; /push-optin.js (web/public) shows the button where the browser can take push, asks for the
 * permission after the tap, subscribes and posts the subscription in this page's own form (action push-on).
 * "Sluta påminna i telefonen" is a plain form button (push-off). The signed manage link is the authority.
 */
const PUSH_SCRIPT = '/push-optin.js';

type C = Context<AppEnv>;

/** Below a refused action's text (bad/expired/used link, gone follow): the way back to the start page. */
const TO_START = html`<p><a href="/">Till startsidan</a></p>`;

const tokenOf = (c: C) => c.req.query('t');
const actionUrl = (path: string, t: string | undefined) => `${path}?t=${encodeURIComponent(t ?? '')}`;

export const followPages = new Hono<AppEnv>()
  .get('/bekrafta', (c) =>
    linkGuard(
      c,
      'Bekräfta bevakning',
      async () => {
        const deps = followDeps(c);
        const r = await verifyLink(linkKeys(deps.config), tokenOf(c), 'follow-confirm', deps.clock.now());
        if (!r.ok) return linkPage(c, 'Bekräfta bevakning', html`<p>${linkRefusal(r.reason)}</p>`, 400);
        return linkPage(
          c,
          'Bekräfta bevakning',
          html`<p>Tryck på knappen för att börja få e-post om quiz du bevakar.</p>
          <form method="post" action="${actionUrl('/bevakningar/bekrafta', tokenOf(c))}"><button type="submit">Bekräfta bevakningen</button></form>`,
        );
      },
      TO_START,
    ),
  )
  .post('/bekrafta', (c) =>
    linkGuard(
      c,
      'Bekräfta bevakning',
      async () => {
        const { label } = await confirmFollow(followDeps(c), { token: tokenOf(c) });
        return linkPage(
          c,
          'Bevakningen är bekräftad',
          html`<p>Klart! Du bevakar nu ${label}. Varje mejl har en länk för att sluta.</p><p><a href="/">Till startsidan</a></p>`,
        );
      },
      TO_START,
    ),
  )
  .get('/avsluta', (c) =>
    linkGuard(
      c,
      'Sluta bevaka',
      async () => {
        const { label } = await inspectUnsubscribe(followDeps(c), { token: tokenOf(c) });
        if (!label) return linkPage(c, 'Sluta bevaka', html`<p>Den här bevakningen är redan avslutad.</p>`);
        return linkPage(
          c,
          'Sluta bevaka',
          html`<p>Vill du sluta få e-post om ${label}?</p>
          <form method="post" action="${actionUrl('/bevakningar/avsluta', tokenOf(c))}"><button type="submit">Sluta bevaka</button></form>`,
        );
      },
      TO_START,
    ),
  )
  // RFC 8058 one-click: mail clients POST "List-Unsubscribe=One-Click" here without cookies or Origin.
  .post('/avsluta', (c) =>
    linkGuard(
      c,
      'Sluta bevaka',
      async () => {
        const { label } = await unsubscribe(followDeps(c), { token: tokenOf(c) });
        return linkPage(
          c,
          'Bevakningen är avslutad',
          html`<p>Du får inte längre e-post om ${label ?? 'den här bevakningen'}.</p><p><a href="/">Till startsidan</a></p>`,
        );
      },
      TO_START,
    ),
  )
  .get('/avsluta-alla', (c) =>
    linkGuard(
      c,
      'Avsluta all e-post',
      async () => {
        const deps = followDeps(c);
        const r = await verifyLink(linkKeys(deps.config), tokenOf(c), 'unsubscribe-all', deps.clock.now());
        if (!r.ok) return linkPage(c, 'Avsluta all e-post', html`<p>${linkRefusal(r.reason)}</p>`, 400);
        return linkPage(
          c,
          'Avsluta all e-post',
          html`<p>Alla dina bevakningar tas bort och vi skickar ingen mer e-post om quiz till dig.</p>
          <form method="post" action="${actionUrl('/bevakningar/avsluta-alla', tokenOf(c))}"><button type="submit">Avsluta all e-post</button></form>`,
        );
      },
      TO_START,
    ),
  )
  .post('/avsluta-alla', (c) =>
    linkGuard(
      c,
      'Avsluta all e-post',
      async () => {
        await unsubscribeAll(followDeps(c), { token: tokenOf(c) });
        return linkPage(
          c,
          'All e-post är avslutad',
          html`<p>Du får ingen mer e-post om quiz från oss. Dina bevakningar är borttagna.</p><p><a href="/">Till startsidan</a></p>`,
        );
      },
      TO_START,
    ),
  )
  .get('/', (c) =>
    linkGuard(
      c,
      'Mina bevakningar',
      async () => {
        const deps = followDeps(c);
        const { owner } = await ownerOfManageLink(deps, { token: tokenOf(c) });
        const items = await listFollows(deps, { owner });
        const pushed = new Set(await pushedFollowIds(deps, owner));
        const self = actionUrl('/bevakningar', tokenOf(c));
        return linkPage(
          c,
          'Mina bevakningar',
          html`${items.length === 0 ? html`<p>Du bevakar ingenting just nu.</p>` : ''}
          <ul>
            ${items.map(
              (
                f,
              ) => html`<li data-follow-label="${f.label}" data-follow-url="${f.url ?? ''}" data-follow-reminders="${f.kind === 'place' && f.reminders ? '1' : ''}" data-follow-push="${pushed.has(f.id) ? '1' : ''}">
                <strong>${f.url ? html`<a href="${f.url}">${f.label}</a>` : f.label}</strong>${f.confirmed ? '' : ' (inte bekräftad)'}<br>
                ${
                  f.kind === 'place'
                    ? html`<form method="post" action="${self}"><input type="hidden" name="id" value="${f.id}"><input type="hidden" name="action" value="${f.reminders ? 'pause' : 'resume'}"><button class="secondary" type="submit">${f.reminders ? 'Pausa påminnelser' : 'Återuppta påminnelser'}</button></form>`
                    : ''
                }
                ${
                  !f.confirmed
                    ? ''
                    : pushed.has(f.id)
                      ? html`<form method="post" action="${self}"><input type="hidden" name="id" value="${f.id}"><input type="hidden" name="action" value="push-off"><button class="secondary" type="submit" aria-label="Sluta påminna i telefonen: ${f.label}">Sluta påminna i telefonen</button></form>`
                      : html`<form method="post" action="${self}" data-push-optin hidden><input type="hidden" name="id" value="${f.id}"><input type="hidden" name="action" value="push-on"><input type="hidden" name="endpoint"><input type="hidden" name="p256dh"><input type="hidden" name="auth"><button class="secondary" type="submit" aria-label="Påminn mig i telefonen: ${f.label}">Påminn mig i telefonen</button></form>`
                }
                <form method="post" action="${self}"><input type="hidden" name="id" value="${f.id}"><input type="hidden" name="action" value="remove"><button class="secondary" type="submit">Ta bort</button></form>
              </li>`,
            )}
          </ul>
          <p role="status" data-push-note></p>
          <script type="module" src="${PUSH_SCRIPT}"></script>`,
        );
      },
      TO_START,
    ),
  )
  .post('/', (c) =>
    linkGuard(
      c,
      'Mina bevakningar',
      async () => {
        const deps = followDeps(c);
        const { owner } = await ownerOfManageLink(deps, { token: tokenOf(c) });
        const form = await c.req.parseBody();
        const id = typeof form.id === 'string' ? form.id : '';
        const action = form.action;
        if (action === 'remove') await removeFollow(deps, { owner, followId: id });
        else if (action === 'pause' || action === 'resume') await setReminders(deps, { owner, followId: id, reminders: action === 'resume' });
        else if (action === 'push-on') {
          const parsed = PushSubscriptionSchema.safeParse({ endpoint: form.endpoint, keys: { p256dh: form.p256dh, auth: form.auth } });
          if (!parsed.success) throw invalidInput(parsed.error.issues[0]?.message ?? 'Prenumerationen är ogiltig');
          await subscribePush(c.var.deps, { owner, followId: id, subscription: parsed.data });
        } else if (action === 'push-off') await unsubscribePush(deps, { owner, followId: id });
        else return linkPage(c, 'Mina bevakningar', html`<p>Okänd åtgärd.</p>`, 400);
        return c.redirect(actionUrl('/bevakningar', tokenOf(c)), 303);
      },
      TO_START,
    ),
  );
