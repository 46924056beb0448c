import { defineConfig } from 'drizzle-kit';

// drizzle-kit only generates migration SQL; wrangler applies it (never `drizzle-kit push`).
export default defineConfig({
  dialect: 'sqlite',
  schema: './worker/db/schema.ts',
  out: './migrations',
});
