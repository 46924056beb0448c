/** The health check's one read (issue 28.6: thin handlers, SQL in queries.ts). */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** The data version row's value, or null when it is missing (migrations not applied). A missing table throws. Not for answers. */
export async function dataVersionRow(db: Db): Promise<number | null> {
  const rows = await db.all<{ version: number }>(sql`SELECT version FROM public_data_version WHERE id = 1`);
  return rows.length === 1 ? rows[0]!.version : null;
}
