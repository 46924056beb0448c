/**
 * The follow mail's signed links (issue 17, worker/lib/signed-link.ts): signing the links a mail carries, and
 * acting on them without a session — confirm (single use), unsubscribe one or all (idempotent), manage.
 */
import { invalidInput, notFound, unavailable } from '../../lib/errors';
import { isSpentError, requireLink, signLink, spendStatement, type LinkKeys, type LinkPayload } from '../../lib/signed-link';
import type { Deps } from '../../ports/deps';
import { CONFIRM_LINK_TTL_S } from './contract';
import { labelOf } from './labels';
import type { MailLinks } from './mail';
import * as q from './queries';

/** Unsubscribe links keep working this long; the manage link is shorter (it shows the list). */
const UNSUBSCRIBE_TTL_S = 400 * 24 * 3600;
const MANAGE_TTL_S = 60 * 24 * 3600;

/** What the follow services need: the database, the clock and the config (APP_URL, LINK_SIGNING_SECRET). */
export type FollowDeps = Pick<Deps, 'db' | 'clock' | 'config'>;

/** The signing secret; without it every signed link is refused (503). */
export function secretOf(deps: Pick<Deps, 'config'>): string {
  const secret = deps.config.linkSigningSecret;
  if (!secret) {
    console.error('LINK_SIGNING_SECRET is not set: signed links are refused');
    throw unavailable('Funktionen är inte tillgänglig just nu. Försök igen senare.');
  }
  return secret;
}

/** Verification keys: the current secret (required, as above) and the previous one during a rotation. */
function keysOf(deps: Pick<Deps, 'config'>): LinkKeys {
  return { current: secretOf(deps), previous: deps.config.linkSigningSecretPrevious };
}

/** Subject of an address- or account-wide link: 'a:{addressId}' or 'u:{userId}'. */
function subjectOf(f: Pick<q.FollowWithRecipient, 'user_id' | 'address_id'>): string {
  return f.user_id ? `u:${f.user_id}` : `a:${f.address_id}`;
}
function parseSubject(s: string): q.FollowOwner | null {
  if (s.startsWith('u:') && s.length > 2) return { userId: s.slice(2) };
  if (s.startsWith('a:') && s.length > 2) return { addressId: s.slice(2) };
  return null;
}

// ---------------------------------------------------------------- signing (the mails' links)

/** The confirmation link of a pending follow (48 h, single use). */
export async function confirmUrlFor(deps: FollowDeps, followId: string): Promise<string> {
  return `${deps.config.appUrl}/bevakningar/bekrafta?t=${await signLink(secretOf(deps), 'follow-confirm', followId, CONFIRM_LINK_TTL_S, deps.clock.now())}`;
}

/** The links every follow mail carries: end this follow, end all mail to the address or account, manage. */
export async function linksFor(deps: FollowDeps, f: q.FollowWithRecipient): Promise<MailLinks> {
  const secret = secretOf(deps);
  const subject = subjectOf(f);
  const base = deps.config.appUrl;
  return {
    unsubscribe: `${base}/bevakningar/avsluta?t=${await signLink(secret, 'unsubscribe', f.id, UNSUBSCRIBE_TTL_S, deps.clock.now())}`,
    unsubscribeAll: `${base}/bevakningar/avsluta-alla?t=${await signLink(secret, 'unsubscribe-all', subject, UNSUBSCRIBE_TTL_S, deps.clock.now())}`,
    manage: `${base}/bevakningar?t=${await signLink(secret, 'manage', subject, MANAGE_TTL_S, deps.clock.now())}`,
  };
}

// ---------------------------------------------------------------- acting on a link

/** Spends the single-use confirmation link and confirms the follow and its address, in one batch. */
/** Confirms; answers the follow's label and its "Mina bevakningar" link (the mails' manage link, issue 44.2), a path. */
export async function confirmFollow(deps: FollowDeps, input: { token: string | undefined }): Promise<{ label: string; manage: string | null }> {
  const { db } = deps;
  const { token } = input;
  const now = deps.clock.now();
  const link = await requireLink(keysOf(deps), token, 'follow-confirm', now);
  let changed: Array<{ id: string }>;
  try {
    const [, rows] = await db.batch([spendStatement(db, link), ...q.confirmFollowStatements(db, link.s, now.toISOString())]);
    changed = rows;
  } catch (err) {
    if (isSpentError(err)) throw invalidInput('Länken har redan använts.', [{ path: 't', message: 'Länken har redan använts.' }]);
    throw err;
  }
  if (changed.length === 0) throw notFound('Bevakningen finns inte längre.');
  const row = await q.followWithRecipient(db, link.s);
  if (!row) return { label: '', manage: null };
  return { label: labelOf(row), manage: `/bevakningar?t=${await signLink(secretOf(deps), 'manage', subjectOf(row), MANAGE_TTL_S, now)}` };
}

/** Looks at an unsubscribe link without acting (the GET confirmation page). */
export async function inspectUnsubscribe(deps: FollowDeps, input: { token: string | undefined }): Promise<{ label: string | null }> {
  const { token } = input;
  const link = await requireLink(keysOf(deps), token, 'unsubscribe', deps.clock.now());
  const row = await q.followWithRecipient(deps.db, link.s);
  return { label: row ? labelOf(row) : null };
}

/** One-click unsubscribe (RFC 8058): ends that follow. Idempotent, so the link is not single-use. */
export async function unsubscribe(deps: FollowDeps, input: { token: string | undefined }): Promise<{ label: string | null }> {
  const { token } = input;
  const link = await requireLink(keysOf(deps), token, 'unsubscribe', deps.clock.now());
  const row = await q.followWithRecipient(deps.db, link.s);
  await q.deleteFollow(deps.db, link.s);
  return { label: row ? labelOf(row) : null };
}

/** Ends all mail to the address (its row and follows go) or to the account (its follows go). */
export async function unsubscribeAll(deps: FollowDeps, input: { token: string | undefined }): Promise<{ removed: number }> {
  const { token } = input;
  const link = await requireLink(keysOf(deps), token, 'unsubscribe-all', deps.clock.now());
  const subject = parseSubject(link.s);
  if (!subject) throw invalidInput('Länken är ogiltig.');
  if ('userId' in subject) return { removed: (await q.deleteFollowsOfUser(deps.db, subject.userId)).length };
  const ids = await q.followIdsOfAddress(deps.db, subject.addressId);
  await q.deleteAddress(deps.db, subject.addressId);
  return { removed: ids.length };
}

/** The follows behind a manage link. */
export async function ownerOfManageLink(deps: FollowDeps, input: { token: string | undefined }): Promise<{ owner: q.FollowOwner; link: LinkPayload }> {
  const { token } = input;
  const link = await requireLink(keysOf(deps), token, 'manage', deps.clock.now());
  const owner = parseSubject(link.s);
  if (!owner) throw invalidInput('Länken är ogiltig.');
  return { owner, link };
}
