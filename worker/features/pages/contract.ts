/**
 * The pages feature's contract with web/pages (issue 28.6: the Worker no longer imports web/pages/*): the
 * data a server-rendered public page is rendered from, and the texts both sides print. The Worker builds
 * the data, renders <PublicApp> with it, and embeds it once in the HTML (#__DATA__) so hydration does not
 * refetch. Only types are imported from other contracts and no zod here (the public bundle imports it;
 * web/pages/types.ts re-exports it).
 */
import type { CityOption, ListingQuiz, ListingResponse } from '../listing/contract';
import type { LeaguePageData, ResultsPageData, TeamPageData } from '../results/contract';

export type { CityOption, LeaguePageData, ListingQuiz, ListingResponse, ResultsPageData, TeamPageData };

/** Filter state as it appears in the URL query (spec 01 §4). weekday: '' | 'all' | ASCII weekday slug. */
export interface ListingFilters {
  city: string;
  weekday: string;
  date: string;
  search: string;
  /** Near mode: "LAT,LNG" (3 decimals) — sorts by distance and replaces the city; absent otherwise. */
  near?: string | undefined;
  /** Near mode radius in km ("10" when absent). */
  radius?: string | undefined;
  /** Quiz filters (issue 20), URL values; absent or '' = every quiz. */
  price?: string | undefined;
  team?: string | undefined;
  category?: string | undefined;
  time?: string | undefined;
  /** Issue 31.3: the quiz's language (svenska | engelska). */
  sprak?: string | undefined;
  /** Issue 48: a quizmaster's profile slug. */
  quizmaster?: string | undefined;
}

/** The quiz filters' keys in ListingFilters and in the URL. */
export const QUIZ_FILTER_KEYS = ['price', 'team', 'category', 'time', 'sprak', 'quizmaster'] as const;

export interface WeekdayRef {
  slug: string;
  name: string;
  label: string;
}

/** The main listing and its variants: start page, /stad/{city}, /legacy, city page, weekday page. */
export interface ListingPageData {
  kind: 'listing';
  variant: 'home' | 'legacy' | 'city' | 'weekday';
  today: string;
  /** The filters this page was rendered with. */
  filters: ListingFilters;
  /** City page: the locked city (display name from the data). */
  city?: CityOption | undefined;
  /** Weekday page: the locked weekday. */
  weekday?: WeekdayRef | undefined;
  /** The city select's options: every city, or (citiesComplete false) the largest ones and the selected one. */
  cities: CityOption[];
  /** false: `cities` is a part of the list; the select loads the rest (GET /api/listing/cities) when opened. */
  citiesComplete?: false | undefined;
  result: ListingResponse;
  /** Raster tile URL template of the map (MAP_TILE_URL); no map toggle without it. */
  mapTileUrl?: string | undefined;
  /** Labels of URL filters that were not valid and were ignored ("Pris"); shown as a notice. */
  ignoredFilters?: string[] | undefined;
}

/** /quiz/{city}/{weekday} and /quiz/{city}-{weekday}. */
export interface CombinedPageData {
  kind: 'combined';
  today: string;
  city: CityOption;
  weekday: WeekdayRef;
  /** The quiz filters from the URL (issue 20); city and weekday are the page's own. */
  filters?: ListingFilters | undefined;
  ignoredFilters?: string[] | undefined;
  result: ListingResponse;
  mapTileUrl?: string | undefined;
}

export interface VenueStats {
  upcoming: number;
  recurring: number;
  free: number;
  quizmasters: number;
}

/** /quiz/{city}/{venue}: the public venue page (spec 02 §2.8). */
export interface VenuePageData {
  kind: 'venue';
  today: string;
  city: CityOption;
  venue: {
    id: string;
    name: string;
    slug: string;
    description: string | null;
    address: string | null;
    phone: string | null;
    website: string | null;
    unclaimed: boolean;
    /** The place's own coordinates (its map and directions); null when the owner has not set them. */
    position?: { lat: number; lng: number } | null;
    /** "Senast bekräftad {datum}", or the house account's "Uppgifter från offentliga källor" (issue 20 §3). */
    freshness: { confirmedOn: string | null; publicSources: boolean };
  };
  recurring: ListingQuiz[];
  specials: ListingQuiz[];
  stats: VenueStats;
  mapTileUrl?: string | undefined;
  /** The latest night's winner (issue 46), linking to the results page; null when no results are posted. */
  lastWinner?: { team: string; slug: string; date: string } | null;
}

export interface NotFoundPageData {
  kind: 'notFound';
  /** Extra explanation above the 404 page, e.g. 'Verksamheten hittades inte' (spec 02 §8 'Venue hittades inte', in Swedish: issue 29.8). */
  message?: string | undefined;
}
/** /annonsera: how paid placement works, its prices and how the listing is ranked (issue 18). */
export interface AdvertisePageData {
  kind: 'advertise';
  tiers: Array<{
    id: 'premium' | 'recommended';
    label: string;
    weeklyPriceSek: number;
    maxPerDay: number;
    options: Array<{ weeks: number; priceSek: number }>;
  }>;
  /** 'fallback': Stripe could not be read or is not configured; the ordinary prices are shown. */
  priceSource: 'live' | 'fallback';
  volumeDiscountPercent: number;
  volumeDiscountMinWeeks: number;
}
/** /quizmaster/{slug} (issue 48): the profile and the next quiz of each series or single quiz it leads. */
export interface QuizmasterPageData {
  kind: 'quizmaster';
  today: string;
  profile: { id: string; name: string; slug: string; bio: string | null; photoUrl: string | null };
  upcoming: ListingQuiz[];
}
export type PublicPageData =
  | ListingPageData
  | CombinedPageData
  | VenuePageData
  | NotFoundPageData
  | AdvertisePageData
  | QuizmasterPageData
  | ResultsPageData
  | TeamPageData
  | LeaguePageData;

/** The FAQ of a combined city + weekday page: shown on the page and, the same text, in its FAQPage JSON-LD. */
export function combinedFaq(city: string, weekday: string): Array<{ q: string; a: string }> {
  return [
    {
      q: `Behöver man boka bord till quiz på ${weekday} i ${city}?`,
      a: 'Det beror på stället, men på populära quiz blir det ofta fullt. Boka gärna bord i förväg, särskilt om ni är ett stort lag.',
    },
    {
      q: 'Vad kostar det att vara med?',
      a: 'Många quiz är gratis, andra tar en mindre avgift per person. Priset står på varje quiz – står det Gratis kostar det inget, och står det ”Pris ej angivet” har ingen uppgett priset ännu.',
    },
    { q: 'Kan jag komma ensam?', a: 'Absolut. Fråga quizmastern eller personalen – ofta finns det lag som gärna tar emot en extra spelare.' },
    {
      q: `Vilka barer har quiz på ${weekday} i ${city}?`,
      a: `Listan på den här sidan visar alla ställen i ${city} med quiz på ${weekday}, uppdaterad löpande.`,
    },
  ];
}
