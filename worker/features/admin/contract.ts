import * as z from 'zod';
import { textField } from '../../lib/zod-text';
import { lazySchema } from '../../lib/lazy-schema';

/** Superadmin panel (spec 02 §2.7, §9): page size 10. */
export const VENUE_PAGE_SIZE = 10;
/** First N places and upcoming quizzes shown in a card's details (spec 02 §9). */
export const DETAIL_PREVIEW = 3;
export const FEEDBACK_PAGE_SIZE = 20;
export const VENUE_NAME_MAX = 120;

/**
 * Swedish sort/search key; mirrors the generated column venues.name_sort (worker/db/schema.ts):
 * ASCII lower-case, å → '{', ä/æ → '|', ö/ø → '}' (the characters after 'z'), é → e, ü → y.
 */
export function swedishSortKey(s: string): string {
  return s
    .trim()
    .replace(/[åÅ]/g, '{')
    .replace(/[äÄæÆ]/g, '|')
    .replace(/[öÖøØ]/g, '}')
    .replace(/[éÉ]/g, 'e')
    .replace(/[üÜ]/g, 'y')
    .replace(/[A-Z]/g, (c) => c.toLowerCase());
}

export const VenueListQuerySchema = lazySchema(() =>
  z.object({
    q: textField('Sökningen', 100).optional().default('').describe('Sök'),
    offset: z.coerce.number({ error: 'Ogiltig position' }).int().min(0).max(1_000_000).optional().default(0).describe('Position'),
    limit: z.coerce.number().int().min(1).max(50).optional().default(VENUE_PAGE_SIZE).describe('Antal'),
  }),
);

export const CreateVenueSchema = lazySchema(() =>
  z.object({
    name: textField('Namnet', VENUE_NAME_MAX, { missing: 'Ange ett namn' }).describe('Namn'),
    ownerEmail: z
      .union([z.literal(''), z.email({ error: 'Ogiltig e-postadress' }).max(254)])
      .optional()
      .describe('Ägarens e-post'),
  }),
);
export type CreateVenueInput = z.infer<typeof CreateVenueSchema>;

export const IdParamSchema = lazySchema(() => z.object({ id: z.string().trim().min(1).max(100).describe('Id') }));

export const FeedbackListQuerySchema = lazySchema(() =>
  z.object({
    offset: z.coerce.number().int().min(0).max(1_000_000).optional().default(0).describe('Position'),
  }),
);
export const FeedbackHandledSchema = lazySchema(() =>
  z.object({
    handled: z.boolean({ error: 'Ange om feedbacken är hanterad' }).describe('Hanterad'),
  }),
);

export const FixTakeoverSchema = lazySchema(() =>
  z
    .object({
      userId: z.string().trim().min(1).max(100).optional().describe('Användare'),
      email: z.email({ error: 'Ogiltig e-postadress' }).max(254).optional().describe('E-post'),
      venueId: z.string().trim().min(1).max(100).optional().describe('Verksamhet'),
    })
    .refine((v) => !!v.userId || !!v.email, { message: 'Ange användare eller e-post', path: ['userId'] }),
);

// ---------------------------------------------------------------- responses

export interface AdminPlace {
  id: string;
  name: string;
  address: string;
  city: string;
}
export interface AdminQuiz {
  id: string;
  date: string;
  startTime: string | null;
  category: string | null;
  theme: string | null;
  placeName: string;
}
export interface AdminVenue {
  id: string;
  name: string;
  description: string | null;
  city: string | null;
  userId: string;
  ownerEmail: string;
  /** Dummy = owned by the viewer or the house account; otherwise Real (spec 02 §6). */
  kind: 'dummy' | 'real';
  ownedByViewer: boolean;
  ownedByHouse: boolean;
  placesCount: number;
  upcomingCount: number;
  places: AdminPlace[];
  upcomingQuizzes: AdminQuiz[];
}
export interface AdminVenueList {
  success: true;
  data: { venues: AdminVenue[]; matched: number; total: number; offset: number; pageSize: number };
}
export interface AdminFeedback {
  id: string;
  category: string;
  title: string;
  description: string;
  senderEmail: string | null;
  createdAt: string;
  handledAt: string | null;
  /** A "Stämmer inte?" report's quiz (issue 20); null for ordinary feedback or a deleted quiz. */
  quizId: string | null;
}
/** GET /api/admin/feedback?offset= */
export interface AdminFeedbackList {
  items: AdminFeedback[];
  total: number;
  open: number;
  offset: number;
  pageSize: number;
}
/** POST /api/admin/venues */
export interface AdminVenueCreated {
  venue: { id: string; name: string };
  ownerEmail: string | null;
}
/** DELETE /api/admin/users/:id */
export interface DeleteUserResponse {
  deleted: true;
  email: string;
}
/** GET /api/admin/takeover-issues */
export interface TakeoverIssuesResponse {
  issues: Array<{ userId: string; email: string; venueId: string; venueName: string | null; problems: string[] }>;
}
/** POST /api/admin/takeover-issues/fix */
export interface FixTakeoverResponse {
  success: boolean;
  message: string;
  fixed: string[];
  errors: string[];
}
