/**
 * Follows (issue 17): the rules of following, no Hono. What may be followed (a public place, or a saved search the
 * listing contract accepts), the limits (MAX_FOLLOWS_PER_ADDRESS; per client and per address), and the follower's
 * own list. Visitors follow by e-mail with a double opt-in; signed-in users at once. Mail is never sent from a
 * request: a visitor's follow only enqueues its `confirm` message (queue.ts).
 */
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/authz';
import { conflict, foundOr404, invalidInput, notFound, rateLimited } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { takeAttempt, takeMailAttempt } from '../../lib/rate-limit';
import type { Deps } from '../../ports/deps';
import {
  canonicalFilters,
  FOLLOW_PENDING_MESSAGE,
  MAX_FOLLOWS_PER_ADDRESS,
  normalizeSearch,
  SavedSearchSchema,
  type FollowRequest,
  type FollowView,
} from './contract';
import { toView } from './labels';
import { secretOf, type FollowDeps } from './links';
import * as q from './queries';
import type { MailQueue } from './queue';

/** Per client (IP) and per address: follow requests that send a confirmation mail. */
export const FOLLOW_ADDRESS_LIMIT = 5;
export const FOLLOW_ADDRESS_WINDOW_MS = 60 * 60 * 1000;

async function resolveTarget(db: Db, input: FollowRequest): Promise<q.FollowTarget> {
  if (input.placeId) {
    const place = await q.findPublicPlace(db, input.placeId);
    if (!place) throw invalidInput('Ställe: Stället finns inte', [{ path: 'placeId', message: 'Stället finns inte' }]);
    return { kind: 'place', locationId: place.id, filters: null, targetKey: `place:${place.id}` };
  }
  const filters = canonicalFilters(normalizeSearch(SavedSearchSchema.parse(input.filters)));
  return { kind: 'search', locationId: null, filters, targetKey: `search:${filters}` };
}

export type FollowOutcome = { status: 201; follow: FollowView } | { status: 202; message: string };

/**
 * Signed in: the follow is confirmed at once (an existing one is returned). Visitor: e-mail required;
 * counted per client and per address first, then the address row, the pending follow (within the limit)
 * and one queued confirmation — the same statements and the same answer whether the address is new,
 * already follows this, or is at the limit, so the answer reveals nothing.
 */
export async function requestFollow(deps: FollowDeps, actor: Actor, input: FollowRequest & { clientKey: string; queue: MailQueue }): Promise<FollowOutcome> {
  const { db } = deps;
  const { clientKey, queue } = input;
  const now = deps.clock.now();
  if (actor) {
    const target = await resolveTarget(db, input);
    const owner = { userId: actor.id };
    await q.insertFollowWithinLimit(db, { id: newId(), owner, target, confirmedAt: now.toISOString() });
    const existing = await q.findFollowByTarget(db, owner, target.targetKey);
    if (!existing) throw conflict(`Du kan bevaka högst ${MAX_FOLLOWS_PER_ADDRESS} saker. Ta bort någon bevakning först.`);
    const row = await q.followWithRecipient(db, existing.id);
    return { status: 201, follow: toView(foundOr404(row, 'Bevakningen hittades inte.')) };
  }
  if (!input.email) throw invalidInput('E-post: E-postadress krävs', [{ path: 'email', message: 'E-postadress krävs' }]);
  secretOf(deps);
  const target = await resolveTarget(db, input);
  await takeMailAttempt(db, 'follow', clientKey, now);
  await takeAttempt(db, `follow-address:${input.email}`, FOLLOW_ADDRESS_LIMIT, FOLLOW_ADDRESS_WINDOW_MS, now, (ms) =>
    rateLimited(`För många förfrågningar för den här adressen. Försök igen om ${Math.max(1, Math.ceil(ms / 60000))} minuter.`, Math.ceil(ms / 1000)),
  );
  const addressId = await q.upsertAddress(db, newId(), input.email, now);
  const owner = { addressId };
  await q.insertFollowWithinLimit(db, { id: newId(), owner, target, confirmedAt: null });
  const follow = await q.findFollowByTarget(db, owner, target.targetKey);
  // Always one message: the consumer drops it when there is no follow (limit reached).
  await queue.send({ type: 'confirm', followId: follow?.id ?? null, requestId: newId() });
  return { status: 202, message: FOLLOW_PENDING_MESSAGE };
}

// ---------------------------------------------------------------- "Mina bevakningar"

export type FollowOwner = q.FollowOwner;

export async function listFollows(deps: Pick<Deps, 'db'>, input: { owner: FollowOwner }): Promise<FollowView[]> {
  return (await q.followsOf(deps.db, input.owner)).map(toView);
}

/** Pause/resume reminders of one's own follow; someone else's or a missing one is 404 (ids are not secrets, but no one learns of others' follows). */
/** Morning reminders and/or "Veckans resultat" (issue 46) on one of the owner's follows. */
export async function setReminders(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { owner: FollowOwner; followId: string; reminders?: boolean | undefined; results?: boolean | undefined },
): Promise<FollowView> {
  const { db } = deps;
  const { owner, followId } = input;
  const rows = await q.setOwnReminders(db, owner, followId, { reminders: input.reminders, results: input.results }, deps.clock.now().toISOString());
  if (rows.length === 0) throw notFound('Bevakningen hittades inte.');
  return toView(foundOr404(await q.followWithRecipient(db, followId), 'Bevakningen hittades inte.'));
}

export async function removeFollow(deps: Pick<Deps, 'db'>, input: { owner: FollowOwner; followId: string }): Promise<void> {
  const rows = await q.deleteOwnFollow(deps.db, input.owner, input.followId);
  if (rows.length === 0) throw notFound('Bevakningen hittades inte.');
}

/** Confirmed followers per place (the owner dashboard's "Följare"). */
export async function followerCountsByPlace(deps: Pick<Deps, 'db'>, input: { locationIds: string[] }): Promise<Map<string, number>> {
  return q.followerCounts(deps.db, input.locationIds);
}
