/**
 * The invitation mail (issue 48.3). The address is the owner's word, never confirmed, so the mail holds only
 * fixed text and our signed links (docs/features/mail-to-unconfirmed-addresses.md): the profile's and the
 * business's names are shown on the claim page behind the link, not here. One-click stop (RFC 8058).
 */
import type { MailMessage } from '../../ports/mailer';
import { INVITE_TTL_DAYS } from './contract';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export const INVITE_SUBJECT = 'Du är inbjuden som quizmaster på Quizkväll';

export function inviteMail(to: string, t: { claim: string; stop: string }): MailMessage {
  const text =
    `Hej!\n\nEtt ställe på Quizkväll har bjudit in dig som quizmaster. Med ett konto kan du skriva din presentation, ` +
    `lägga upp en bild och lägga in resultat för quizen du leder.\n\nSe inbjudan och gör anspråk på profilen (länken gäller i ${INVITE_TTL_DAYS} dagar):\n${t.claim}\n\n` +
    `Känner du inte igen det här kan du strunta i mejlet.\n\nHälsningar,\nQuizkväll\n\n--\nVill du inte få fler inbjudningar: ${t.stop}\n`;
  const html =
    `<!doctype html><html lang="sv"><body style="font-family:system-ui,sans-serif"><p>Hej!</p>` +
    `<p>Ett ställe på Quizkväll har bjudit in dig som quizmaster. Med ett konto kan du skriva din presentation, lägga upp en bild och lägga in resultat för quizen du leder.</p>` +
    `<p><a href="${esc(t.claim)}">Se inbjudan</a> (länken gäller i ${INVITE_TTL_DAYS} dagar)</p>` +
    `<p>Känner du inte igen det här kan du strunta i mejlet.</p><p>Hälsningar,<br>Quizkväll</p>` +
    `<hr><p style="font-size:13px;color:#555"><a href="${esc(t.stop)}">Inga fler inbjudningar</a></p></body></html>`;
  return { to, subject: INVITE_SUBJECT, text, html, headers: { 'List-Unsubscribe': `<${t.stop}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}
