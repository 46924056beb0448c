/**
 * The follow crons (issue 17, worker/jobs/follow-mail.ts): they only enqueue — one reminder message per due
 * (follow, quiz), one digest message per confirmed follow on Mondays — and the daily clean-up of what was never
 * confirmed. Each run is a job_runs row.
 */
import type { Db } from '../../db/client';
import { chunks, QUEUE_SEND_BATCH_MAX } from '../../lib/chunks';
import { clockFrom, startOfIsoWeek } from '../../lib/clock';
import { recordJob } from '../../lib/jobs';
import { deleteExpiredUsedLinks } from '../../lib/signed-link';
import type { Deps } from '../../ports/deps';
import { CONFIRM_LINK_TTL_S } from './contract';
import * as q from './queries';
import type { FollowMessage, MailQueue } from './queue';

const PAGE = 500;

async function sendAll(queue: MailQueue, bodies: FollowMessage[]): Promise<void> {
  for (const part of chunks(bodies, QUEUE_SEND_BATCH_MAX)) await queue.sendBatch(part.map((body) => ({ body })));
}

/** job_runs rows through the shared recordJob (lib/jobs.ts), on a clock that starts at the run's instant. */
function recordRun<T extends Record<string, unknown>>(db: Db, job: string, now: Date, work: () => Promise<T>) {
  return recordJob(db, clockFrom(now), job, () => work());
}

/**
 * Data minimisation: follows never confirmed within 48 h (the link has expired) go, then addresses
 * left without any follow, and spent links past their expiry.
 */
export async function cleanUpFollows(deps: Pick<Deps, 'db' | 'clock'>) {
  const { db } = deps;
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - CONFIRM_LINK_TTL_S * 1000).toISOString();
  return recordRun(db, 'follow-cleanup', now, async () => {
    const follows = await q.deletePendingFollowsBefore(db, cutoff);
    const addresses = await q.deleteOrphanAddressesBefore(db, cutoff);
    await deleteExpiredUsedLinks(db, now);
    // Push send keys (issue 32) only guard a reminder's own day: a week is ample.
    await q.deletePushSendsBefore(db, new Date(now.getTime() - 7 * 24 * 3600 * 1000).toISOString());
    return { pendingFollows: follows.length, addresses: addresses.length };
  });
}

/** One message per (confirmed place follow with reminders) × (its place's quiz on `today`, not cancelled). */
export async function enqueueReminders(deps: Pick<Deps, 'db' | 'clock'>, input: { queue: MailQueue }): Promise<{ enqueued: number }> {
  const { db } = deps;
  const { queue } = input;
  const today = deps.clock.today();
  const now = deps.clock.now();
  return recordRun(db, 'follow-reminders', now, async () => {
    let after = '';
    let enqueued = 0;
    for (;;) {
      const rows = await q.dueReminders(db, today, after, PAGE);
      if (rows.length === 0) break;
      await sendAll(
        queue,
        rows.map((r) => ({ type: 'reminder', followId: r.follow_id, quizId: r.quiz_id, date: today })),
      );
      enqueued += rows.length;
      const last = rows[rows.length - 1]!;
      after = `${last.follow_id}:${last.quiz_id}`;
      if (rows.length < PAGE) break;
    }
    return { date: today, enqueued };
  });
}

/** Mondays: one digest message per confirmed follow for the ISO week starting `today`. */
export async function enqueueDigests(deps: Pick<Deps, 'db' | 'clock'>, input: { queue: MailQueue }): Promise<{ enqueued: number }> {
  const { db } = deps;
  const { queue } = input;
  const today = deps.clock.today();
  const now = deps.clock.now();
  const week = startOfIsoWeek(today);
  return recordRun(db, 'follow-digest', now, async () => {
    let after = '';
    let enqueued = 0;
    for (;;) {
      const ids = await q.confirmedFollowIds(db, after, PAGE);
      if (ids.length === 0) break;
      await sendAll(
        queue,
        ids.map((followId) => ({ type: 'digest', followId, week })),
      );
      enqueued += ids.length;
      after = ids[ids.length - 1]!;
      if (ids.length < PAGE) break;
    }
    return { week, enqueued };
  });
}

/**
 * Issue 48: a followed quizmaster starts at a new place. Called once per (profile, place) — the quizmasters
 * feature claims that in quizmaster_announcements — it enqueues one `quizmaster-news` message per confirmed
 * follower; the consumer sends at most one such mail a follower and day (send key per day).
 */
export async function enqueueQuizmasterNews(
  deps: Pick<Deps, 'db' | 'clock' | 'mailQueue'>,
  input: { quizmasterId: string; slug: string; locationId: string },
): Promise<number> {
  const day = deps.clock.today();
  let after = '';
  let n = 0;
  for (;;) {
    const rows = await q.quizmasterFollowers(deps.db, input.slug, after, PAGE);
    if (!rows.length) break;
    await sendAll(
      deps.mailQueue as MailQueue,
      rows.map((r) => ({ type: 'quizmaster-news' as const, followId: r.id, quizmasterId: input.quizmasterId, locationId: input.locationId, day })),
    );
    n += rows.length;
    after = rows[rows.length - 1]!.id;
    if (rows.length < PAGE) break;
  }
  return n;
}
