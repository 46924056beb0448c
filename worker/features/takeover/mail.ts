/**
 * Notices to the superadmins about takeovers (spec 02 §7 notify-new-user "… and after a takeover"; the
 * new-user notice itself is sent by the auth feature on verification), one mail per superadmin
 * (SUPERADMIN_EMAILS plus users with the superadmin role).
 *
 * Each notice is an outbox write in the SAME batch as the event it reports (issue 27.3, Mailer.outbox): the
 * move of a business and its notices are stored together or not at all, and the mail queue delivers them with
 * retries (the nightly `mail-redeliver` sweep covers a failed enqueue). Sending after the move, as before, lost
 * the notice for good when the send threw.
 */
import type { SQL } from 'drizzle-orm';
import type { Config } from '../../env';
import type { MailMessage, Mailer, OutboxMail } from '../../ports/mailer';

/** Send-key prefixes of the notices (the nightly mail-redeliver sweep matches them, worker/jobs/owner-mail.ts). */
export const TAKEOVER_NOTICE_KEY = 'takeover-notice:';
export const OWNER_EMAIL_NOTE_KEY = 'owner-email-note:';

/** One outbox write per superadmin, keyed `<prefix><event>:<address>`, written only where `when` holds. */
function noticesTo(mailer: Mailer, to: readonly string[], message: Omit<MailMessage, 'to'>, key: string, when?: SQL): OutboxMail[] {
  return to.map((address) => mailer.outbox({ ...message, to: address }, `${key}:${address}`, when));
}

/** Notices that a business was taken over, for the batch that moves it; `when`: the move happened (venueOwnedBy). */
export function takeoverNotices(
  mailer: Mailer,
  config: Config,
  to: readonly string[],
  info: { email: string; userId: string; venueId: string; venueName: string; placesCount: number; quizzesCount: number; at: string },
  when: SQL,
): OutboxMail[] {
  return noticesTo(
    mailer,
    to,
    {
      subject: `Verksamhet övertagen: ${info.venueName}`,
      text: `${info.email} har tagit över verksamheten ${info.venueName} med ${info.placesCount} platser och ${info.quizzesCount} kommande quiz.\n\nVisa verksamhet: ${config.appUrl}/admin/venue/${info.venueId}\n`,
    },
    `${TAKEOVER_NOTICE_KEY}${info.venueId}:${info.userId}:${info.at}`,
    when,
  );
}

/**
 * Record of the owner e-mail given in the superadmin's add-business dialog (spec 02 §5: "the e-mail is
 * saved and the venue will be assigned to the current user"). The data model has no column for it, so
 * it is kept in this notice to the superadmins (stored in the mail outbox), written with the business.
 */
export function ownerEmailNotes(
  mailer: Mailer,
  config: Config,
  to: readonly string[],
  info: { venueId: string; venueName: string; ownerEmail: string; createdBy: string },
): OutboxMail[] {
  return noticesTo(
    mailer,
    to,
    {
      subject: `Ny verksamhet med ägaradress: ${info.venueName}`,
      text: `${info.createdBy} skapade verksamheten ${info.venueName} och angav ägarens e-post ${info.ownerEmail}.\nVerksamheten tillhör tills vidare ${info.createdBy}.\n\nVisa verksamhet: ${config.appUrl}/admin/venue/${info.venueId}\n`,
    },
    `${OWNER_EMAIL_NOTE_KEY}${info.venueId}`,
  );
}
