/**
 * Hourly counters of operational events (table ops_counters, issue 30 §4): one upsert per event, so
 * recording costs one row written and reading a day costs at most 24 rows per counter.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

export const OPS_COUNTERS = {
  /** Responses with status ≥ 500 (request-log middleware). */
  serverErrors: '5xx',
  /** Stripe webhook calls refused for a missing or wrong signature (payments webhook). */
  webhookSignature: 'webhook-signature',
} as const;
export type OpsCounterName = (typeof OPS_COUNTERS)[keyof typeof OPS_COUNTERS];

/** Hours are kept this long (the Drift tab shows 24 h; the alert check deletes older rows). */
export const OPS_COUNTER_RETENTION_DAYS = 14;

/** The UTC hour bucket of an instant: 'YYYY-MM-DDTHH'. */
export function hourOf(at: Date): string {
  return at.toISOString().slice(0, 13);
}

export async function bumpCounter(db: Db, name: OpsCounterName, at: Date): Promise<void> {
  await db.run(sql`INSERT INTO ops_counters (name, hour, count) VALUES (${name}, ${hourOf(at)}, 1)
    ON CONFLICT (name, hour) DO UPDATE SET count = count + 1`);
}

/** Counts per hour from `since` (inclusive, its hour bucket) on, oldest first. */
export async function counterHours(db: Db, name: OpsCounterName, since: Date): Promise<Array<{ hour: string; count: number }>> {
  return db.all<{ hour: string; count: number }>(sql`SELECT hour, count FROM ops_counters WHERE name = ${name} AND hour >= ${hourOf(since)} ORDER BY hour`);
}

export async function counterTotal(db: Db, name: OpsCounterName, since: Date): Promise<number> {
  return (await counterHours(db, name, since)).reduce((n, h) => n + h.count, 0);
}

export async function deleteOldCounters(db: Db, now: Date): Promise<number> {
  const before = hourOf(new Date(now.getTime() - OPS_COUNTER_RETENTION_DAYS * 86_400_000));
  const r = await db.run(sql`DELETE FROM ops_counters WHERE hour < ${before}`);
  return r.meta.changes ?? 0;
}
