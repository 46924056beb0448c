/**
 * What visitors' browsers count (issue 18): the one list shared by the `analytics_daily.metric` column,
 * the POST /api/events contract and the owner analytics screens. No dependencies, so the public bundle
 * and the schema can both import it.
 */
export const ANALYTICS_METRICS = [
  'impression',
  'detail_open',
  'venue_view',
  'click_website',
  'click_phone',
  'click_directions',
  'click_share',
  'calendar_add',
  'feed_subscribe',
  'follow',
  /** A view of a venue's results page (issue 46). */
  'results_view',
] as const;
export type AnalyticsMetric = (typeof ANALYTICS_METRICS)[number];

/** At most this many events per request (POST /api/events; the beacon batches to it). */
export const MAX_EVENTS_PER_BATCH = 50;
/** The beacon's interval between requests after the first of a page view. */
export const EVENTS_FLUSH_INTERVAL_MS = 10_000;
