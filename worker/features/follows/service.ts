/**
 * Follows (issue 17): the feature's face to the rest of the Worker (worker/index.ts, worker/jobs, other features
 * and tests import only this file, test/unit/boundaries.test.ts). Each job has its own file (issue 28.6):
 * rules.ts (what may be followed, limits, "Mina bevakningar"), links.ts (signed mail links), queue.ts (the mail
 * queue's messages), crons.ts (enqueue and clean-up), consumer.ts (sending, dead letters), push.ts (push
 * reminders), admin.ts (superadmin counts), labels.ts (names and URLs of a follow), queries.ts (all SQL).
 */
export { processMailBatch, recordDeadLetters, type QueueMessageLike } from './consumer';
export { enqueueResultsPush, PUSH_SUBSCRIBE_LIMIT } from './push';
export { cleanUpFollows, enqueueDigests, enqueueQuizmasterNews, enqueueReminders } from './crons';
export { MAIL_DLQ_NAME, type FollowMessage, type MailQueue } from './queue';
export { followerCountsByPlace, setReminders } from './rules';
