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

it('search', async () => {
  await rr('fts count', `SELECT count(*) FROM listing_series_fts WHERE listing_series_fts MATCH '"ankaret"'`);
  await rr('fts rowids', `SELECT rowid FROM listing_series_fts WHERE listing_series_fts MATCH '"ankaret"'`);
  await rr('fts rowids limit 5', `SELECT rowid FROM listing_series_fts WHERE listing_series_fts MATCH '"ankaret"' LIMIT 5`);
  await rr('count via e', `SELECT count(*) FROM listing_series e WHERE e.tier < 2 AND e.id IN (SELECT rowid FROM listing_series_fts WHERE listing_series_fts MATCH '"ankaret"')`);
  await rr('walk probe', `SELECT * FROM (SELECT e.id FROM listing_series e INDEXED BY listing_series_rank_idx WHERE e.tier = 0 AND e.shuffle >= 0 AND e.id IN (SELECT rowid FROM listing_series_fts WHERE listing_series_fts MATCH '"ankaret"') ORDER BY e.shuffle LIMIT 13)`);
  await rr('all units', `SELECT count(*) FROM listing_series`);
});
