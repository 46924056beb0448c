import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** GET /api/health: really queries D1, so a broken binding or missing migrations shows. */
export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const rows = await c.var.db.all<{ version: number }>(sql`SELECT version FROM public_data_version WHERE id = 1`);
  const ok = rows.length === 1;
  return c.json({ ok, db: ok ? 'ok' : 'not migrated', dataVersion: rows[0]?.version ?? null, time: c.var.clock.now().toISOString(), today: c.var.clock.today() }, ok ? 200 : 503);
});
