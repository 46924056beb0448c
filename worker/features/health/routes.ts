import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { dataVersionRow } from './queries';

/**
 * GET /api/health: really queries D1, so a broken binding or missing migrations shows. Public, so it answers no
 * count of anything (issue 43.9: the data version was the site's write count).
 */
export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const version = await dataVersionRow(c.var.db);
  const ok = version !== null;
  return c.json({ ok, db: ok ? 'ok' : 'not migrated', time: c.var.clock.now().toISOString(), today: c.var.clock.today() }, ok ? 200 : 503);
});
