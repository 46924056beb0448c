/**
 * Push reminders (issue 32, docs/features/pwa.md): "Påminn mig i telefonen" stores a browser's push
 * subscription against one of the follower's follows; the follow mail's queue consumer sends the same
 * reminder as a push, once per (subscription, quiz) by a send key (push_sends, like the mail outbox's).
 * A 404/410 from the push service removes the subscription. Rules only, no Hono.
 */
import { and, eq } from 'drizzle-orm';
import { pushSubscriptions } from '../../db/schema';
import { invalidInput, notFound, unavailable } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Deps } from '../../ports/deps';
import type { PushNotice } from '../../ports/push';
import { displayDate, displayTime } from '../../lib/swedish';
import type { PushSubscriptionInput } from './contract';
import * as q from './queries';
import type { FollowOwner, MailQuiz } from './queries';

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

/** Stores (or renews the keys of) this browser's subscription for one of the owner's follows. */
export async function subscribePush(
  deps: Pick<Deps, 'db' | 'clock' | 'push'>,
  input: { owner: FollowOwner; followId: string; subscription: PushSubscriptionInput },
) {
  pushPublicKey(deps);
  // A visitor's follow reminds only once confirmed (its manage link is in the confirmation mail too).
  if (!(await ownFollow(deps, input.owner, input.followId)).confirmed) throw invalidInput('Bekräfta bevakningen först, via länken i mejlet.');
  const { endpoint, keys } = input.subscription;
  await q.upsertPushSubscription(deps.db, {
    id: newId(),
    followId: input.followId,
    endpoint,
    p256dh: keys.p256dh,
    auth: keys.auth,
    at: deps.clock.now().toISOString(),
  });
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
 * Sends one notice to every subscription of a follow, at most once per `${key}:${subscription}`: the send key
 * is claimed first (INSERT … ON CONFLICT DO NOTHING); a failed send gives the claim back and throws, so the
 * queue's retry sends it then. 404/410 remove the subscription.
 */
export async function pushToFollow(deps: Pick<Deps, 'db' | 'push'>, input: { followId: string; notice: PushNotice; key: string }): Promise<PushOutcome> {
  const out: PushOutcome = { sent: 0, gone: 0, duplicate: 0 };
  const port = deps.push;
  if (!port) return out;
  const subs = await q.pushSubscriptionsOf(deps.db, input.followId);
  let failure: unknown = null;
  for (const s of subs) {
    const sendKey = `${input.key}:${s.id}`;
    if (!(await q.claimPushSend(deps.db, sendKey))) {
      out.duplicate++;
      continue;
    }
    try {
      const result = await port.send(s, input.notice);
      if (result === 'gone') {
        await deps.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, s.id));
        out.gone++;
      } else out.sent++;
    } catch (err) {
      await q.releasePushSend(deps.db, sendKey);
      failure ??= err;
    }
  }
  if (failure) throw failure;
  return out;
}
