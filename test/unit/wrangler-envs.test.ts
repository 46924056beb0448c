/**
 * wrangler.toml (issue 30 §2): staging is a full copy of production with its own resources. Bindings are
 * not inherited by a wrangler environment, so every binding production has must be repeated under
 * [env.staging] with a different database / bucket / queue / workflow name, or staging would write into
 * production's data. Read through wrangler's own config reader (which validates the file too).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { unstable_readConfig } from 'wrangler';

/** The parts of wrangler's resolved config this test reads. */
interface Resolved {
  name: string;
  vars: Record<string, unknown>;
  observability?: { enabled?: boolean };
  triggers: { crons?: string[] };
  d1_databases: Array<{ binding: string; database_name?: string }>;
  r2_buckets: Array<{ binding: string; bucket_name?: string }>;
  workflows: Array<{ binding: string; name: string }>;
  queues: { producers?: Array<{ binding: string; queue: string }>; consumers?: Array<{ queue: string; dead_letter_queue?: string }> };
}
const config = (env?: string) =>
  unstable_readConfig({ config: join(import.meta.dirname, '..', '..', 'wrangler.toml'), env }, { hideWarnings: true }) as unknown as Resolved;

describe('wrangler environments', () => {
  const prod = config();
  const staging = config('staging');

  it('staging has every binding production has, each on its own resource', { timeout: 60_000 }, () => {
    expect(staging.name).not.toBe(prod.name);
    const pairs: Array<[string, Array<{ binding: string; name: string }>, Array<{ binding: string; name: string }>]> = [
      [
        'd1',
        prod.d1_databases.map((d) => ({ binding: d.binding, name: d.database_name! })),
        staging.d1_databases.map((d) => ({ binding: d.binding, name: d.database_name! })),
      ],
      [
        'r2',
        prod.r2_buckets.map((b) => ({ binding: b.binding, name: b.bucket_name! })),
        staging.r2_buckets.map((b) => ({ binding: b.binding, name: b.bucket_name! })),
      ],
      [
        'queues',
        (prod.queues.producers ?? []).map((q) => ({ binding: q.binding, name: q.queue })),
        (staging.queues.producers ?? []).map((q) => ({ binding: q.binding, name: q.queue })),
      ],
      ['workflows', prod.workflows.map((w) => ({ binding: w.binding, name: w.name })), staging.workflows.map((w) => ({ binding: w.binding, name: w.name }))],
    ];
    for (const [kind, p, s] of pairs) {
      expect(s.map((x) => x.binding).sort(), kind).toEqual(p.map((x) => x.binding).sort());
      for (const x of s)
        expect(
          p.map((y) => y.name),
          `${kind} ${x.binding}`,
        ).not.toContain(x.name);
    }
    expect(Object.keys(staging.vars).sort()).toEqual(Object.keys(prod.vars).sort());
    expect(staging.vars.APP_URL).not.toBe(prod.vars.APP_URL);
    expect(staging.observability?.enabled).toBe(true);
    expect(prod.observability?.enabled).toBe(true);
  });

  it('every dead-letter queue ends in -dlq (worker/index.ts routes its batches by that) and has a consumer', () => {
    for (const c of [prod, staging]) {
      const consumers = (c.queues.consumers ?? []).map((q) => q.queue);
      for (const q of c.queues.consumers ?? []) {
        if (!q.dead_letter_queue) continue;
        expect(q.dead_letter_queue).toMatch(/-dlq$/);
        expect(consumers).toContain(q.dead_letter_queue);
        expect(q.queue).not.toMatch(/-dlq$/);
      }
    }
  });

  it('staging runs the nightly, listing-day and backup crons only (no reminder or digest mail)', () => {
    expect(staging.triggers.crons).toEqual(['15 2 * * *', '5 22,23 * * *', '45 1 * * *']);
  });
});
