/**
 * Faults at every step (issue 21 item 5): each multi-statement write is run once per k with a D1
 * binding that fails at batch statement k (faulty-d1.ts). After each fault every invariant
 * (invariants.ts) must hold and the operation must not be half done in a way the retry cannot
 * finish; then the same call on the real binding completes it, and the end state is the one an
 * unfaulted run gives.
 */
import { env } from 'cloudflare:workers';
import { and, eq, gte, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../worker/db/client';
import { importJobs, importRows, profiles, quizzes, users, venues } from '../../../worker/db/schema';
import { parseConfig } from '../../../worker/env';
import { deleteUserAccount } from '../../../worker/features/accounts/service';
import { deleteVenue } from '../../../worker/features/admin/service';
import { createImportJob } from '../../../worker/features/admin/import-job';
import { processImportChunk } from '../../../worker/features/admin/import-step';
import { ensureHouseUser } from '../../../worker/features/admin/import';
import { CreateQuizSchema } from '../../../worker/features/quizzes/contract';
import { createQuiz as createQuizService } from '../../../worker/features/quizzes/service';
import { deleteSeries, editSeries, runSeriesExtensionJob } from '../../../worker/features/series/service';
import { takeoverVenue } from '../../../worker/features/takeover/service';
import { handlePaymentEvent } from '../../../worker/features/payments/service';
import { createPromotionCheckout } from '../../../worker/features/promotion/service';
import { checkoutOrders, promotions, promotionSlotClaims } from '../../../worker/db/schema';
import { createLocalPayments } from '../../../worker/ports/payments';
import { createClock } from '../../../worker/lib/clock';
import type { Actor } from '../../../worker/lib/authz';
import { newId } from '../../../worker/lib/ids';
import { createMailer } from '../../../worker/ports/mailer';
import { capturingOutboxQueue } from '../../mail-queue';
import { createLocation, createQuiz, createUser, createVenue, testDb, unique, pinnedClock, uniqueTown } from '../../factories';
import { bulkRow, KNOWN_TOWNS } from '../../fixtures/towns';
import { expectConsoleError } from '../../setup/console';
import { faultyD1 } from './faulty-d1';
import { INVARIANTS } from './invariants';

/** The town of this file's places (a known town: issue 43.6). */
const FAULT_TOWN = uniqueTown();

const TODAY = '2030-03-05';
const NOW = new Date('2030-03-05T10:00:00Z');
const clock = createClock(NOW.toISOString());
const config = {
  ...parseConfig(env as unknown as Env),
  houseAccountEmail: (env as unknown as { HOUSE_ACCOUNT_EMAIL?: string }).HOUSE_ACCOUNT_EMAIL ?? 'house@test.local',
};

/** Every invariant, read in one D1 batch (one round trip for all of them; issue 27). */
async function invariantsHold(label: string) {
  const db = testDb();
  const [first, ...rest] = INVARIANTS.map((inv) => db.all(sql.raw(inv.sql)));
  const results = (await db.batch([first!, ...rest])) as unknown[][];
  const broken: string[] = [];
  INVARIANTS.forEach((inv, i) => {
    const rows = results[i]!;
    if (rows.length) broken.push(`${label}: ${inv.name}: ${JSON.stringify(rows.slice(0, 2))}`);
  });
  expect(broken).toEqual([]);
}

/** 1..n when small, else 1, n and evenly spread points (always including the first statement of each batch is not needed: a batch fails as a whole). */
function ks(n: number, max = 12): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i + 1);
  const out = new Set([1, 2, n - 1, n]);
  for (let i = 1; out.size < max; i++) out.add(Math.max(1, Math.round((i * n) / (max - 3))));
  return [...out].filter((k) => k >= 1 && k <= n).sort((a, b) => a - b);
}

/**
 * The matrix for one operation: `setup` builds fresh rows, `op` runs the write on a Db, `done`
 * asserts the completed end state. Returns how many batch statements the operation sends.
 */
async function matrix<C>(label: string, setup: () => Promise<C>, op: (db: Db, c: C) => Promise<unknown>, done: (c: C) => Promise<void>): Promise<number> {
  const c0 = await setup();
  const probe = faultyD1(env.DB, Number.MAX_SAFE_INTEGER);
  await op(probe.db, c0);
  await done(c0);
  const n = probe.seen;
  expect(n, `${label}: sends batch statements`).toBeGreaterThan(0);
  for (const k of ks(n)) {
    const c = await setup();
    const f = faultyD1(env.DB, k);
    let threw = false;
    try {
      await op(f.db, c);
    } catch {
      threw = true;
    }
    expect(f.fired, `${label} k=${k}: fault fired`).toBe(true);
    expect(threw, `${label} k=${k}: the caller sees the failure`).toBe(true);
    await invariantsHold(`${label} k=${k} after fault`);
    await op(testDb(), c); // the retry
    await done(c);
    await invariantsHold(`${label} k=${k} after retry`);
  }
  return n;
}

async function ownerWithPlace(city = FAULT_TOWN) {
  const user = await createUser({ now: NOW });
  const venue = await createVenue(user.id, { name: `Felpuben ${unique('f')}` });
  const place = await createLocation(venue.id, { city });
  const actor: Actor = { id: user.id, email: user.email, roles: ['admin'] };
  return { user, venue, place, actor };
}

async function seriesOf(locationId: string) {
  return testDb().select().from(quizzes).where(eq(quizzes.locationId, locationId));
}

async function withSeries() {
  const o = await ownerWithPlace();
  const data = CreateQuizSchema.parse({
    locationId: o.place.id,
    date: TODAY,
    recurring: true,
    pattern: 'weekly',
    category: 'allmänbildning',
    startTime: '19:00',
  });
  const res = await createQuizService({ db: testDb(), clock }, o.actor, data);
  return { ...o, rid: res.recurrenceId! };
}

describe('every multi-statement write under a fault at each batch statement', () => {
  it('series create: all or nothing, the retry creates the series once', async () => {
    const n = await matrix(
      'series create',
      ownerWithPlace,
      (db, o) =>
        createQuizService(
          { db, clock },
          o.actor,
          CreateQuizSchema.parse({ locationId: o.place.id, date: TODAY, recurring: true, pattern: 'weekly', category: 'allmänbildning', startTime: '19:00' }),
        ),
      async (o) => {
        const rows = await seriesOf(o.place.id);
        expect(rows.length).toBe(26); // Tue TODAY … TODAY + 180 days (a Sunday), weekly
        expect(new Set(rows.map((r) => r.recurrenceId)).size).toBe(1);
      },
    );
    expect(n).toBeGreaterThan(1);
  });

  it('series edit: the retry applies the edit to every future occurrence', async () => {
    await matrix(
      'series edit',
      withSeries,
      (db, o) =>
        editSeries({ db, clock }, o.actor, { recurrenceId: o.rid, data: { startTime: '20:15', category: 'tema', theme: 'Musik', quizmaster: 'Kim' } as never }),
      async (o) => {
        const rows = await testDb()
          .select()
          .from(quizzes)
          .where(and(eq(quizzes.recurrenceId, o.rid), gte(quizzes.date, TODAY)));
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.every((r) => r.quizmaster === 'Kim' && r.theme === 'Musik')).toBe(true);
      },
    );
  });

  it('series delete: the retry deletes every occurrence', async () => {
    await matrix(
      'series delete',
      withSeries,
      (db, o) => deleteSeries({ db, clock }, o.actor, { recurrenceId: o.rid }),
      async (o) => expect(await testDb().select().from(quizzes).where(eq(quizzes.recurrenceId, o.rid))).toEqual([]),
    );
  });

  it('business deletion (superadmin): the retry removes the business with its places and quizzes', async () => {
    await matrix(
      'business delete',
      withSeries,
      (db, o) => deleteVenue({ db, clock }, { venueId: o.venue.id }),
      async (o) => {
        expect(await testDb().select().from(venues).where(eq(venues.id, o.venue.id))).toEqual([]);
        expect(await seriesOf(o.place.id)).toEqual([]);
      },
    );
  });

  it('account deletion: the retry removes the user and everything they own', async () => {
    await matrix(
      'account delete',
      withSeries,
      async (db, o) => {
        const ok = await deleteUserAccount({ db, clock }, { userId: o.user.id });
        return ok;
      },
      async (o) => {
        expect(await testDb().select().from(users).where(eq(users.id, o.user.id))).toEqual([]);
        expect(await testDb().select().from(venues).where(eq(venues.id, o.venue.id))).toEqual([]);
      },
    );
  });

  it('takeover: the retry moves the business to the claimant exactly once', async () => {
    const houseId = await ensureHouseUser(testDb(), config.houseAccountEmail);
    await matrix(
      'takeover',
      async () => {
        const v = await createVenue(houseId, { name: `Husets ${unique('h')}` });
        await createLocation(v.id);
        const u = await createUser({ now: NOW });
        await testDb().insert(profiles).values({ userId: u.id }).onConflictDoNothing();
        return { v, u };
      },
      // A real mailer on the faulty database: the superadmins' notices are statements of the same batch.
      (db, c) =>
        takeoverVenue(
          { db, clock, config, mailer: createMailer(db, { apiKey: null, from: 'Quizkväll <no-reply@test.local>', clock }), mailQueue: capturingOutboxQueue() },
          { userId: c.u.id, email: c.u.email, venueId: c.v.id },
        ),
      async (c) => {
        const [v] = await testDb().select().from(venues).where(eq(venues.id, c.v.id));
        expect(v!.userId).toBe(c.u.id);
        // The move's notices exist exactly once each: none from the failed attempt, none twice from the retry.
        const prefix = `takeover-notice:${c.v.id}:`; // (D1 refuses a LIKE pattern this long)
        const notices = await testDb().all<{ to_email: string }>(
          sql`SELECT to_email FROM mail_outbox WHERE substr(send_key, 1, ${prefix.length}) = ${prefix} ORDER BY to_email`,
        );
        expect(notices.length).toBeGreaterThan(0);
        expect(new Set(notices.map((n) => n.to_email)).size).toBe(notices.length);
      },
    );
  });

  it('cron extension: the retry (or the next night) adds the missing dates once', async () => {
    await matrix(
      'cron extension',
      async () => {
        const o = await ownerWithPlace(`Cron${unique('c')}`);
        const rid = newId();
        // An open-ended weekly series whose latest date is 10 days away: it needs extension.
        for (const date of ['2030-03-01', '2030-03-08', '2030-03-15']) {
          await createQuiz(o.place.id, { date, isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly', recurrenceDays: '["fredag"]' });
        }
        return { ...o, rid };
      },
      (db) =>
        runSeriesExtensionJob({ db: db, clock: pinnedClock(NOW) }).then((r) => {
          if ((r as { error?: unknown }).error) throw new Error('job failed');
          return r;
        }),
      async (o) => {
        const rows = await testDb().select({ date: quizzes.date }).from(quizzes).where(eq(quizzes.recurrenceId, o.rid));
        expect(rows.length).toBe(new Set(rows.map((r) => r.date)).size);
        expect(
          rows
            .map((r) => r.date)
            .sort()
            .at(-1)! >= '2030-08-30',
        ).toBe(true);
      },
    );
  });

  it('import step: the retry imports each line exactly once', async () => {
    await ensureHouseUser(testDb(), config.houseAccountEmail);
    const superadmin = await createUser({ roles: ['admin', 'superadmin'], now: NOW });
    await matrix(
      'import step',
      async () => {
        const p = unique('Imp');
        const csv = ['name,address,city,weekday', ...Array.from({ length: 25 }, (_, i) => bulkRow(p, i, KNOWN_TOWNS, ['torsdag']))].join('\n');
        const job = await createImportJob(
          { db: testDb(), clock },
          { bucket: env.IMPORTS, bytes: new TextEncoder().encode(csv), fileName: 'f.csv', userId: superadmin.id },
        );
        await testDb().update(importJobs).set({ status: 'running', today: TODAY }).where(eq(importJobs.id, job.id));
        return { id: job.id, p };
      },
      (db, c) => processImportChunk({ db, clock, config }, { bucket: env.IMPORTS, id: c.id, chunk: 0 }),
      async (c) => {
        const [j] = await testDb().select().from(importJobs).where(eq(importJobs.id, c.id));
        expect(j!.processedRows).toBe(25);
        expect(await testDb().select().from(importRows).where(eq(importRows.jobId, c.id))).toHaveLength(25);
        const [n] = await testDb().all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM venues WHERE instr(name, ${c.p}) = 1`);
        expect(n!.n).toBe(25);
      },
    );
  });

  describe('payments', () => {
    const payments = createLocalPayments({ webhookSecret: 'whsec_test' });
    // The local port: fallback prices (49 / 98 kr), no network.
    const checkoutDeps = (db: Db) => ({ db, clock, config: { ...config, appUrl: 'http://localhost' }, payments });
    async function withQuiz() {
      const o = await ownerWithPlace(`Betal${unique('b')}`);
      const quiz = await createQuiz(o.place.id, { date: '2030-03-12' });
      return { ...o, quiz };
    }

    it('checkout claim: the order and its slot hold are one batch; the retry opens exactly one order', async () => {
      expectConsoleError(/slot claim batch failed/);
      await matrix(
        'checkout claim',
        withQuiz,
        (db, o) => createPromotionCheckout(checkoutDeps(db), o.actor, { quizId: o.quiz.id, tier: 'premium', weeks: 1 }),
        async (o) => {
          const claims = await testDb().select().from(promotionSlotClaims).where(eq(promotionSlotClaims.quizId, o.quiz.id));
          expect(claims).toHaveLength(1);
          const open = await testDb()
            .select()
            .from(checkoutOrders)
            .where(and(eq(checkoutOrders.venueId, o.venue.id), eq(checkoutOrders.status, 'open')));
          expect(open).toHaveLength(1);
        },
      );
    });

    it('webhook apply: paid order, sold slot and promotion in one batch; the redelivered event completes it once', async () => {
      await matrix(
        'webhook apply',
        async () => {
          const o = await withQuiz();
          const order = await createPromotionCheckout(checkoutDeps(testDb()), o.actor, { quizId: o.quiz.id, tier: 'recommended', weeks: 1 });
          return { ...o, order };
        },
        async (db, c) => {
          const event = {
            id: `evt_fault_${c.order.orderId}`,
            type: 'checkout.session.completed',
            session: { id: c.order.sessionId, orderId: c.order.orderId, paymentStatus: 'paid', amountTotal: c.order.amountTotal, paymentIntentId: null },
          };
          const outcome = await handlePaymentEvent({ db, clock, payments }, event);
          if (outcome !== 'applied' && outcome !== 'duplicate') throw new Error(`webhook outcome ${String(outcome)}`);
          return outcome;
        },
        async (c) => {
          const [order] = await testDb().select().from(checkoutOrders).where(eq(checkoutOrders.id, c.order.orderId));
          expect(order!.status).toBe('paid');
          expect(await testDb().select().from(promotions).where(eq(promotions.quizId, c.quiz.id))).toHaveLength(1);
        },
      );
    });
  });
});
