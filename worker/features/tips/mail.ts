/**
 * The tipster's one mail (issue 31.1): "your tip is published". The address was typed by someone and never
 * confirmed, so the mail carries no text anyone could choose (docs/features/mail-to-unconfirmed-addresses.md,
 * issue 43.7): fixed texts, the recipient's own address and our signed links — the place's page behind one (its
 * name and slug are the tipster's words), the RFC 8058 one-click stop (List-Unsubscribe) behind the other.
 */
import type { MailMessage } from '../../ports/mailer';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export const TIP_PUBLISHED_SUBJECT = 'Tack för ditt tips! Quizet finns nu på Quizkväll';

export function tipPublishedMail(to: string, t: { page: string; stop: string }): MailMessage {
  const text =
    `Hej!\n\nTack för ditt tips. Quizet du tipsade om finns nu på Quizkväll:\n${t.page}\n\n` +
    `Vi har nu raderat din e-postadress (${to}) och skickar inget mer om tipset.\n\nHälsningar,\nQuizkväll\n\n--\nVill du inte få e-post om tips: ${t.stop}\n`;
  const html =
    `<!doctype html><html lang="sv"><body style="font-family:system-ui,sans-serif"><p>Hej!</p>` +
    `<p>Tack för ditt tips. Quizet du tipsade om finns nu på Quizkväll: <a href="${esc(t.page)}">Visa quizet</a></p>` +
    `<p>Vi har nu raderat din e-postadress (${esc(to)}) och skickar inget mer om tipset.</p><p>Hälsningar,<br>Quizkväll</p>` +
    `<hr><p style="font-size:13px;color:#555"><a href="${esc(t.stop)}">Ingen e-post om tips</a></p></body></html>`;
  return {
    to,
    subject: TIP_PUBLISHED_SUBJECT,
    text,
    html,
    headers: { 'List-Unsubscribe': `<${t.stop}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
