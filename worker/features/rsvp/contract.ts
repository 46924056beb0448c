/**
 * "Vi kommer" (issue 47): RSVPs to one occurrence, its capacity in tables and the waitlist. Shared by the
 * Worker's validators and the web dialog (zod only; no bindings).
 */
import * as z from 'zod';
import { EmailSchema } from '../auth/contract';
import { lineText } from '../../lib/zod-text';
import { lazySchema } from '../../lib/lazy-schema';

export const TEAM_SIZE_MIN = 1;
export const TEAM_SIZE_MAX = 8;
/** Most tables an owner can give (a big pub's quiz night is far below). */
export const CAPACITY_MAX = 500;
/** The double opt-in link is valid this long and only once. */
export const RSVP_CONFIRM_TTL_S = 48 * 3600;
/** An offered table is held this long, and never later than OFFER_CLOSES_BEFORE_MS before the start. */
export const OFFER_HOLD_MS = 2 * 3600_000;
export const OFFER_CLOSES_BEFORE_MS = 3600_000;
/** Reminders: by mail 24 h before the start, by push 2 h before (each once per RSVP). */
export const MAIL_REMINDER_BEFORE_MS = 24 * 3600_000;
export const PUSH_REMINDER_BEFORE_MS = 2 * 3600_000;
/** An RSVP's address is deleted this many days after the night. */
export const RSVP_EMAIL_RETENTION_DAYS = 30;

/** `capacityTables` on the owner's quiz and series edits: a whole number of tables, or null for no limit. */
export const CapacityTablesSchema = lazySchema(() =>
  z
    .number({ error: 'Antal bord måste vara ett heltal eller tomt' })
    .int('Antal bord måste vara ett heltal')
    .min(1, 'Antal bord måste vara minst 1')
    .max(CAPACITY_MAX, `Antal bord får vara högst ${CAPACITY_MAX}`)
    .nullable()
    .describe('Antal bord'),
);

/** POST /api/quizzes/:quizId/rsvp — e-mail required for visitors (the service checks), not for a signed-in user. */
export const RsvpRequestSchema = lazySchema(() =>
  z.object({
    email: EmailSchema.optional(),
    teamSize: z
      .number({ error: `Lagstorlek måste vara ett heltal från ${TEAM_SIZE_MIN} till ${TEAM_SIZE_MAX}` })
      .int(`Lagstorlek måste vara ett heltal från ${TEAM_SIZE_MIN} till ${TEAM_SIZE_MAX}`)
      .min(TEAM_SIZE_MIN, `Lagstorlek måste vara minst ${TEAM_SIZE_MIN}`)
      .max(TEAM_SIZE_MAX, `Lagstorlek får vara högst ${TEAM_SIZE_MAX}`)
      .describe('Lagstorlek'),
  }),
);
export type RsvpRequest = z.infer<typeof RsvpRequestSchema>;

export const QuizIdParamSchema = lazySchema(() => z.object({ quizId: lineText().min(1).max(64).describe('Quiz') }));

/** PUT /api/owner/rsvp/quizzes/:quizId/settings — for the quiz's series (or the single quiz). */
export const RsvpSettingsSchema = lazySchema(() =>
  z
    .object({
      rsvpOff: z.boolean({ error: 'Anmälan måste vara på eller av' }).describe('Anmälan av'),
      bookingUrl: lineText()
        .trim()
        .max(500, 'Bokningslänken får vara högst 500 tecken')
        .refine((v) => v === '' || /^https:\/\/[^\s/]+\.[^\s]+$/.test(v), 'Bokningslänken måste börja med https://')
        .nullish()
        .transform((v) => v || null)
        .describe('Bokningslänk'),
      bookingPhone: lineText()
        .trim()
        .max(30, 'Telefonnumret får vara högst 30 tecken')
        .refine((v) => v === '' || /^\+?[0-9 ()-]{5,30}$/.test(v), 'Telefonnumret får bara innehålla siffror, mellanslag, +, - och parenteser')
        .nullish()
        .transform((v) => v || null)
        .describe('Telefon för bokning'),
    })
    .strict(),
);
export type RsvpSettingsInput = z.infer<typeof RsvpSettingsSchema>;

/** GET /api/quizzes/:quizId/rsvp: confirmed teams and seats; tables left and full are null without a capacity. */
export interface RsvpCountsResponse {
  teams: number;
  seats: number;
  tablesLeft: number | null;
  full: boolean | null;
  waitlist: number;
  /** How the page takes RSVPs: here, an external booking (link/phone), or not at all. */
  mode: 'rsvp' | 'external' | 'off';
  bookingUrl: string | null;
  bookingPhone: string | null;
}

/** The answer to a visitor's RSVP: the same whatever the address already did (enumeration-safe). */
export const RSVP_PENDING_MESSAGE = 'Kolla din e-post: bekräfta med länken i mejlet så räknas ert lag.';

/** One team in the owner's view (team size; the address only where the owner needs to reach the team). */
export interface OwnerRsvpRow {
  id: string;
  state: 'pending' | 'confirmed' | 'queued' | 'offered' | 'cancelled';
  teamSize: number;
  /** Confirmed, queued and offered teams only (the owner may need to reach them); null otherwise or once deleted. */
  email: string | null;
  at: string;
}

/** GET /api/owner/rsvp/quizzes/:quizId */
export interface OwnerRsvpView {
  quizId: string;
  date: string;
  capacityTables: number | null;
  teams: number;
  seats: number;
  tablesLeft: number | null;
  waitlist: number;
  confirmed: OwnerRsvpRow[];
  queue: OwnerRsvpRow[];
  cancelled: OwnerRsvpRow[];
  settings: { rsvpOff: boolean; bookingUrl: string | null; bookingPhone: string | null };
}
