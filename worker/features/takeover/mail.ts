/**
 * Notices to the superadmins about takeovers (spec 02 §7 notify-new-user "… and after a takeover"; the
 * new-user notice itself is sent by the auth feature on verification). Through the mailer port, one
 * mail per superadmin (SUPERADMIN_EMAILS plus users with the superadmin role).
 * A failed notice never undoes the action it reports: errors are logged, not thrown.
 */
import type { Db } from '../../db/client';
import type { Config } from '../../env';
import type { Mailer } from '../../ports/mailer';
import { superadminEmails } from './queries';

async function sendToSuperadmins(db: Db, mailer: Mailer, config: Config, subject: string, text: string): Promise<number> {
  let to: string[];
  try {
    to = await superadminEmails(db, config.superadminEmails);
  } catch (err) {
    console.warn(`superadmin lookup for a notice failed: ${(err as Error).message}`);
    return 0;
  }
  let sent = 0;
  for (const address of to) {
    try {
      await mailer.send({ to: address, subject, text });
      sent++;
    } catch (err) {
      console.warn(`superadmin notice to ${address} failed: ${(err as Error).message}`);
    }
  }
  return sent;
}

/** Notice that a business was taken over. */
export function sendTakeoverNotice(
  db: Db,
  mailer: Mailer,
  config: Config,
  info: { email: string; venueId: string; venueName: string; placesCount: number; quizzesCount: number },
): Promise<number> {
  return sendToSuperadmins(
    db,
    mailer,
    config,
    `Verksamhet övertagen: ${info.venueName}`,
    `${info.email} har tagit över verksamheten ${info.venueName} med ${info.placesCount} platser och ${info.quizzesCount} kommande quiz.\n\nVisa verksamhet: ${config.appUrl}/admin/venue/${info.venueId}\n`,
  );
}

/**
 * Record of the owner e-mail given in the superadmin's add-business dialog (spec 02 §5: "the e-mail is
 * saved and the venue will be assigned to the current user"). The data model has no column for it, so
 * it is kept in this notice to the superadmins (stored in the mail outbox).
 */
export function sendOwnerEmailNote(
  db: Db,
  mailer: Mailer,
  config: Config,
  info: { venueId: string; venueName: string; ownerEmail: string; createdBy: string },
): Promise<number> {
  return sendToSuperadmins(
    db,
    mailer,
    config,
    `Ny verksamhet med ägaradress: ${info.venueName}`,
    `${info.createdBy} skapade verksamheten ${info.venueName} och angav ägarens e-post ${info.ownerEmail}.\nVerksamheten tillhör tills vidare ${info.createdBy}.\n\nVisa verksamhet: ${config.appUrl}/admin/venue/${info.venueId}\n`,
  );
}
