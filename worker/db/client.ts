import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';

export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}
/** The drizzle database handed to services. One per request (app.ts), or per cron run. */
export type Db = ReturnType<typeof createDb>;
