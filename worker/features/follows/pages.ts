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
import { LINK_BUTTON_SECONDARY, linkButton, linkGuard, linkPage } from '../../lib/link-page';
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
/**
 * Shown by /push-optin.js in the opt-in button's place when this browser cannot take push (issue 44.2); the same
 * words as PUSH_TEXTS.unsupported (web/pwa/push.ts). In the HTML from the start so that its classes are in the
 * page's inlined CSS (worker/lib/critical-css.ts keeps only the classes the HTML uses).
 */
const PUSH_UNSUPPORTED = 'Din webbläsare kan inte visa påminnelser.';
const PUSH_UNSUPPORTED_CLASS = 'inline-flex min-h-11 items-center text-sm text-slate-600';

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
          ${linkButton('/bevakningar/bekrafta', tokenOf(c) ?? '', 'Bekräfta bevakningen')}`,
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
        const { label, manage } = await confirmFollow(followDeps(c), { token: tokenOf(c) });
        return linkPage(
          c,
          'Bevakningen är bekräftad',
          html`<p>Klart! Du bevakar nu ${label}. Varje mejl har en länk för att sluta.</p>
          ${manage ? html`<p>Dina bevakningar och påminnelser hittar du under <a href="${manage}">Mina bevakningar</a> (länken finns också i varje mejl).</p>` : ''}
          <p><a href="/">Till startsidan</a></p>`,
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
          ${linkButton('/bevakningar/avsluta', tokenOf(c) ?? '', 'Sluta bevaka')}`,
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
          ${linkButton('/bevakningar/avsluta-alla', tokenOf(c) ?? '', 'Avsluta all e-post')}`,
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
          <ul class="divide-y divide-slate-200">
            ${items.map(
              (
                f,
              ) => html`<li class="space-y-2 py-3" data-follow-label="${f.label}" data-follow-url="${f.url ?? ''}" data-follow-reminders="${f.kind === 'place' && f.reminders ? '1' : ''}" data-follow-push="${pushed.has(f.id) ? '1' : ''}">
                <p class="font-semibold">${f.url ? html`<a href="${f.url}">${f.label}</a>` : f.label}${f.confirmed ? '' : ' (inte bekräftad)'}</p>
                <div class="flex flex-wrap items-center gap-2">
                ${
                  f.kind === 'place'
                    ? html`<form method="post" action="${self}"><input type="hidden" name="id" value="${f.id}"><input type="hidden" name="action" value="${f.reminders ? 'pause' : 'resume'}"><button class="${LINK_BUTTON_SECONDARY}" type="submit">${f.reminders ? 'Pausa påminnelser' : 'Återuppta påminnelser'}</button></form>`
                    : ''
                }
                ${
                  !f.confirmed
                    ? ''
                    : pushed.has(f.id)
                      ? html`<form method="post" action="${self}"><input type="hidden" name="id" value="${f.id}"><input type="hidden" name="action" value="push-off"><button class="${LINK_BUTTON_SECONDARY}" type="submit" aria-label="Sluta påminna i telefonen: ${f.label}">Sluta påminna i telefonen</button></form>`
                      : html`<form method="post" action="${self}" data-push-optin hidden><input type="hidden" name="id" value="${f.id}"><input type="hidden" name="action" value="push-on"><input type="hidden" name="endpoint"><input type="hidden" name="p256dh"><input type="hidden" name="auth"><button class="${LINK_BUTTON_SECONDARY}" type="submit" aria-label="Påminn mig i telefonen: ${f.label}">Påminn mig i telefonen</button></form><span data-push-unsupported hidden class="${PUSH_UNSUPPORTED_CLASS}">${PUSH_UNSUPPORTED}</span>`
                }
                <form method="post" action="${self}"><input type="hidden" name="id" value="${f.id}"><input type="hidden" name="action" value="remove"><button class="${LINK_BUTTON_SECONDARY}" type="submit" aria-label="Ta bort bevakningen ${f.label}">Ta bort</button></form>
                </div>
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
