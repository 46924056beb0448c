/**
 * The bulk import as a durable job (issue 21): shapes shared by the API and the superadmin panel.
 * Imports only zod.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema';

/** Rows per uploaded file and bytes per file. */
export const JOB_MAX_ROWS = 20_000;
export const JOB_MAX_BYTES = 10_000_000;

export interface ImportJobPreviewRow {
  line: number;
  name: string;
  address: string;
  city: string;
  weekday: string;
  result: 'new' | 'duplicate' | 'invalid';
  message: string;
}

export interface ImportJobView {
  id: string;
  fileName: string;
  encoding: string;
  status: 'uploaded' | 'running' | 'done' | 'failed';
  totalRows: number;
  processedRows: number;
  counts: { created: number; duplicate: number; invalid: number; review: number };
  preview: {
    /** File header → import column (null = ignored). */
    columns: Array<{ header: string; column: string | null }>;
    rows: ImportJobPreviewRow[];
    counts: { new: number; duplicate: number; invalid: number };
  };
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface ImportReviewItem {
  rowNo: number;
  name: string;
  address: string;
  city: string;
  message: string;
  /** The existing business the row resembles. */
  match: { id: string; name: string; address: string | null; city: string | null } | null;
  resolved: 'merged' | 'created' | null;
}

export const JobIdParamSchema = lazySchema(() => z.object({ id: z.string().trim().min(1, 'Ange ett jobb-id').max(64, 'Ogiltigt jobb-id').describe('id') }));
export const ReviewParamSchema = lazySchema(() =>
  z.object({
    id: z.string().trim().min(1, 'Ange ett jobb-id').max(64, 'Ogiltigt jobb-id').describe('id'),
    row: z.coerce
      .number({ error: 'Ange ett radnummer' })
      .int('Ange ett radnummer')
      .min(2, 'Ange ett radnummer')
      .max(10_000_000, 'Ange ett radnummer')
      .describe('row'),
  }),
);
export const ReviewActionSchema = lazySchema(() =>
  z.object({
    action: z.enum(['merge', 'create'], { error: "Välj 'Slå ihop' eller 'Skapa ny'" }).describe('action'),
  }),
);
export type ReviewAction = z.infer<typeof ReviewActionSchema>['action'];
