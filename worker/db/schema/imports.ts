/** Bulk import jobs (issue 21). */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './common';
import { users } from './accounts';

export const IMPORT_JOB_STATUSES = ['uploaded', 'running', 'done', 'failed'] as const;
/**
 * One uploaded CSV file and its import run (a Cloudflare Workflow). The original file and its parsed
 * rows live in R2 (`file_key`, `rows_key`); this row is the job's observable state: progress, counts,
 * start, end and error. `processed_rows` is bumped in the same batch as the rows it counts.
 */
export const importJobs = sqliteTable(
  'import_jobs',
  {
    id: text('id').primaryKey(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    fileKey: text('file_key').notNull(),
    rowsKey: text('rows_key').notNull(),
    encoding: text('encoding').notNull(),
    status: text('status', { enum: IMPORT_JOB_STATUSES }).notNull().default('uploaded'),
    totalRows: integer('total_rows').notNull(),
    processedRows: integer('processed_rows').notNull().default(0),
    createdCount: integer('created_count').notNull().default(0),
    duplicateCount: integer('duplicate_count').notNull().default(0),
    invalidCount: integer('invalid_count').notNull().default(0),
    reviewCount: integer('review_count').notNull().default(0),
    /** JSON: first rows, column mapping and the preview's counts (new / duplicate / invalid). */
    preview: text('preview').notNull(),
    /** Stockholm date the series start from (the day "Importera" was pressed). */
    today: text('today'),
    error: text('error'),
    startedAt: text('started_at'),
    finishedAt: text('finished_at'),
    ...timestamps,
  },
  (t) => [index('import_jobs_created_idx').on(t.createdAt)],
);
export type ImportJobRow = typeof importJobs.$inferSelect;

export const IMPORT_ROW_RESULTS = ['created', 'duplicate', 'invalid', 'review', 'merged'] as const;
/**
 * One row per (job, file line): the idempotency key of the import. It is inserted in the same
 * db.batch as the row's business/place/series, so a retried or resumed step can never import a line
 * twice (the primary key fails the whole batch). Also the report (row, result, message) and the
 * near-duplicate review queue (`review` rows keep their data until "Slå ihop" / "Skapa ny").
 */
export const importRows = sqliteTable(
  'import_rows',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => importJobs.id, { onDelete: 'cascade' }),
    rowNo: integer('row_no').notNull(),
    result: text('result', { enum: IMPORT_ROW_RESULTS }).notNull(),
    message: text('message').notNull().default(''),
    /** The business created, or (review/merged) the existing one it resembles. No FK: history. */
    venueId: text('venue_id'),
    /** Review rows: the validated row as JSON, to create or merge later. */
    data: text('data'),
    resolvedAt: text('resolved_at'),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.rowNo] }), index('import_rows_job_result_idx').on(t.jobId, t.result, t.rowNo)],
);
export type ImportRowRow = typeof importRows.$inferSelect;
