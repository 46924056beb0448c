/**
 * SEAM (owned by the promotion work of issue 6): inside an expanded series the owner ticks occurrences,
 * picks Rekommenderat or Premium per occurrence, sees availability and the total, and presses
 * 'Gå till betalning'. Rendered by the owner's quiz list; replaced by the promotion feature.
 */
export interface PromoteSeriesPanelProps {
  occurrences: Array<{ id: string; date: string; startTime: string | null; promotion: 'premium' | 'recommended' | null }>;
  city: string;
  venueId: string;
}
export default function PromoteSeriesPanel(_props: PromoteSeriesPanelProps) {
  return null;
}
