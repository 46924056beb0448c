/**
 * The pages behind the links in "Vi kommer" mail (server-rendered, Swedish, no JavaScript): confirm (the double
 * opt-in, or an offered table) and "Vi kan inte komma" (RFC 8058-style one-click POST, exempt from the CSRF guard).
 * A GET never changes anything (mail scanners prefetch links); the buttons POST.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../../context';
import { linkButton, linkGuard, linkPage } from '../../lib/link-page';
import { offerEnqueue } from './routes';
import { cancelRsvp, confirmRsvp, inspectCancel, inspectConfirm, type RsvpLinkView } from './service';

type C = Context<AppEnv>;
const TO_START = html`<p><a href="/">Till startsidan</a></p>`;
const tokenOf = (c: C) => c.req.query('t');
const night = (v: RsvpLinkView) => html`<strong>${v.place}</strong>, ${v.when}`;

export const rsvpPages = new Hono<AppEnv>()
  .get('/bekrafta', (c) =>
    linkGuard(
      c,
      'Bekräfta att ni kommer',
      async () => {
        const v = await inspectConfirm(c.var.deps, { token: tokenOf(c) });
        const offered = v.state === 'offered';
        return linkPage(
          c,
          'Bekräfta att ni kommer',
          html`<p>${offered ? 'Ett bord är ledigt för ert lag till' : 'Bekräfta att ert lag kommer till'} ${night(v)}.</p>
          ${linkButton('/vi-kommer/bekrafta', tokenOf(c) ?? '', offered ? 'Ja, vi tar bordet' : 'Vi kommer')}`,
        );
      },
      TO_START,
    ),
  )
  .post('/bekrafta', (c) =>
    linkGuard(
      c,
      'Bekräfta att ni kommer',
      async () => {
        const v = await confirmRsvp(c.var.deps, { token: tokenOf(c) });
        const text =
          v.state === 'queued'
            ? html`<p>Det är fullt just nu, så ert lag står i kö till ${night(v)}. Blir ett bord ledigt får ni ett mejl.</p>`
            : html`<p>Klart! Ert lag är anmält till ${night(v)}. Välkomna!</p>`;
        return linkPage(c, v.state === 'queued' ? 'Ni står i kö' : 'Ni är anmälda', html`${text}<p><a href="${v.path}">Till quizets sida</a></p>`);
      },
      TO_START,
    ),
  )
  .get('/avboka', (c) =>
    linkGuard(
      c,
      'Vi kan inte komma',
      async () => {
        const v = await inspectCancel(c.var.deps, { token: tokenOf(c) });
        if (v.state === 'cancelled') return linkPage(c, 'Vi kan inte komma', html`<p>Anmälan till ${night(v)} är redan avbokad.</p>`);
        return linkPage(
          c,
          'Vi kan inte komma',
          html`<p>Avboka ert lag till ${night(v)}? Bordet går då till nästa lag.</p>
          ${linkButton('/vi-kommer/avboka', tokenOf(c) ?? '', 'Vi kan inte komma')}`,
        );
      },
      TO_START,
    ),
  )
  .post('/avboka', (c) =>
    linkGuard(
      c,
      'Vi kan inte komma',
      async () => {
        const v = await cancelRsvp(c.var.deps, { token: tokenOf(c), enqueueOffer: offerEnqueue(c) });
        return linkPage(c, 'Avbokat', html`<p>Tack för att ni sa till! Anmälan till ${night(v)} är avbokad.</p>${TO_START}`);
      },
      TO_START,
    ),
  );
