/**
 * /helgdag?t=… — the "Ja, vi kör" / "Ställ in" links of the holiday mail (issue 20 §2), without signing
 * in. GET shows what the link will do (changes nothing: mail scanners prefetch); its button POSTs, which
 * spends the single-use token and says what was done.
 */
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../../context';
import { holidayLabel } from '../../lib/holidays';
import { linkButton, linkGuard, linkPage } from '../../lib/link-page';
import { displayDate } from '../../lib/swedish';
import { applyHolidayLink, inspectHolidayLink, type HolidayLinkInfo } from './service';

const when = (i: HolidayLinkInfo) => `${holidayLabel(i.holiday)}, ${displayDate(i.date)}`;

export const holidayLinkPages = new Hono<AppEnv>()
  .get('/', (c) =>
    linkGuard(c, 'Quiz på helgdag', async () => {
      const t = c.req.query('t');
      const info = await inspectHolidayLink(c.var.deps, { token: t });
      const question = info.action === 'run' ? `Ni kör quiz på ${info.venueName} ${when(info)}?` : `Ställa in quizet på ${info.venueName} ${when(info)}?`;
      return linkPage(c, 'Quiz på helgdag', html`<p>${question}</p>${linkButton('/helgdag', t ?? '', info.action === 'run' ? 'Ja, vi kör' : 'Ställ in')}`);
    }),
  )
  .post('/', (c) =>
    linkGuard(c, 'Quiz på helgdag', async () => {
      const info = await applyHolidayLink(c.var.deps, { token: c.req.query('t') });
      const done =
        info.action === 'run'
          ? `Tack! Quizet på ${info.venueName} ${when(info)} blir av och visas som vanligt.`
          : `Klart! Quizet på ${info.venueName} ${when(info)} är inställt. Serien fortsätter som vanligt efteråt.`;
      return linkPage(c, info.action === 'run' ? 'Quizet blir av' : 'Quizet är inställt', html`<p>${done}</p><p><a href="/admin">Till mina quiz</a></p>`);
    }),
  );
