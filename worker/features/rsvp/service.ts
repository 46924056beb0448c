/**
 * "Vi kommer" (issue 47): the rules, no Hono. A visitor RSVPs by e-mail with a double opt-in; a signed-in user
 * with one click. Capacity is decided by one guarded statement (queries.ts `confirmStatement`); a freed table is
 * offered to the head of the waitlist by the jobs queue and the RSVP sweep (never by the request that freed it);
 * reminders 24 h (mail) and 2 h (push) before, each claimed once. Mail goes through the outbox in the same batch
 * as the change it belongs to (worker/ports/mailer.ts `withNotices`).
 */
import { changes, runBatch } from '../../db/batch';
import type { Actor } from '../../lib/authz';
import { authorizeQuiz } from '../../lib/authz';
import { addDays, stockholmInstant } from '../../lib/clock';
import { toCsv } from '../../lib/csv';
import { bumpDataVersion } from '../../lib/data-version';
import { conflict, invalidInput, notFound, rateLimited, unavailable } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { takeAttempt, takeMailAttempt } from '../../lib/rate-limit';
import { isSpentError, linkKeys, requireLink, signLink, spendStatement } from '../../lib/signed-link';
import { displayDate, displayTime } from '../../lib/swedish';
import type { Deps } from '../../ports/deps';
import { withNotices, type OutboxQueue } from '../../ports/mailer';
import {
  RSVP_CONFIRM_TTL_S,
  RSVP_EMAIL_RETENTION_DAYS,
  RSVP_PENDING_MESSAGE,
  type OwnerRsvpRow,
  type OwnerRsvpView,
  type RsvpCountsResponse,
  type RsvpRequest,
  type RsvpSettingsInput,
} from './contract';
import { confirmMail, nightPath, offerMail, receiptMail, reminderMail } from './mail';
import * as q from './queries';
import { offerExpiry, quizStart, reminderDue, takesRsvps, type ReminderKind } from './rules';

export { quizStart, offerExpiry, reminderDue } from './rules';

export type RsvpDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailer' | 'mailQueue' | 'push'>;

/** The name the RSVP sweep and the nightly privacy task record in job_runs. */
export const RSVP_SWEEP_JOB = 'rsvp-sweep';
export const RSVP_PRIVACY_JOB = 'rsvp-privacy';
/** The sweep's Cron Trigger (wrangler.toml): every 15 minutes. */
export const RSVP_CRON = '0,15,30,45 * * * *';

/** Per client (IP) and per address: RSVP requests that send a confirmation mail (as follows). */
export const RSVP_ADDRESS_LIMIT = 5;
const RSVP_ADDRESS_WINDOW_MS = 3600_000;

/** What enqueues an offer for a freed table (the jobs queue; the route builds it from env.JOBS_QUEUE). */
export type OfferEnqueue = (quizId: string) => Promise<void>;

function secretOf(deps: Pick<Deps, 'config'>): string {
  const secret = deps.config.linkSigningSecret;
  if (!secret) {
    console.error('LINK_SIGNING_SECRET is not set: signed links are refused');
    throw unavailable('Funktionen är inte tillgänglig just nu. Försök igen senare.');
  }
  return secret;
}

/** The cancel link lives until the day after the night. */
async function cancelUrl(deps: RsvpDeps, rsvpId: string, date: string): Promise<string> {
  const now = deps.clock.now();
  const ttl = Math.max(3600, Math.floor((stockholmInstant(addDays(date, 2)).getTime() - now.getTime()) / 1000));
  return `${deps.config.appUrl}/vi-kommer/avboka?t=${await signLink(secretOf(deps), 'rsvp-cancel', rsvpId, ttl, now)}`;
}
async function confirmUrl(deps: RsvpDeps, rsvpId: string, ttlSeconds: number): Promise<string> {
  return `${deps.config.appUrl}/vi-kommer/bekrafta?t=${await signLink(secretOf(deps), 'rsvp-confirm', rsvpId, ttlSeconds, deps.clock.now())}`;
}

const QUIZ_GONE = 'Quizet finns inte.';

/** How the occurrence takes RSVPs: its series' switch and external booking. */
function modeOf(quiz: q.RsvpQuiz): RsvpCountsResponse['mode'] {
  if (quiz.rsvp_off) return 'off';
  if (quiz.booking_url || quiz.booking_phone) return 'external';
  return 'rsvp';
}

/** A public, not cancelled, future occurrence that takes RSVPs here — or the refusal (nothing stored). */
function requireOpen(quiz: q.RsvpQuiz | null, now: Date): q.RsvpQuiz {
  if (!quiz?.is_public) throw notFound(QUIZ_GONE);
  if (quiz.is_cancelled) throw conflict('Quizet är inställt den här kvällen.');
  if (!takesRsvps(now, quizStart(quiz.date, quiz.start_time))) throw conflict('Quizet har redan varit.');
  const mode = modeOf(quiz);
  if (mode === 'off') throw conflict('Stället tar inte emot anmälningar till det här quizet.');
  if (mode === 'external') throw conflict('Boka bord hos stället: anmälan görs inte här.');
  return quiz;
}

export type RsvpOutcome = { status: 201; state: 'confirmed' | 'queued' } | { status: 202; message: string };

/**
 * POST /api/quizzes/:quizId/rsvp. Signed in: one click (insert and guarded confirm in one batch, a receipt with the
 * cancel link). Visitor: counted per client and per address first, then the pending RSVP and its confirmation
 * mail in one batch — the same answer whether the address already has a live RSVP or not.
 */
export async function requestRsvp(deps: RsvpDeps, actor: Actor, input: RsvpRequest & { quizId: string; clientKey: string }): Promise<RsvpOutcome> {
  const { db } = deps;
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  if (!actor && !input.email) throw invalidInput('E-post: E-postadress krävs', [{ path: 'email', message: 'E-postadress krävs' }]);
  secretOf(deps);
  const quiz = requireOpen(await q.rsvpQuiz(db, input.quizId), now);
  const id = newId();
  const cancel = await cancelUrl(deps, id, quiz.date);
  if (actor) {
    const email = actor.email.toLowerCase();
    const key = `rsvp-receipt:${id}`;
    const { results } = await withNotices(
      db,
      [q.insertRsvpStatement(db, { id, quizId: quiz.id, userId: actor.id, email, teamSize: input.teamSize }), q.confirmStatement(db, id, nowIso)],
      [
        deps.mailer.outbox(receiptMail(email, quiz, 'confirmed', cancel), key, q.rsvpExistsSql(id, 'confirmed')),
        deps.mailer.outbox(receiptMail(email, quiz, 'queued', cancel), key, q.rsvpExistsSql(id, 'queued')),
      ],
      deps.mailQueue,
    );
    const [row] = results[1] as Array<{ state: string }>;
    if (!row) throw conflict('Ert lag är redan anmält till den här kvällen.');
    return { status: 201, state: row.state === 'queued' ? 'queued' : 'confirmed' };
  }
  const email = input.email!;
  await takeMailAttempt(db, 'rsvp', input.clientKey, now);
  await takeAttempt(db, `rsvp-address:${email}`, RSVP_ADDRESS_LIMIT, RSVP_ADDRESS_WINDOW_MS, now, (ms) =>
    rateLimited(`För många anmälningar för den här adressen. Försök igen om ${Math.max(1, Math.ceil(ms / 60000))} minuter.`, Math.ceil(ms / 1000)),
  );
  const confirm = await confirmUrl(deps, id, RSVP_CONFIRM_TTL_S);
  await withNotices(
    db,
    [q.insertRsvpStatement(db, { id, quizId: quiz.id, userId: null, email, teamSize: input.teamSize })],
    [deps.mailer.outbox(confirmMail(email, quiz, input.teamSize, confirm, cancel), `rsvp-confirm:${id}`, q.rsvpExistsSql(id))],
    deps.mailQueue,
  );
  return { status: 202, message: RSVP_PENDING_MESSAGE };
}

/** The public figures of one occurrence (GET /api/quizzes/:quizId/rsvp; uncached). */
export function countsView(quiz: Pick<q.RsvpQuiz, 'capacity_tables' | 'teams' | 'seats' | 'held' | 'queued'>) {
  const cap = quiz.capacity_tables;
  const tablesLeft = cap === null ? null : Math.max(0, cap - (quiz.held ?? 0));
  return { teams: quiz.teams ?? 0, seats: quiz.seats ?? 0, tablesLeft, full: tablesLeft === null ? null : tablesLeft === 0, waitlist: quiz.queued ?? 0 };
}

export async function rsvpCounts(deps: Pick<Deps, 'db'>, input: { quizId: string }): Promise<RsvpCountsResponse> {
  const quiz = await q.rsvpQuiz(deps.db, input.quizId);
  if (!quiz?.is_public) throw notFound(QUIZ_GONE);
  return { ...countsView(quiz), mode: modeOf(quiz), bookingUrl: quiz.booking_url, bookingPhone: quiz.booking_phone };
}

/** The listing's `teams` / `tablesLeft` of a page of occurrences: one bounded read keyed by the page's ids. */
export async function rsvpFiguresOf(
  deps: Pick<Deps, 'db'>,
  input: { quizIds: readonly string[] },
): Promise<Map<string, { teams: number; tablesLeft: number | null }>> {
  const rows = await q.countsOf(deps.db, input.quizIds);
  return new Map(
    rows.map((r) => [r.id, { teams: r.teams ?? 0, tablesLeft: r.capacity_tables === null ? null : Math.max(0, r.capacity_tables - (r.held ?? 0)) }]),
  );
}

// ---------------------------------------------------------------- signed links

/** What a link page shows about its RSVP. */
export interface RsvpLinkView {
  place: string;
  when: string;
  path: string;
  state: string | null;
}
function viewOf(quiz: q.RsvpQuiz, state: string | null): RsvpLinkView {
  return { place: `${quiz.place_name}, ${quiz.city}`, when: `${displayDate(quiz.date)} kl. ${displayTime(quiz.start_time)}`, path: nightPath(quiz), state };
}

async function rsvpWithQuiz(deps: RsvpDeps, rsvpId: string) {
  const row = await q.rsvpState(deps.db, rsvpId);
  if (!row) return null;
  const quiz = await q.rsvpQuiz(deps.db, row.quiz_id);
  return quiz ? { quiz, state: row.state } : null;
}

/** Checks a confirm link without acting (the GET page). */
export async function inspectConfirm(deps: RsvpDeps, input: { token: string | undefined }): Promise<RsvpLinkView> {
  const link = await requireLink(linkKeys(deps.config), input.token, 'rsvp-confirm', deps.clock.now());
  const found = await rsvpWithQuiz(deps, link.s);
  if (!found) throw notFound('Anmälan finns inte längre.');
  return viewOf(found.quiz, found.state);
}

/** Spends the single-use link and confirms by the guarded statement, in one batch: confirmed, or queued when full. */
export async function confirmRsvp(deps: RsvpDeps, input: { token: string | undefined }): Promise<RsvpLinkView> {
  const { db } = deps;
  const now = deps.clock.now();
  const link = await requireLink(linkKeys(deps.config), input.token, 'rsvp-confirm', now);
  const found = await rsvpWithQuiz(deps, link.s);
  if (!found) throw notFound('Anmälan finns inte längre.');
  if (found.quiz.is_cancelled) throw conflict('Quizet är inställt den här kvällen.');
  if (!takesRsvps(now, quizStart(found.quiz.date, found.quiz.start_time))) throw conflict('Quizet har redan varit.');
  let rows: Array<{ state: string }>;
  try {
    const [, confirmed] = await db.batch([spendStatement(db, link), q.confirmStatement(db, link.s, now.toISOString())]);
    rows = confirmed;
  } catch (err) {
    if (isSpentError(err)) throw invalidInput('Länken har redan använts.', [{ path: 't', message: 'Länken har redan använts.' }]);
    throw err;
  }
  if (!rows[0]) {
    if (found.state === 'confirmed') return viewOf(found.quiz, 'confirmed');
    throw conflict(found.state === 'cancelled' ? 'Erbjudandet har gått ut eller anmälan är avbokad.' : 'Anmälan är redan bekräftad.');
  }
  return viewOf(found.quiz, rows[0].state);
}

/** Checks a cancel link without acting (the GET page). */
export async function inspectCancel(deps: RsvpDeps, input: { token: string | undefined }): Promise<RsvpLinkView> {
  const link = await requireLink(linkKeys(deps.config), input.token, 'rsvp-cancel', deps.clock.now());
  const found = await rsvpWithQuiz(deps, link.s);
  if (!found) throw notFound('Anmälan finns inte längre.');
  return viewOf(found.quiz, found.state);
}

/**
 * "Vi kan inte komma" (one click, idempotent: the link is not spent). The freed table is offered by the jobs
 * queue (`enqueueOffer`); if that enqueue fails, the next RSVP sweep offers it.
 */
export async function cancelRsvp(deps: RsvpDeps, input: { token: string | undefined; enqueueOffer: OfferEnqueue }): Promise<RsvpLinkView> {
  const now = deps.clock.now();
  const link = await requireLink(linkKeys(deps.config), input.token, 'rsvp-cancel', now);
  const found = await rsvpWithQuiz(deps, link.s);
  if (!found) throw notFound('Anmälan finns inte längre.');
  const [changed] = await q.cancelStatement(deps.db, link.s, now.toISOString());
  if (changed && found.quiz.capacity_tables !== null) {
    await input.enqueueOffer(changed.quizId).catch((err: unknown) => console.error('rsvp offer enqueue failed (the sweep offers it)', err));
  }
  return viewOf(found.quiz, 'cancelled');
}

// ---------------------------------------------------------------- offers, reminders (jobs)

/**
 * Offers free tables of one occurrence to the head of its waitlist, one by one, each offer and its mail in one
 * batch (guarded: still queued, a table still free). Returns how many were offered.
 */
export async function offerFreeTables(deps: RsvpDeps, input: { quizId: string; delivery: OutboxQueue | string[] }): Promise<number> {
  const { db } = deps;
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const quiz = await q.rsvpQuiz(db, input.quizId);
  if (!quiz || quiz.is_cancelled || quiz.capacity_tables === null) return 0;
  const expires = offerExpiry(now, quizStart(quiz.date, quiz.start_time));
  if (!expires) return 0;
  let offered = 0;
  for (let i = 0; i < 20; i++) {
    const head = await q.headOfQueue(db, quiz.id);
    if (!head?.email) break;
    const ttl = Math.max(60, Math.floor((expires.getTime() - now.getTime()) / 1000));
    const mail = deps.mailer.outbox(
      offerMail(head.email, quiz, expires, await confirmUrl(deps, head.id, ttl), await cancelUrl(deps, head.id, quiz.date)),
      `rsvp-offer:${head.id}:${nowIso}`,
      q.offeredSql(head.id, nowIso),
    );
    const { results } = await withNotices(db, [q.offerStatement(db, head.id, quiz.id, nowIso, expires.toISOString())], [mail], input.delivery);
    if (changes(results[0]) === 0) break;
    offered++;
    // And by push where the team subscribed (its follow of the place): best effort, the mail is the offer.
    await pushTo(
      deps,
      { user_id: head.user_id, email: head.email, location_id: quiz.location_id },
      {
        title: `Ett bord är ledigt på ${quiz.place_name}`,
        body: 'Bekräfta i mejlet för att ta bordet innan erbjudandet går ut.',
        url: nightPath(quiz),
        tag: `rsvp-offer:${head.id}`,
      },
    );
  }
  return offered;
}

/**
 * Pushes a notice to the team's browsers that take push (the subscriptions of its confirmed follow of the place,
 * queries.ts `pushTargetsOf`). Best effort: a push service's refusal is logged, never retried here.
 */
async function pushTo(
  deps: RsvpDeps,
  team: { user_id: string | null; email: string | null; location_id: string },
  notice: { title: string; body: string; url: string; tag: string },
): Promise<void> {
  const port = deps.push;
  if (!port) return;
  for (const t of await q.pushTargetsOf(deps.db, team)) {
    await port.send(t, { ...notice, followId: t.follow_id }).catch((err: unknown) => console.error('rsvp push failed', err));
  }
}

/** Sends one claimed reminder: the mail in the claim's batch; the push after its claim, to the team's subscriptions. */
async function remind(deps: RsvpDeps, kind: ReminderKind, r: q.ReminderCandidate, delivery: string[]): Promise<boolean> {
  const { db } = deps;
  const nowIso = deps.clock.now().toISOString();
  const claim = q.claimReminderStatement(db, r.id, kind, nowIso);
  if (kind === 'mail') {
    if (!r.email) return false;
    const mail = deps.mailer.outbox(
      reminderMail(r.email, r, deps.config.appUrl, await cancelUrl(deps, r.id, r.date)),
      `rsvp-reminder:${r.id}`,
      q.claimedSql(r.id, 'mail', nowIso),
    );
    const { results } = await withNotices(db, [claim], [mail], delivery);
    return changes(results[0]) > 0;
  }
  const [claimed] = await runBatch(db, [claim]);
  if (!claimed) return false;
  await pushTo(deps, r, {
    title: `Snart pubquiz på ${r.place_name}`,
    body: `Ert lag är anmält: kl. ${displayTime(r.start_time)} ikväll. Kan ni inte komma? Avboka i mejlet.`,
    url: nightPath(r),
    tag: `rsvp:${r.id}`,
  });
  return true;
}

export interface SweepResult {
  [key: string]: unknown;
  lapsed: number;
  offered: number;
  mailReminders: number;
  pushReminders: number;
}

/**
 * The RSVP sweep (every 15 minutes, on the jobs queue): lapsed offers are given up and their tables offered on,
 * free tables with a waitlist are offered, and the reminders that are due are claimed and sent (once each).
 */
export async function runRsvpSweep(deps: RsvpDeps, input: { delivery: OutboxQueue }): Promise<SweepResult> {
  const { db, clock } = deps;
  const now = clock.now();
  const nowIso = now.toISOString();
  const today = clock.today();
  const toDeliver: string[] = [];
  const quizIds = new Set<string>();
  let lapsed = 0;
  for (const o of await q.lapsedOffers(db, nowIso, 200)) {
    if (await q.lapseOffer(db, o.id, nowIso)) lapsed++;
    quizIds.add(o.quiz_id);
  }
  for (const id of await q.quizzesWithFreeTables(db, today, 200)) quizIds.add(id);
  let offered = 0;
  for (const quizId of quizIds) offered += await offerFreeTables(deps, { quizId, delivery: toDeliver });
  const counts = { mail: 0, push: 0 };
  for (const kind of ['mail', 'push'] as const) {
    for (const r of await q.reminderCandidates(db, kind, today, addDays(today, 1), 2000)) {
      if (!reminderDue(kind, now, quizStart(r.date, r.start_time), new Date(r.confirmed_at))) continue;
      if (await remind(deps, kind, r, toDeliver)) counts[kind]++;
    }
  }
  if (toDeliver.length) await input.delivery.sendBatch(toDeliver.map((id) => ({ body: { type: 'outbox' as const, id } })));
  return { lapsed, offered, mailReminders: counts.mail, pushReminders: counts.push };
}

/** Nightly (privacy): RSVP addresses 30 days after the night are deleted; RSVPs never confirmed within 48 h go. */
export async function forgetRsvpAddresses(deps: Pick<Deps, 'db' | 'clock'>): Promise<{ forgotten: number; stalePending: number }> {
  const before = addDays(deps.clock.today(), -RSVP_EMAIL_RETENTION_DAYS);
  let forgotten = 0;
  for (let page = 0; page < 20; page++) {
    const n = await q.forgetAddresses(deps.db, before, 500);
    forgotten += n;
    if (n < 500) break;
  }
  const stalePending = await q.deleteStalePending(deps.db, RSVP_CONFIRM_TTL_S / 3600, 5000);
  return { forgotten, stalePending };
}

// ---------------------------------------------------------------- the owner

/** Per date: expected teams and seats, the queue and the cancellations (addresses only of live teams). */
export async function ownerRsvpView(deps: Pick<Deps, 'db'>, actor: Actor, input: { quizId: string }): Promise<OwnerRsvpView> {
  await authorizeQuiz(deps.db, actor, input.quizId);
  const quiz = (await q.rsvpQuiz(deps.db, input.quizId))!;
  const rows = await q.rsvpsOfQuiz(deps.db, input.quizId, 1000);
  const toRow = (r: (typeof rows)[number]): OwnerRsvpRow => ({
    id: r.id,
    state: r.state as OwnerRsvpRow['state'],
    teamSize: r.team_size,
    email: r.state === 'confirmed' || r.state === 'queued' || r.state === 'offered' ? r.email : null,
    at: r.updated_at,
  });
  const c = countsView(quiz);
  return {
    quizId: quiz.id,
    date: quiz.date,
    capacityTables: quiz.capacity_tables,
    teams: c.teams,
    seats: c.seats,
    tablesLeft: c.tablesLeft,
    waitlist: c.waitlist,
    confirmed: rows.filter((r) => r.state === 'confirmed').map(toRow),
    queue: rows
      .filter((r) => r.state === 'queued' || r.state === 'offered')
      .sort((a, b) => (a.queued_at ?? '').localeCompare(b.queued_at ?? ''))
      .map(toRow),
    cancelled: rows.filter((r) => r.state === 'cancelled').map(toRow),
    settings: { rsvpOff: !!quiz.rsvp_off, bookingUrl: quiz.booking_url, bookingPhone: quiz.booking_phone },
  };
}

const STATE_LABELS: Record<string, string> = { confirmed: 'Kommer', queued: 'I kö', offered: 'Erbjudet bord', cancelled: 'Avbokat' };

/** The owner's CSV of one date (cells neutralised against formula injection by lib/csv). */
export async function ownerRsvpCsv(deps: Pick<Deps, 'db'>, actor: Actor, input: { quizId: string }): Promise<{ filename: string; csv: string }> {
  const v = await ownerRsvpView(deps, actor, input);
  const rows = [...v.confirmed, ...v.queue, ...v.cancelled].map((r) => [STATE_LABELS[r.state] ?? r.state, r.teamSize, r.email ?? '', r.at]);
  return { filename: `vi-kommer-${v.date}.csv`, csv: toCsv(['Status', 'Lagstorlek', 'E-post', 'Ändrad'], rows) };
}

/** The series' (or single quiz's) RSVP switch and external booking. */
export async function setRsvpSettings(deps: Pick<Deps, 'db' | 'clock'>, actor: Actor, input: { quizId: string; settings: RsvpSettingsInput }) {
  const { quiz } = await authorizeQuiz(deps.db, actor, input.quizId);
  const key = quiz.recurrenceId ?? quiz.id;
  const s = input.settings;
  const nowIso = deps.clock.now().toISOString();
  await runBatch(deps.db, [
    q.upsertSettingsStatement(deps.db, key, s, nowIso),
    // The pages show the booking link or no button: public data changed.
    bumpDataVersion(deps.db),
  ]);
  return { settings: s };
}
