/** The CSV reader/writer moved to worker/lib/csv.ts (shared with the exports); kept for the import's imports. */
export * from '../../lib/csv';
