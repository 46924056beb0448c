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
  // Issue 48.7: venue page visits from the owner kit, by the link's ?src= tag (poster, table tent, Instagram).
  'src_affisch',
  'src_bordsskylt',
  'src_instagram',
  /** A view of a venue's results page (issue 46). */
  'results_view',
] as const;
export type AnalyticsMetric = (typeof ANALYTICS_METRICS)[number];

/**
 * The venue page's `?src=` tags counted as their own source (issue 48.7): the owner kit's QR codes and links carry
 * them (worker/features/kit/contract.ts KIT_SOURCES). The beacon counts a venue view with one of these once more as
 * `src_<tag>`, under the same rule as every counter (docs/features/analytics-counting.md): no cookie, one a day.
 */
export const VISIT_SOURCES = ['affisch', 'bordsskylt', 'instagram'] as const;
export type VisitSource = (typeof VISIT_SOURCES)[number];
/** The metric of a `?src=` value, or null for any other value. */
export function sourceMetric(src: string | null | undefined): AnalyticsMetric | null {
  return src && (VISIT_SOURCES as readonly string[]).includes(src) ? (`src_${src}` as AnalyticsMetric) : null;
}

/** At most this many events per request (POST /api/events; the beacon batches to it). */
export const MAX_EVENTS_PER_BATCH = 50;
/** The beacon's interval between requests after the first of a page view. */
export const EVENTS_FLUSH_INTERVAL_MS = 10_000;
