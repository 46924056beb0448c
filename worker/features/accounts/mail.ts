/** Swedish e-mails of the accounts feature (own e-mail and password changes). */
import type { MailMessage } from '../../ports/mailer';
import { EMAIL_CHANGE_TOKEN_TTL_MS } from './contract';

const sign = '\n\nHälsningar,\nQuizkväll';

export function emailChangeMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Bekräfta din nya e-postadress – Quizkväll',
    text:
      `Hej!\n\nDu har bett om att byta e-postadress för ditt konto på Quizkväll till ${to}.\n\n` +
      `Bekräfta bytet via länken nedan (giltig i ${EMAIL_CHANGE_TOKEN_TTL_MS / 3_600_000} timmar):\n\n${link}\n\n` +
      `Om du inte bad om detta kan du ignorera meddelandet.` +
      sign,
  };
}

export function emailChangedNotice(to: string, newEmail: string): MailMessage {
  return {
    to,
    subject: 'Din e-postadress har ändrats – Quizkväll',
    text:
      `Hej!\n\nE-postadressen för ditt konto på Quizkväll har ändrats till ${newEmail}.\n\n` +
      `Om det inte var du, kontakta oss omedelbart genom att svara på detta meddelande.` +
      sign,
  };
}

export function passwordChangedNotice(to: string): MailMessage {
  return {
    to,
    subject: 'Ditt lösenord har ändrats – Quizkväll',
    text: `Hej!\n\nLösenordet för ditt konto på Quizkväll har ändrats och dina andra inloggningar har avslutats.\n\nOm det inte var du, återställ lösenordet direkt.${sign}`,
  };
}
