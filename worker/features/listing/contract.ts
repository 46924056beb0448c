import * as z from 'zod';
import { lineText } from '../../lib/zod-text';

/**
 * GET /api/listing (spec 01 §4 "Listing filters"). Shared by the worker validator and the public pages.
 * Precedence of the selection modes: search term → selected date → specific weekday → 'all'.
 */
export const LISTING_PAGE_SIZE = 12;
export const LISTING_SEARCH_MAX = 100;
export const LISTING_MAX_PAGE = 500;

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const ListingQuerySchema = z.object({
  city: z.preprocess(emptyToUndefined, z.string().trim().toLowerCase().max(80, 'Staden är för lång').regex(/^[a-z0-9-]+$/, 'Ogiltig stad').optional()).describe('Stad'),
  weekday: z
    .preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .toLowerCase()
        .refine((v) => ['all', 'alla', 'mandag', 'måndag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lordag', 'lördag', 'sondag', 'söndag'].includes(v), 'Ogiltig veckodag')
        .optional(),
    )
    .describe('Veckodag'),
  date: z
    .preprocess(emptyToUndefined, z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Ogiltigt datum (ÅÅÅÅ-MM-DD)').refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'Ogiltigt datum').optional())
    .describe('Datum'),
  search: z.preprocess(emptyToUndefined, lineText().trim().max(LISTING_SEARCH_MAX, `Söktexten får vara högst ${LISTING_SEARCH_MAX} tecken`).optional()).describe('Sök'),
  page: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'Ogiltig sida' }).int('Ogiltig sida').min(1, 'Sidan måste vara minst 1').max(LISTING_MAX_PAGE, 'Ogiltig sida').default(1)).describe('Sida'),
});
export type ListingQuery = z.infer<typeof ListingQuerySchema>;

export type ListingTier = 'premium' | 'recommended' | 'standard';
export type ListingMode = 'search' | 'date' | 'weekday' | 'all';

/** One listed occurrence: everything a card, the detail dialog and the JSON-LD Event need. */
export interface ListingQuiz {
  id: string;
  date: string;
  /** HH:MM:SS or null (shown as 19:00). */
  startTime: string | null;
  title: string | null;
  description: string | null;
  category: string | null;
  categoryLabel: string;
  theme: string | null;
  quizmaster: string | null;
  teamSize: number | null;
  /** Whole SEK; null = free. */
  price: number | null;
  isRecurring: boolean;
  recurrencePattern: 'weekly' | 'biweekly' | null;
  isCancelled: boolean;
  tier: ListingTier;
  /** Belongs to the house account: an unclaimed business that can be taken over. */
  unclaimed: boolean;
  location: {
    id: string;
    name: string;
    address: string;
    city: string;
    citySlug: string;
    phone: string | null;
    website: string | null;
    latitude: number | null;
    longitude: number | null;
  };
  venue: { id: string; name: string; slug: string; description: string | null; website: string | null };
}

export interface ListingResponse {
  items: ListingQuiz[];
  total: number;
  page: number;
  pageSize: number;
  hasMore: boolean;
  mode: ListingMode;
  /** Places with a listed quiz; counted only when the listing is limited to a city (the combined page shows it), else null. */
  venueCount: number | null;
  /** Stockholm date the answer was computed for. */
  today: string;
}

export interface CityOption {
  slug: string;
  name: string;
}
