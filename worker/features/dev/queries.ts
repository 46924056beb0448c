/** The development outbox's one read (issue 28.6: thin handlers, reads in queries.ts). */
import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailOutbox } from '../../db/schema';

/** The newest mails of the outbox. */
export function newestOutboxMails(db: Db, limit: number) {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit);
}
