/**
 * "Vi kommer" mails (Swedish, plain text + minimal HTML). Every mail carries the one-click "Vi kan inte komma"
 * link, which frees the team's table. Every interpolated value is escaped in the HTML part.
 */
import type { MailMessage } from '../../ports/mailer';
import { displayDate, displayTime } from '../../lib/swedish';
import { RSVP_CONFIRM_TTL_S } from './contract';

export interface MailNight {
  date: string;
  start_time: string | null;
  place_name: string;
  city: string;
  city_slug: string;
  venue_slug: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function nightPath(n: Pick<MailNight, 'city_slug' | 'venue_slug'>): string {
  return `/quiz/${encodeURIComponent(n.city_slug)}/${encodeURIComponent(n.venue_slug)}`;
}
const nightText = (n: MailNight) => `${n.place_name}, ${n.city}, ${displayDate(n.date)} kl. ${displayTime(n.start_time)}`;

function mail(to: string, subject: string, text: string, html: string, cancelUrl: string): MailMessage {
  return {
    to,
    subject,
    text: `${text}\n\n--\nVi kan inte komma: ${cancelUrl}\n(ett klick, så går bordet till nästa lag)\n`,
    html: `<!doctype html><html lang="sv"><body style="font-family:system-ui,sans-serif">${html}<hr><p style="font-size:13px;color:#555"><a href="${esc(cancelUrl)}">Vi kan inte komma</a> (ett klick, så går bordet till nästa lag)</p></body></html>`,
  };
}

/** Double opt-in: "Bekräfta att ni kommer". */
export function confirmMail(to: string, n: MailNight, teamSize: number, confirmUrl: string, cancelUrl: string): MailMessage {
  const what = nightText(n);
  const hours = RSVP_CONFIRM_TTL_S / 3600;
  return mail(
    to,
    `Bekräfta att ni kommer: ${n.place_name} ${displayDate(n.date)}`,
    `Hej!\n\nNågon (förhoppningsvis du) har anmält ett lag på ${teamSize} till pubquiz: ${what}.\n\nBekräfta här (länken gäller i ${hours} timmar och kan användas en gång):\n${confirmUrl}\n\nUtan bekräftelse räknas laget inte.`,
    `<p>Hej!</p><p>Någon (förhoppningsvis du) har anmält ett lag på ${teamSize} till pubquiz: <strong>${esc(what)}</strong>.</p><p><a href="${esc(confirmUrl)}">Bekräfta att vi kommer</a> (gäller i ${hours} timmar, en gång).</p><p>Utan bekräftelse räknas laget inte.</p>`,
    cancelUrl,
  );
}

/** A signed-in user's one click: a receipt with the way out. */
export function receiptMail(to: string, n: MailNight, state: string, cancelUrl: string): MailMessage {
  const what = nightText(n);
  const line = state === 'queued' ? `Det är fullt just nu, så ert lag står i kö. Blir ett bord ledigt får ni ett mejl.` : `Ert lag är anmält. Välkomna!`;
  return mail(
    to,
    `Vi kommer: ${n.place_name} ${displayDate(n.date)}`,
    `${line}\n\n${what}`,
    `<p>${esc(line)}</p><p><strong>${esc(what)}</strong></p>`,
    cancelUrl,
  );
}

/** The head of the waitlist is offered a freed table. */
export function offerMail(to: string, n: MailNight, expires: Date, confirmUrl: string, cancelUrl: string): MailMessage {
  const what = nightText(n);
  const until = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', hour: '2-digit', minute: '2-digit' }).format(expires);
  return mail(
    to,
    `Ett bord är ledigt: ${n.place_name} ${displayDate(n.date)}`,
    `Ett bord har blivit ledigt till pubquiz: ${what}.\n\nVill ni ha det? Bekräfta senast kl. ${until}, annars går det till nästa lag i kön:\n${confirmUrl}`,
    `<p>Ett bord har blivit ledigt till pubquiz: <strong>${esc(what)}</strong>.</p><p><a href="${esc(confirmUrl)}">Ja, vi tar bordet</a> (senast kl. ${esc(until)}, annars går det till nästa lag i kön).</p>`,
    cancelUrl,
  );
}

/** 24 hours before: "Imorgon" or "Ikväll" by the night's own date. */
export function reminderMail(to: string, n: MailNight, appUrl: string, cancelUrl: string): MailMessage {
  const what = nightText(n);
  const page = `${appUrl}${nightPath(n)}`;
  return mail(
    to,
    `Påminnelse: pubquiz på ${n.place_name} ${displayDate(n.date)} kl. ${displayTime(n.start_time)}`,
    `Ert lag är anmält till pubquiz: ${what}.\n\nMer om kvällen: ${page}\n\nKan ni inte komma? Säg till med länken nedan, så får nästa lag bordet.`,
    `<p>Ert lag är anmält till pubquiz: <strong>${esc(what)}</strong>.</p><p><a href="${esc(page)}">Mer om kvällen</a></p><p>Kan ni inte komma? Säg till med länken nedan, så får nästa lag bordet.</p>`,
    cancelUrl,
  );
}
