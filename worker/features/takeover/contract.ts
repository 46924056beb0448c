import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema';

/** Takeover of an unclaimed business (spec 02 §2.9, §4.6). */
export const TakeoverSchema = lazySchema(() =>
  z.object({
    venueId: z.string({ error: 'Ange verksamheten' }).trim().min(1, 'Ange verksamheten').max(100).describe('Verksamhet'),
  }),
);
export type TakeoverInput = z.infer<typeof TakeoverSchema>;

export const TakeoverVenueParamSchema = lazySchema(() =>
  z.object({
    id: z.string().trim().min(1).max(100).describe('Verksamhet'),
  }),
);

/** Public answer of GET /api/takeover/venues/:id. */
export interface TakeoverVenueInfo {
  id: string;
  name: string;
  placesCount: number;
  /** Upcoming quizzes (date >= today, Stockholm). */
  quizzesCount: number;
  /** True while the business still belongs to the house account. */
  claimable: boolean;
}

/** Answer of POST /api/takeover. */
export interface TakeoverResult {
  venue: { id: string; name: string; userId: string };
  placesCount: number;
  quizzesCount: number;
}

export const TAKEOVER_TAKEN_MESSAGE =
  'Verksamheten har redan tagits över av någon annan. Ditt konto är skapat men har ingen verksamhet – kontakta support om verksamheten är din.';
export const TAKEOVER_NOT_FOUND_MESSAGE = 'Kunde inte hitta venue';
