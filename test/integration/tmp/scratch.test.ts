import { env } from 'cloudflare:workers';
import { beforeAll, expect, it } from 'vitest';
import { buildScaleSeed } from '../../../worker/db/seed';
import { call } from '../../factories';

beforeAll(async () => {
  const statements = buildScaleSeed('2030-03-05', 1000, 'house@test.local');
  for (let i = 0; i < statements.length; i += 50) await env.DB.batch(statements.slice(i, i + 50).map((s) => env.DB.prepare(s)));
  expect((await call('/api/listing?_warm=1', { clock: '2030-03-05T10:00:00Z' })).status).toBe(200);
});

async function rr(label: string, q: string, ...b: unknown[]) {
  const r = await env.DB.prepare(q).bind(...b).all();
  console.log(`${String(r.meta.rows_read).padStart(5)} read ${String(r.results.length).padStart(3)} rows  ${label}`);
}

it('variants', async () => {
  const seed = 1000000000;
  const arm = (t: number, up: boolean, take = 13) => `SELECT * FROM (SELECT e.id AS uid FROM listing_series e INDEXED BY listing_series_city_rank_idx WHERE e.city_slug = 'stockholm' AND e.tier = ${t} AND e.shuffle ${up ? '>=' : '<'} ${seed} ORDER BY e.shuffle LIMIT ${take})`;
  await rr('one arm bare', `SELECT e.id AS uid FROM listing_series e INDEXED BY listing_series_city_rank_idx WHERE e.city_slug = 'stockholm' AND e.tier = 0 AND e.shuffle >= ${seed} ORDER BY e.shuffle LIMIT 13`);
  await rr('one arm wrapped', arm(0, true));
  await rr('compound 4 LIMIT 13', `SELECT uid FROM (${arm(0, true)} UNION ALL ${arm(0, false)} UNION ALL ${arm(1, true)} UNION ALL ${arm(1, false)}) LIMIT 13`);
  await rr('compound 4 no outer wrap', `${arm(0, true)} UNION ALL ${arm(0, false)} UNION ALL ${arm(1, true)} UNION ALL ${arm(1, false)} LIMIT 13`);
  await rr('compound + join', `SELECT e.id, e.card FROM (${arm(0, true)} UNION ALL ${arm(0, false)} UNION ALL ${arm(1, true)} UNION ALL ${arm(1, false)} LIMIT 13) w CROSS JOIN listing_series e ON e.id = w.uid`);
  await rr('materialized + join', `WITH walk AS MATERIALIZED (SELECT uid FROM (${arm(0, true)} UNION ALL ${arm(0, false)} UNION ALL ${arm(1, true)} UNION ALL ${arm(1, false)}) LIMIT 13) SELECT e.id, e.card FROM walk CROSS JOIN listing_series e ON e.id = walk.uid`);
  await rr('pk lookups 13', `SELECT e.id, e.card FROM listing_series e WHERE e.id IN (1,2,3,4,5,6,7,8,9,10,11,12,13)`);
  await rr('json_each pk 13', `SELECT e.id, e.card FROM json_each('[1,2,3,4,5,6,7,8,9,10,11,12,13]') j CROSS JOIN listing_series e ON e.id = j.value`);
  await rr('count city all', `SELECT count(*) FROM listing_series e INDEXED BY listing_series_city_rank_idx WHERE e.city_slug = 'stockholm' AND e.tier < 2`);
  await rr('state+count', `SELECT s.today, c.units FROM listing_state s LEFT JOIN listing_counts c ON c.city = 'stockholm' AND c.wd = -1 WHERE s.id = 1`);
  await rr('promos', `SELECT p.quiz_id FROM promotions p WHERE p.status = 'active' AND p.end_date >= '2030-03-05'`);
});
