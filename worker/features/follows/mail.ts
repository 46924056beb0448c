/**
 * Follow mails (Swedish, plain text + minimal HTML). Every mail carries the RFC 8058 headers and the same
 * links visibly: end this follow (one click), end all mail to the address, manage ("Mina bevakningar").
 * Every interpolated value is escaped in the HTML part.
 */
import type { MailMessage } from '../../ports/mailer';
import { directionsUrl as geoDirectionsUrl } from '../../lib/geo';
import { displayDate, displayTime } from '../../lib/swedish';
import { quizIcsPath } from '../calendar/service';
import { CONFIRM_LINK_TTL_S } from './contract';
import type { MailQuiz } from './queries';

export interface MailLinks {
  unsubscribe: string;
  unsubscribeAll: string;
  manage: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function footer(links: MailLinks): { text: string; html: string } {
  return {
    text: `\n\n--\nMina bevakningar: ${links.manage}\nSluta bevaka detta: ${links.unsubscribe}\nAvsluta all e-post från Quizkväll: ${links.unsubscribeAll}\n`,
    html: `<hr><p style="font-size:13px;color:#555"><a href="${esc(links.manage)}">Mina bevakningar</a> · <a href="${esc(links.unsubscribe)}">Sluta bevaka detta</a> · <a href="${esc(links.unsubscribeAll)}">Avsluta all e-post</a></p>`,
  };
}

function withUnsubscribe(to: string, subject: string, text: string, html: string, links: MailLinks): MailMessage {
  const f = footer(links);
  return {
    to,
    subject,
    text: text + f.text,
    html: `<!doctype html><html lang="sv"><body style="font-family:system-ui,sans-serif">${html}${f.html}</body></html>`,
    headers: {
      'List-Unsubscribe': `<${links.unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

export function venueUrl(appUrl: string, q: { city_slug: string; venue_slug: string }): string {
  return `${appUrl}/quiz/${encodeURIComponent(q.city_slug)}/${encodeURIComponent(q.venue_slug)}`;
}

/** Directions by coordinates when the place has them, else by address (worker/lib/geo.ts). */
export function directionsUrl(q: Pick<MailQuiz, 'latitude' | 'longitude' | 'address' | 'city'>): string {
  return geoDirectionsUrl(q.latitude != null && q.longitude != null ? { lat: q.latitude, lng: q.longitude } : null, `${q.address}, ${q.city}`);
}

export function confirmMail(to: string, what: string, confirmUrl: string, links: MailLinks): MailMessage {
  const subject = 'Bekräfta din bevakning på Quizkväll';
  const text = `Hej!\n\nNågon (förhoppningsvis du) vill få e-post från Quizkväll om: ${what}.\n\nBekräfta här (länken gäller i ${CONFIRM_LINK_TTL_S / 3600} timmar och kan användas en gång):\n${confirmUrl}\n\nHar du inte bett om det här kan du strunta i mejlet: utan bekräftelse skickar vi inget mer.`;
  const html = `<p>Hej!</p><p>Någon (förhoppningsvis du) vill få e-post från Quizkväll om: <strong>${esc(what)}</strong>.</p><p><a href="${esc(confirmUrl)}">Bekräfta bevakningen</a> (gäller i ${CONFIRM_LINK_TTL_S / 3600} timmar, en gång).</p><p>Har du inte bett om det här kan du strunta i mejlet: utan bekräftelse skickar vi inget mer.</p>`;
  return withUnsubscribe(to, subject, text, html, links);
}

export function reminderMail(to: string, q: MailQuiz, appUrl: string, links: MailLinks): MailMessage {
  const time = displayTime(q.start_time);
  const subject = `Ikväll: pubquiz på ${q.place_name} kl. ${time}`;
  const page = venueUrl(appUrl, q);
  const directions = directionsUrl(q);
  // Add to calendar: the quiz's own .ics download (same UID as the feeds, so it never duplicates a subscription).
  const ics = `${appUrl}${quizIcsPath(q.id)}`;
  const title = q.title ? `${q.title}\n` : '';
  const text = `Ikväll ${displayDate(q.date)} kl. ${time} är det pubquiz på ${q.place_name} (${q.venue_name}), ${q.address}, ${q.city}.\n${title}\nMer om kvällen: ${page}\nLägg till i kalendern: ${ics}\nVägbeskrivning: ${directions}`;
  const html = `<p>Ikväll ${esc(displayDate(q.date))} kl. ${esc(time)} är det pubquiz på <strong>${esc(q.place_name)}</strong> (${esc(q.venue_name)}), ${esc(q.address)}, ${esc(q.city)}.</p>${q.title ? `<p>${esc(q.title)}</p>` : ''}<p><a href="${esc(page)}">Mer om kvällen</a> · <a href="${esc(ics)}">Lägg till i kalendern</a> · <a href="${esc(directions)}">Vägbeskrivning</a></p>`;
  return withUnsubscribe(to, subject, text, html, links);
}

/** One line per quiz; `isNew` marks quizzes added since last week's digest ("Nytt"). */
export function digestMail(
  to: string,
  what: string,
  items: Array<MailQuiz & { isNew: boolean }>,
  appUrl: string,
  links: MailLinks,
  results?: { winners: Array<{ date: string; team: string }>; path: string },
): MailMessage {
  const subject = `Veckans quiz: ${what}`;
  const line = (q: MailQuiz & { isNew: boolean }) =>
    `${q.isNew ? '[Nytt] ' : ''}${displayDate(q.date)} kl. ${displayTime(q.start_time)}: ${q.place_name}, ${q.city}${q.title ? ` – ${q.title}` : ''}`;
  // "Veckans resultat" (issue 46): last week's winners at the place, with a link to its results page.
  const winner = (w: { date: string; team: string }) => `${displayDate(w.date)}: ${w.team} vann`;
  const resultsText = results ? `\n\nVeckans resultat:\n${results.winners.map(winner).join('\n')}\n  ${appUrl}${results.path}` : '';
  const resultsHtml = results
    ? `<p><strong>Veckans resultat</strong></p><ul>${results.winners.map((w) => `<li>${esc(winner(w))}</li>`).join('')}</ul><p><a href="${esc(appUrl + results.path)}">Alla resultat</a></p>`
    : '';
  const text = `Quiz den här veckan för din bevakning "${what}":\n\n${items.map((q) => `${line(q)}\n  ${venueUrl(appUrl, q)}`).join('\n')}${resultsText}`;
  const html = `<p>Quiz den här veckan för din bevakning <strong>${esc(what)}</strong>:</p><ul>${items
    .map((q) => `<li>${q.isNew ? '<strong>Nytt</strong> ' : ''}<a href="${esc(venueUrl(appUrl, q))}">${esc(line({ ...q, isNew: false }))}</a></li>`)
    .join('')}</ul>${resultsHtml}`;
  return withUnsubscribe(to, subject, text, html, links);
}

/** Issue 48: "X leder nu quiz på Y" — a followed quizmaster at a new place. */
export function quizmasterNewsMail(
  to: string,
  n: { name: string; slug: string; place_name: string; venue_name: string; venue_slug: string; city: string; city_slug: string },
  appUrl: string,
  links: MailLinks,
): MailMessage {
  const subject = `${n.name} leder nu quiz på ${n.place_name}`;
  const page = venueUrl(appUrl, n);
  const profile = `${appUrl}/quizmaster/${encodeURIComponent(n.slug)}`;
  const text = `${n.name} leder nu quiz på ${n.place_name} (${n.venue_name}), ${n.city}.\n\nMer om stället: ${page}\nAlla quiz med ${n.name}: ${profile}`;
  const html = `<p><strong>${esc(n.name)}</strong> leder nu quiz på <strong>${esc(n.place_name)}</strong> (${esc(n.venue_name)}), ${esc(n.city)}.</p><p><a href="${esc(page)}">Mer om stället</a> · <a href="${esc(profile)}">Alla quiz med ${esc(n.name)}</a></p>`;
  return withUnsubscribe(to, subject, text, html, links);
}
