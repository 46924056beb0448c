import { quizFiltersFromUrl } from '../../../worker/lib/quiz-filters';
import { searchLabel as labelOfSearch } from '../../../worker/lib/search-label';

/**
 * "Stockholm · tisdag · ”musik” · Gratis" for listing filters that can be followed, or null (nothing to follow;
 * dates are not followed). The name itself is built by worker/lib/search-label.ts, the one home the server shares.
 */
export function searchLabel(
  f: {
    city: string;
    weekday: string;
    search: string;
    price?: string | undefined;
    team?: string | undefined;
    category?: string | undefined;
    time?: string | undefined;
    sprak?: string | undefined;
  },
  cities: Array<{ slug: string; name: string }>,
): string | null {
  const cityName = f.city ? (cities.find((c) => c.slug === f.city)?.name ?? f.city) : undefined;
  return labelOfSearch({ cityName, weekday: f.weekday, search: f.search, ...quizFiltersFromUrl(f) });
}
