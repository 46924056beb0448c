import * as z from 'zod';
import { cityField, optionalCityField } from '../../lib/city-field';
import type { LocationRow } from '../../db/schema';
import type { PlaceShape } from '../../db/shapes';
import { textField } from '../../lib/zod-text';
import { lazySchema } from '../../lib/lazy-schema';

/**
 * Businesses (venues), places (locations) and the owner's contact profile (spec 02 §3, §5).
 * Shared by the owner screens and the Worker validators. Optional text fields accept '' and store null.
 */
export const VENUE_NAME_MAX = 120;
export const VENUE_DESCRIPTION_MAX = 2000;
export const ADDRESS_MAX = 200;
export const PHONE_MAX = 40;
export const WEBSITE_MAX = 300;
export const PERSON_NAME_MAX = 80;
/**
 * Places one business may have (issue 43.1): a chain's public page, feed, card and embed read every place, so
 * their cost grows with it; 50 covers the largest Swedish quiz chains with room to spare.
 */
export const MAX_PLACES_PER_VENUE = 50;
/** Venue lookup on the dashboard: 3 attempts, 1 s apart (spec 02 §2.1, §9). */
export const VENUE_LOOKUP_ATTEMPTS = 3;
export const VENUE_LOOKUP_DELAY_MS = 1000;

/** Required one-line text (the shared text rules: lib/zod-text, also used by the CSV import). */
const required = (label: string, max: number, missing: string) => textField(label, max, { missing });

/** Optional text: '' / null / missing → null. One line unless `multiLine` (descriptions). */
const optionalText = (label: string, max: number, multiLine = false) =>
  textField(label, max, { multiLine })
    .nullish()
    .transform((v) => (v ? v : null))
    .describe(label);

const PHONE_RE = /^[0-9+()\-\s]{5,}$/;
export const optionalPhone = (label = 'Telefon') =>
  textField(label, PHONE_MAX)
    .refine((v) => v === '' || PHONE_RE.test(v), 'Ogiltigt telefonnummer')
    .nullish()
    .transform((v) => (v ? v : null))
    .describe(label);

/** A website; 'www.puben.se' is accepted and stored as 'https://www.puben.se'. */
export function normalizeWebsite(value: string): string | null {
  const v = value.trim();
  if (!v) return null;
  const withScheme = /^https?:\/\//i.test(v) ? v : `https://${v}`;
  try {
    const url = new URL(withScheme);
    if (!url.hostname.includes('.') || /\s/.test(v)) return null;
    const href = url.toString();
    return url.pathname === '/' && !url.search && !url.hash ? href.slice(0, -1) : href;
  } catch {
    return null;
  }
}
export const optionalWebsite = lazySchema(() =>
  textField('Webbplats', WEBSITE_MAX)
    .refine((v) => v === '' || normalizeWebsite(v) !== null, 'Ogiltig webbadress')
    .nullish()
    .transform((v) => (v ? normalizeWebsite(v) : null))
    .describe('Webbplats'),
);

/**
 * Sweden's bounding box with a small margin (Smygehuk 55.34° N, Treriksröset 69.06° N, Koster 10.96° E,
 * Haparanda 24.17° E): a place's coordinates must lie inside it. Also the near mode's range.
 */
export const SWEDEN_BOUNDS = { minLat: 55, maxLat: 69.2, minLng: 10.5, maxLng: 24.2 } as const;
const sv = (n: number) => String(n).replace('.', ',');
/** The Swedish message for a coordinate outside Sweden, or null when inside (shared with the CSV import). */
export function outsideSwedenMessage(label: string, axis: 'lat' | 'lng', value: number): string | null {
  const [min, max] = axis === 'lat' ? [SWEDEN_BOUNDS.minLat, SWEDEN_BOUNDS.maxLat] : [SWEDEN_BOUNDS.minLng, SWEDEN_BOUNDS.maxLng];
  return value < min || value > max ? `${label} ligger utanför Sverige (${sv(min)}–${sv(max)})` : null;
}

const coordinate = (label: string, limit: number) =>
  z
    .preprocess(
      (v) => (v === '' || v === null || v === undefined ? null : typeof v === 'string' ? Number(v.replace(',', '.')) : v),
      z
        .number({ error: `${label} måste vara ett tal` })
        .min(-limit, `${label} måste vara mellan -${limit} och ${limit}`)
        .max(limit, `${label} måste vara mellan -${limit} och ${limit}`)
        .nullable(),
    )
    .describe(label);

export const VenueNameSchema = required('Namn', VENUE_NAME_MAX, 'Ange verksamhetens namn');
/** A place's address and town (the place form, the register form and the CSV import). */
export const AddressSchema = required('Adress', ADDRESS_MAX, 'Ange adress');
/** A known Swedish town, stored in the gazetteer's spelling (lib/city-field, issue 43.6). */
export const CitySchema = lazySchema(() => cityField('Stad', 'Ange stad'));

/** POST /api/owner/venues: the dashboard's create-business dialog (name only). */
export const CreateVenueSchema = lazySchema(() => z.object({ name: VenueNameSchema }));
export type CreateVenueInput = z.input<typeof CreateVenueSchema>;

/** PATCH /api/owner/venues/:id: the 'Verksamhet' tab. */
export const UpdateVenueSchema = lazySchema(() =>
  z.object({
    name: VenueNameSchema,
    description: optionalText('Beskrivning', VENUE_DESCRIPTION_MAX, true),
    address: optionalText('Adress', ADDRESS_MAX),
    city: optionalCityField('Stad'),
    phone: optionalPhone(),
    website: optionalWebsite,
    isPublic: z.boolean({ error: 'Ange om verksamheten ska vara synlig' }).describe('Synlig för besökare'),
  }),
);
export type UpdateVenueInput = z.input<typeof UpdateVenueSchema>;
export type UpdateVenueData = z.output<typeof UpdateVenueSchema>;

/** POST /api/owner/venues/register: the /admin/create-venue form (spec 02 §2.5, §5). */
export const RegisterVenueSchema = lazySchema(() =>
  z.object({
    name: VenueNameSchema,
    address: AddressSchema,
    city: CitySchema,
    phone: optionalPhone(),
    description: optionalText('Beskrivning', VENUE_DESCRIPTION_MAX, true),
  }),
);
export type RegisterVenueInput = z.input<typeof RegisterVenueSchema>;
export type RegisterVenueData = z.output<typeof RegisterVenueSchema>;

/** A place: POST /api/owner/venues/:id/locations and PATCH /api/owner/locations/:id. */
export const LocationSchema = lazySchema(() =>
  z
    .object({
      name: required('Namn', VENUE_NAME_MAX, 'Ange platsens namn'),
      address: AddressSchema,
      city: CitySchema,
      phone: optionalPhone(),
      website: optionalWebsite,
      latitude: coordinate('Latitud', 90).optional(),
      longitude: coordinate('Longitud', 180).optional(),
    })
    .superRefine((v, ctx) => {
      const hasLat = v.latitude != null;
      const hasLng = v.longitude != null;
      if (hasLat !== hasLng) {
        ctx.addIssue({ code: 'custom', path: [hasLat ? 'longitude' : 'latitude'], message: 'Ange både latitud och longitud, eller ingen av dem' });
      }
      const latMsg = v.latitude != null ? outsideSwedenMessage('Latitud', 'lat', v.latitude) : null;
      if (latMsg) ctx.addIssue({ code: 'custom', path: ['latitude'], message: latMsg });
      const lngMsg = v.longitude != null ? outsideSwedenMessage('Longitud', 'lng', v.longitude) : null;
      if (lngMsg) ctx.addIssue({ code: 'custom', path: ['longitude'], message: lngMsg });
    }),
);
export type LocationInput = z.input<typeof LocationSchema>;
export type LocationData = z.output<typeof LocationSchema>;

/** GET/PUT /api/owner/profile: the 'Kontakt' tab. Empty fields are stored as null (spec 02 §3). */
export const ProfileSchema = lazySchema(() =>
  z.object({
    firstName: optionalText('Förnamn', PERSON_NAME_MAX),
    lastName: optionalText('Efternamn', PERSON_NAME_MAX),
    phone: optionalPhone(),
  }),
);
export type ProfileInput = z.input<typeof ProfileSchema>;

export const DashboardQuerySchema = lazySchema(() =>
  z.object({
    venueId: z.string().trim().min(1).max(64).optional().describe('Verksamhet'),
  }),
);
export const IdParamSchema = lazySchema(() => z.object({ id: z.string().min(1).max(64).describe('Id') }));

// ---------------------------------------------------------------- responses

export interface OwnerVenue {
  id: string;
  userId: string;
  name: string;
  slug: string;
  description: string | null;
  address: string | null;
  city: string | null;
  phone: string | null;
  website: string | null;
  isPublic: boolean;
  createdAt: string;
}
export interface OwnerPlace extends PlaceShape, Pick<LocationRow, 'venueId'> {
  totalQuizzes: number;
  upcomingQuizzes: number;
  /** Confirmed followers of the place (issue 17); on the dashboard only. */
  followers?: number;
}
/** GET /api/owner/dashboard[?venueId=] */
export interface DashboardResponse {
  venue: OwnerVenue | null;
  places: OwnerPlace[];
  hasQuizzes: boolean;
  /** Every business the signed-in user owns (for switching when there is more than one). */
  ownVenues: Array<{ id: string; name: string }>;
  /** True when the venue belongs to someone else and the viewer is a superadmin. */
  viewingAsSuperadmin: boolean;
}
export interface ProfileResponse {
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
}
/** POST /api/owner/venues/register */
export interface RegisterVenueResponse {
  venue: OwnerVenue;
  locationId: string;
}
/** POST /api/owner/venues/:id/locations and PATCH /api/owner/locations/:id */
export interface LocationSavedResponse {
  id: string;
}
/** DELETE /api/owner/locations/:id */
export interface DeleteLocationResponse {
  deletedQuizzes: number;
}
