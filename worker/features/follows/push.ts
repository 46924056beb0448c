/**
 * Push reminders (issue 32, docs/features/pwa.md): "Påminn mig i telefonen" stores a browser's push
 * subscription against one of the follower's follows (at most MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW, rate-limited);
 * a reminder or digest enqueues its push as a message of its own (issue 42.3), and the queue consumer sends it to
 * each subscription once per send key (push_sends, like the mail outbox's), a few at a time, each with a timeout.
 * A 404/410 from the push service removes the subscription. Rules only, no Hono.
 */
import { and, eq } from 'drizzle-orm';
import { pushSubscriptions } from '../../db/schema';
import { invalidInput, notFound, rateLimited, unavailable } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Limiter } from '../../lib/limiter';
import { takeAttempt } from '../../lib/rate-limit';
import type { Deps } from '../../ports/deps';
import type { PushNotice } from '../../ports/push';
import { displayDate, displayTime } from '../../lib/swedish';
import { MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW, type PushSubscriptionInput } from './contract';
import * as q from './queries';
import type { FollowOwner, MailQuiz } from './queries';
import type { PushMessage } from './queue';

const NOT_FOUND = 'Bevakningen hittades inte.';

/** The VAPID public key browsers subscribe with; 503 when push is not configured. */
export function pushPublicKey(deps: Pick<Deps, 'push'>): string {
  if (!deps.push) throw unavailable('Påminnelser i telefonen är inte tillgängliga just nu.');
  return deps.push.publicKey;
}

async function ownFollow(deps: Pick<Deps, 'db'>, owner: FollowOwner, followId: string): Promise<{ confirmed: boolean }> {
  const row = await q.findOwnFollow(deps.db, owner, followId);
  if (!row) throw notFound(NOT_FOUND);
  return { confirmed: !!row.confirmedAt };
}

/** Subscribing (storing or renewing) one follow's push, per owner and follow: this many per window. */
export const PUSH_SUBSCRIBE_LIMIT = 10;
export const PUSH_SUBSCRIBE_WINDOW_MS = 60 * 60 * 1000;

/**
 * Stores (or renews the keys of) this browser's subscription for one of the owner's follows. A follow keeps
 * at most MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW: a new phone replaces the one renewed longest ago (an old phone that
 * is still in use renews on its next opt-in), so the newest tap always works.
 */
export async function subscribePush(
  deps: Pick<Deps, 'db' | 'clock' | 'push'>,
  input: { owner: FollowOwner; followId: string; subscription: PushSubscriptionInput },
) {
  pushPublicKey(deps);
  // Counted first (worker/lib/rate-limit.ts), per owner and follow: nobody else can use up someone's attempts.
  const who = 'userId' in input.owner ? `u:${input.owner.userId}` : `a:${input.owner.addressId}`;
  await takeAttempt(deps.db, `push-subscribe:${who}:${input.followId}`, PUSH_SUBSCRIBE_LIMIT, PUSH_SUBSCRIBE_WINDOW_MS, deps.clock.now(), (ms) =>
    rateLimited(`För många försök att slå på påminnelser i telefonen. Försök igen om ${Math.max(1, Math.ceil(ms / 60000))} minuter.`, Math.ceil(ms / 1000)),
  );
  // A visitor's follow reminds only once confirmed (its manage link is in the confirmation mail too).
  if (!(await ownFollow(deps, input.owner, input.followId)).confirmed) throw invalidInput('Bekräfta bevakningen först, via länken i mejlet.');
  const { endpoint, keys } = input.subscription;
  await q.storePushSubscription(
    deps.db,
    { id: newId(), followId: input.followId, endpoint, p256dh: keys.p256dh, auth: keys.auth, at: deps.clock.now().toISOString() },
    MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW,
  );
}

/** "Sluta påminna i telefonen" on the account page: every subscription of one of the owner's follows. */
export async function unsubscribePush(deps: Pick<Deps, 'db'>, input: { owner: FollowOwner; followId: string }): Promise<void> {
  await ownFollow(deps, input.owner, input.followId);
  await deps.db.delete(pushSubscriptions).where(eq(pushSubscriptions.followId, input.followId));
}

/**
 * "Sluta påminna" from a notification: the service worker names the follow (from the notice) and its own
 * subscription's endpoint — a capability URL only that browser and its push service know — so no session is needed.
 * Nothing to remove is a 404 (only the endpoint's holder can tell; the service worker ignores the answer).
 */
export async function stopPush(deps: Pick<Deps, 'db'>, input: { followId: string; endpoint: string }): Promise<void> {
  const rows = await deps.db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.followId, input.followId), eq(pushSubscriptions.endpoint, input.endpoint)))
    .returning({ id: pushSubscriptions.id });
  // Only the holder of the endpoint learns that it was subscribed (the service worker ignores the answer).
  if (rows.length === 0) throw notFound(NOT_FOUND);
}

/** Which of the owner's follows have a push subscription (the account page shows "Påminner i telefonen"). */
export async function pushedFollowIds(deps: Pick<Deps, 'db'>, owner: FollowOwner): Promise<string[]> {
  return q.pushedFollowIds(deps.db, owner);
}

/** The reminder as a notification: short, Swedish, no personal data; a tap opens the venue page at that quiz. */
export function reminderNotice(followId: string, quiz: MailQuiz): PushNotice {
  return {
    title: `Ikväll: pubquiz kl. ${displayTime(quiz.start_time)}`,
    body: `${quiz.place_name}, ${quiz.city}${quiz.title ? ` – ${quiz.title}` : ''}`,
    url: `/quiz/${encodeURIComponent(quiz.city_slug)}/${encodeURIComponent(quiz.venue_slug)}#quiz-${quiz.id}`,
    followId,
    tag: `reminder:${quiz.id}`,
  };
}

/**
 * New quizzes at a followed place or matching a saved search, as one notification per follow and week: the
 * Monday digest's "Nytt" quizzes (the same trigger and queue message as the digest mail). Short, Swedish, no
 * personal data (not even the follower's own search words: the lock screen is not private); a tap opens the
 * venue page at the first new quiz.
 */
export function newQuizzesNotice(followId: string, week: string, kind: 'place' | 'search', fresh: readonly MailQuiz[]): PushNotice | null {
  const [first] = fresh;
  if (!first) return null;
  const more = fresh.length - 1;
  const where = kind === 'place' ? ` på ${first.place_name}` : '';
  const title = fresh.length === 1 ? `Nytt quiz${where}` : `${fresh.length} nya quiz${where}`;
  const line = `${displayDate(first.date)} kl. ${displayTime(first.start_time)}: ${first.place_name}, ${first.city}${first.title ? ` – ${first.title}` : ''}`;
  return {
    title: kind === 'place' ? title : `${title} i din bevakning`,
    body: more > 0 ? `${line} (och ${more} till)` : line,
    url: `/quiz/${encodeURIComponent(first.city_slug)}/${encodeURIComponent(first.venue_slug)}#quiz-${first.id}`,
    followId,
    tag: `new:${followId}:${week}`,
  };
}

export interface PushOutcome {
  sent: number;
  gone: number;
  duplicate: number;
}

/**
 * Enqueues `notice` for every push subscription of a follow as a message of its own (issue 42.3), so the mail it
 * goes with never waits for, or fails with, a push service. Nothing when push is off or the follow has none.
 */
export async function enqueuePush(deps: Pick<Deps, 'db' | 'push' | 'mailQueue'>, input: { followId: string; notice: PushNotice; key: string }): Promise<void> {
  if (!deps.push || !(await q.hasPushSubscription(deps.db, input.followId))) return;
  const message: PushMessage = { type: 'push', followId: input.followId, key: input.key, notice: input.notice };
  await deps.mailQueue.send(message);
}

/**
 * Sends one push message: its notice to each subscription of the follow (the newest
 * MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW), at most once per `${key}:${subscription}`: the send key is claimed first
 * (INSERT … ON CONFLICT DO NOTHING), then sent through `limit` (shared by the batch) with the port's timeout.
 * A failed or timed-out send gives its claim back; after all have been tried, the first failure is thrown so the
 * queue retries this message alone (the sent ones are then duplicates). 404/410, and an endpoint the port refuses
 * (not a browser's push service, stored before issue 42.3), remove the subscription.
 */
export async function pushToFollow(
  deps: Pick<Deps, 'db' | 'push'>,
  input: { followId: string; notice: PushNotice; key: string },
  limit: Limiter,
): Promise<PushOutcome> {
  const out: PushOutcome = { sent: 0, gone: 0, duplicate: 0 };
  const port = deps.push;
  if (!port) return out;
  const subs = await q.pushSubscriptionsOf(deps.db, input.followId, MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW);
  const results = await Promise.allSettled(
    subs.map(async (s) => {
      const sendKey = `${input.key}:${s.id}`;
      if (!(await q.claimPushSend(deps.db, sendKey))) {
        out.duplicate++;
        return;
      }
      try {
        const result = await limit(() => port.send(s, input.notice));
        if (result === 'sent') out.sent++;
        else {
          await deps.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, s.id));
          out.gone++;
        }
      } catch (err) {
        await q.releasePushSend(deps.db, sendKey);
        throw err;
      }
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return out;
}

/**
 * "Veckans resultat" (issue 46): the night's results as a push to each follower of the place who opted in, once per
 * night (send key `results:{quizId}`); the results feature calls it on a night's first post only, never on a correction.
 */
export async function enqueueResultsPush(
  deps: Pick<Deps, 'db' | 'push' | 'mailQueue'>,
  input: { locationId: string; quizId: string; notice: Omit<PushNotice, 'followId' | 'tag'> },
): Promise<number> {
  if (!deps.push) return 0;
  const ids = await q.resultsPushFollowIds(deps.db, input.locationId);
  for (const followId of ids) {
    const message: PushMessage = {
      type: 'push',
      followId,
      key: `results:${input.quizId}`,
      notice: { ...input.notice, followId, tag: `results:${input.quizId}` },
    };
    await deps.mailQueue.send(message);
  }
  return ids.length;
}
