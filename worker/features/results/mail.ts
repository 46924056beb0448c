/**
 * The team-hiding mail (issue 46). The address was typed by someone and is not confirmed until the link is used,
 * so the mail carries only fixed text and our signed link (docs/features/mail-to-unconfirmed-addresses.md): not
 * even the team's name, which is someone's words.
 */
import type { MailMessage } from '../../ports/mailer';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export const TEAM_HIDE_SUBJECT = 'Bekräfta att ert lag ska döljas på Quizkväll';

export function teamHideMail(to: string, link: string): MailMessage {
  const text =
    'Hej!\n\nNågon (förhoppningsvis du) bad att ett quizlag ska döljas på Quizkväll med lagets kod. ' +
    `Öppna länken för att bekräfta. Laget försvinner då från alla publika sidor och tabeller:\n${link}\n\n` +
    'Bad du inte om det här kan du strunta i mejlet. Vi sparar inte din e-postadress.\n\nHälsningar,\nQuizkväll\n';
  const html =
    '<!doctype html><html lang="sv"><body style="font-family:system-ui,sans-serif"><p>Hej!</p>' +
    '<p>Någon (förhoppningsvis du) bad att ett quizlag ska döljas på Quizkväll med lagets kod. Laget försvinner då från alla publika sidor och tabeller.</p>' +
    `<p><a href="${esc(link)}">Bekräfta och dölj laget</a></p>` +
    '<p>Bad du inte om det här kan du strunta i mejlet. Vi sparar inte din e-postadress.</p><p>Hälsningar,<br>Quizkväll</p></body></html>';
  return { to, subject: TEAM_HIDE_SUBJECT, text, html };
}
