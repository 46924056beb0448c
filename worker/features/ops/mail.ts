/** The operations alert mails (issue 30 §5), Swedish, plain text. */
import type { MailMessage } from '../../ports/mailer';

/** An instant as Stockholm date and time ("2035-01-02 03:20"). */
export const stockholmTime = (iso: string) => new Date(iso).toLocaleString('sv-SE', { timeZone: 'Europe/Stockholm', dateStyle: 'short', timeStyle: 'short' });

export function alertMail(to: string, input: { summary: string; openedAt: string; appUrl: string }): MailMessage {
  return {
    to,
    subject: `Driftlarm: ${input.summary}`.slice(0, 200),
    text: [
      input.summary,
      '',
      `Upptäckt: ${stockholmTime(input.openedAt)}`,
      `Se fliken Drift: ${input.appUrl}/superadmin?flik=drift`,
      '',
      'Du får ett mejl till när det är åtgärdat. Felsökning: docs/runbook.md.',
    ].join('\n'),
  };
}

export function recoveryMail(to: string, input: { summary: string; openedAt: string; resolvedAt: string; appUrl: string }): MailMessage {
  return {
    to,
    subject: `Åtgärdat: ${input.summary}`.slice(0, 200),
    text: [
      `Larmet är över: ${input.summary}`,
      '',
      `Upptäckt: ${stockholmTime(input.openedAt)}`,
      `Åtgärdat: ${stockholmTime(input.resolvedAt)}`,
      `Fliken Drift: ${input.appUrl}/superadmin?flik=drift`,
    ].join('\n'),
  };
}
