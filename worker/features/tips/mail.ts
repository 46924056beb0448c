/**
 * The tipster's one mail (issue 31.1): "your tip is published", with the link to the place's page and the
 * RFC 8058 one-click stop (List-Unsubscribe). Every interpolated value is escaped in the HTML part.
 */
import type { MailMessage } from '../../ports/mailer';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function tipPublishedMail(to: string, t: { venueName: string; page: string; stop: string }): MailMessage {
  const subject = `Tack för tipset! ${t.venueName} finns nu på Quizkväll`;
  const text =
    `Hej!\n\nTack för ditt tips. Quizet på ${t.venueName} finns nu på Quizkväll:\n${t.page}\n\n` +
    `Vi har nu raderat din e-postadress och skickar inget mer om tipset.\n\nHälsningar,\nQuizkväll\n\n--\nVill du inte få e-post om tips: ${t.stop}\n`;
  const html =
    `<!doctype html><html lang="sv"><body style="font-family:system-ui,sans-serif"><p>Hej!</p>` +
    `<p>Tack för ditt tips. Quizet på <strong>${esc(t.venueName)}</strong> finns nu på Quizkväll: <a href="${esc(t.page)}">${esc(t.page)}</a></p>` +
    `<p>Vi har nu raderat din e-postadress och skickar inget mer om tipset.</p><p>Hälsningar,<br>Quizkväll</p>` +
    `<hr><p style="font-size:13px;color:#555"><a href="${esc(t.stop)}">Ingen e-post om tips</a></p></body></html>`;
  return { to, subject, text, html, headers: { 'List-Unsubscribe': `<${t.stop}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}
