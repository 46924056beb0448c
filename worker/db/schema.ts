/**
 * Every table of Quizkväll (spec 01 §3, spec 02 §3), one file per aggregate under worker/db/schema/; this
 * index re-exports them all, so `../db/schema` stays the one import and drizzle-kit (drizzle.config.ts) reads
 * this file. drizzle-kit generates migrations/ from it; wrangler applies them. Never edit a generated
 * migration: change a schema file and run `npm run db:generate`.
 *
 * Conventions: text UUID ids, snake_case columns, created_at/updated_at as ISO-8601 UTC text,
 * quiz `date` as YYYY-MM-DD and `start_time` as HH:MM:SS in Europe/Stockholm local time,
 * money in öre. Deletion rules are enforced by foreign keys (D1 enforces them): see README "Data model".
 */
export * from './schema/accounts';
export * from './schema/analytics';
export * from './schema/calendar';
export * from './schema/catalogue';
export * from './schema/content';
export * from './schema/follows';
export * from './schema/imports';
export * from './schema/listing';
export * from './schema/ops';
export * from './schema/promotion';
export * from './schema/rsvp';
export * from './schema/quizmasters';
export * from './schema/results';
