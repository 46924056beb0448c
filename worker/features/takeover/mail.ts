/**
 * Notices to the superadmins (spec 02 §7 notify-new-user: "called after sign-up, after verification when
 * not a takeover, and after a takeover"). Sent through the mailer port, one mail per superadmin.
 * A failed notice never undoes the action it reports: errors are logged, not thrown.
 */
import type { Db } from '../../db/client';
import type { Config } from '../../env';
import type { Mailer } from '../../ports/mailer';
import { superadminEmails } from './queries';

async function sendToSuperadmins(db: Db, mailer: Mailer, config: Config, subject: string, text: string): Promise<number> {
  const to = await superadminEmails(db, config.superadminEmails);
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

/** "Ny användare" notice for a newly verified user (used by the accounts feature). */
export function sendNewUserNotice(
  db: Db,
  mailer: Mailer,
  config: Config,
  user: { email: string; firstName?: string | null; lastName?: string | null; createdAt: string },
): Promise<number> {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || '(inget namn angivet)';
  return sendToSuperadmins(
    db,
    mailer,
    config,
    `Ny användare: ${user.email}`,
    `En ny användare har registrerat sig på Quizkväll.\n\nE-post: ${user.email}\nNamn: ${name}\nSkapad: ${user.createdAt}\n\nSuperadminpanelen: ${config.appUrl}/superadmin\n`,
  );
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
