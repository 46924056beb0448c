/**
 * POST /api/events (issue 18): what a browser may report. zod only — the beacon in
 * web/components/analytics/beacon.ts builds the same shape. No visitor id, cookie or free text: an event
 * is a metric and the id of a quiz occurrence or a business, nothing else.
 */
import * as z from 'zod';
import { ANALYTICS_METRICS, MAX_EVENTS_PER_BATCH, type AnalyticsMetric } from '../../lib/analytics-metrics';
import { lazySchema } from '../../lib/lazy-schema';

/** Batch size and interval are shared with the zod-free beacon. */
export { EVENTS_FLUSH_INTERVAL_MS, MAX_EVENTS_PER_BATCH } from '../../lib/analytics-metrics';

/** Metrics a browser reports: every analytics metric (worker/lib/analytics-metrics.ts). */
export const EVENT_TYPES = ANALYTICS_METRICS;
export type EventType = AnalyticsMetric;

/** Bodies above this many bytes are refused before parsing (50 events with uuids fit in ~5 KB). */
export const MAX_EVENTS_BODY_BYTES = 16 * 1024;

const Id = lazySchema(() =>
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Ogiltigt id'),
);

/** One event: a quiz occurrence (`q`) or a whole business (`v`, for the venue page view). */
export const EventSchema = lazySchema(() =>
  z
    .object({
      t: z.enum(EVENT_TYPES, { error: 'Okänd händelse' }).describe('Händelse'),
      q: Id.optional().describe('Quiz'),
      v: Id.optional().describe('Verksamhet'),
    })
    .strict()
    .refine((e) => (e.q ? !e.v : !!e.v), 'Ange antingen quiz eller verksamhet')
    .describe('Händelse'),
);
export type AnalyticsEvent = z.infer<typeof EventSchema>;

export const EventsBatchSchema = lazySchema(() =>
  z
    .object({
      events: z
        .array(EventSchema)
        .min(1, 'Minst en händelse')
        .max(MAX_EVENTS_PER_BATCH, `Högst ${MAX_EVENTS_PER_BATCH} händelser per anrop`)
        .describe('Händelser'),
    })
    .strict(),
);
export type EventsBatch = z.infer<typeof EventsBatchSchema>;
