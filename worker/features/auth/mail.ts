/** Swedish transactional e-mails of the auth feature. Links use config.appUrl. */
import type { MailMessage } from '../../ports/mailer';
import { countText } from '../../lib/swedish';
import { RESET_TOKEN_TTL_HOURS, VERIFY_TOKEN_TTL_MS } from './contract';

const sign = '\n\nHälsningar,\nQuizkväll';

/**
 * Goes to an address nobody has confirmed yet (issue 26.8): no text anyone could choose — not even the
 * name of the business to take over (any owner names a business); the page after the link shows it.
 */
export function verifyMail(to: string, link: string, takeover = false): MailMessage {
  return {
    to,
    subject: 'Bekräfta din e-postadress – Quizkväll',
    text:
      `Hej!\n\nTack för att du registrerade dig på Quizkväll.` +
      (takeover ? ' När du har bekräftat tar du över verksamheten du valde.' : '') +
      `\n\nBekräfta din e-postadress genom att öppna länken nedan (giltig i ${VERIFY_TOKEN_TTL_MS / 3_600_000} timmar):\n\n${link}\n\n` +
      `Om du inte har skapat ett konto kan du ignorera detta meddelande.` +
      sign,
  };
}

export function resetMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Återställ ditt lösenord – Quizkväll',
    text:
      `Hej!\n\nVi fick en begäran om att återställa lösenordet för ditt konto.\n\n` +
      `Välj ett nytt lösenord via länken nedan (giltig i ${countText(RESET_TOKEN_TTL_HOURS, 'timme', 'timmar')}, kan bara användas en gång):\n\n${link}\n\n` +
      `Om du inte bad om detta kan du ignorera meddelandet; ditt lösenord ändras inte.` +
      sign,
  };
}

export function welcomeMail(to: string, appUrl: string): MailMessage {
  return {
    to,
    subject: 'Välkommen till Quizkväll!',
    text:
      `Hej och välkommen!\n\nDin e-postadress är bekräftad och ditt konto är klart.\n\n` +
      `På Min Sida kan du lägga upp din verksamhet, dina platser och era quizkvällar:\n\n${appUrl}/admin` +
      sign,
  };
}

export function newUserNotice(to: string, user: { id: string; email: string; createdAt: string }, appUrl: string): MailMessage {
  return {
    to,
    subject: `Ny användare: ${user.email}`,
    text:
      `En ny användare har bekräftat sitt konto på Quizkväll.\n\n` +
      `E-post: ${user.email}\nAnvändar-id: ${user.id}\nSkapad: ${user.createdAt}\n\n${appUrl}/superadmin` +
      sign,
  };
}
