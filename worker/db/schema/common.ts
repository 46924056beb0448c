/** Shared column pieces of the schema: ISO-8601 UTC timestamps written by the database's own clock. */
import { sql } from 'drizzle-orm';
import { text } from 'drizzle-orm/sqlite-core';

export const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
export const timestamps = {
  createdAt: text('created_at').notNull().default(nowIso),
  updatedAt: text('updated_at').notNull().default(nowIso),
};
