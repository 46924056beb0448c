/** The holiday question (issue 20 §2): "Kör ni quiz på {helgdag}?" with the two signed links. */
import type { MailMessage } from '../../ports/mailer';

export function holidayAskMail(m: {
  to: string;
  venueName: string;
  locationName: string;
  /** "24 december (julafton)". */
  when: string;
  startTime: string | null;
  holiday: string;
  runUrl: string;
  skipUrl: string;
}): MailMessage {
  return {
    to: m.to,
    subject: `Kör ni quiz på ${m.holiday}?`,
    text:
      `Hej!\n\nEnligt Quizkväll har ${m.venueName} (${m.locationName}) quiz ${m.when} kl. ${(m.startTime ?? '19:00').slice(0, 5)}. ` +
      `Kör ni quiz på ${m.holiday}? Svara med en av länkarna (ingen inloggning behövs):\n\n` +
      `Ja, vi kör:\n${m.runUrl}\n\nStäll in:\n${m.skipUrl}\n\n` +
      `Svarar ni inte visas quizet som vanligt.\n\nHälsningar,\nQuizkväll`,
  };
}
