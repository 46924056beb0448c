/**
 * Follows (issue 17): follow a place or a saved listing search. Shared by the worker validators and the
 * follow dialogs in web/components/follows (zod only).
 */
import * as z from 'zod';
import { ListingQuerySchema } from '../listing/contract';
import { EmailSchema } from '../auth/contract';
import { lineText } from '../../lib/zod-text';
import { hasQuizFilters, type QuizFilters } from '../../lib/quiz-filters';
import { isPushServiceEndpoint } from '../../lib/push-endpoint';
import { lazySchema } from '../../lib/lazy-schema';

/** At most this many follows per address or account: the insert statement (queries.ts) enforces it, the refusal quotes it. */
export const MAX_FOLLOWS_PER_ADDRESS = 50;
/** The double opt-in link is valid this long and only once. */
export const CONFIRM_LINK_TTL_S = 48 * 3600;

const ASCII_WEEKDAY: Record<string, string> = { måndag: 'mandag', lördag: 'lordag', söndag: 'sondag' };

/**
 * A saved search: the listing's own filters (city, weekday, text and the quiz filters: price, team size,
 * category, start time, language), validated by the listing contract and stored canonically (ASCII weekday slug,
 * keys in a fixed order, quiz filters only when set — so a search saved before they existed keeps its key)
 * so the same search is one follow. A date makes no sense to follow, and at least one filter is needed.
 */
export const SavedSearchSchema = lazySchema(() =>
  ListingQuerySchema.pick({
    city: true,
    weekday: true,
    search: true,
    price: true,
    team: true,
    category: true,
    time: true,
    sprak: true,
    quizmaster: true,
  })
    .refine(
      (f) => !!(f.city || (f.weekday && f.weekday !== 'all' && f.weekday !== 'alla') || f.search || hasQuizFilters(f) || f.quizmaster),
      'Välj minst en stad, veckodag, sökning eller ett filter att bevaka',
    )
    .describe('Sökning'),
);
export interface SavedSearch extends QuizFilters {
  city?: string | undefined;
  /** ASCII weekday slug. */
  weekday?: string | undefined;
  search?: string | undefined;
  /** Issue 48: a quizmaster's profile slug ("Följ" on /quizmaster/{slug}). */
  quizmaster?: string | undefined;
}

/** The stored form: ASCII weekday slug, no 'all', keys in a fixed order. */
export function normalizeSearch(f: z.infer<typeof SavedSearchSchema>): SavedSearch {
  const weekday = f.weekday && f.weekday !== 'all' && f.weekday !== 'alla' ? (ASCII_WEEKDAY[f.weekday] ?? f.weekday) : undefined;
  return {
    city: f.city || undefined,
    weekday,
    search: f.search || undefined,
    price: f.price,
    team: f.team,
    category: f.category,
    time: f.time,
    sprak: f.sprak,
    quizmaster: f.quizmaster,
  };
}

export function canonicalFilters(f: SavedSearch): string {
  // quizmaster last and only when set: a search saved before it existed keeps its key.
  const quiz = { price: f.price, team: f.team, category: f.category, time: f.time, sprak: f.sprak, quizmaster: f.quizmaster };
  return JSON.stringify({
    city: f.city ?? null,
    weekday: f.weekday ?? null,
    search: f.search ?? null,
    ...Object.fromEntries(Object.entries(quiz).filter(([, v]) => v !== undefined)),
  });
}

export const FollowEmailSchema = EmailSchema;

/** POST /api/follows: exactly one of placeId / filters; e-mail required for visitors (checked by the service). */
export const FollowRequestSchema = lazySchema(() =>
  z
    .object({
      placeId: lineText().trim().min(1, 'Ställe krävs').max(64, 'Okänt ställe').optional().describe('Ställe'),
      filters: SavedSearchSchema.optional(),
      email: FollowEmailSchema.optional(),
    })
    .refine((v) => (v.placeId ? 1 : 0) + (v.filters ? 1 : 0) === 1, { message: 'Ange antingen ett ställe eller en sökning', path: ['placeId'] }),
);
export type FollowRequest = z.infer<typeof FollowRequestSchema>;

export const FollowPatchSchema = lazySchema(() =>
  z
    .object({
      reminders: z.boolean({ error: 'Påminnelser måste vara på eller av' }).optional().describe('Påminnelser'),
      /** "Veckans resultat" (issue 46): a push when the place's night gets its results. */
      results: z.boolean({ error: 'Veckans resultat måste vara på eller av' }).optional().describe('Veckans resultat'),
    })
    .refine((v) => v.reminders !== undefined || v.results !== undefined, { message: 'Ange påminnelser eller Veckans resultat', path: ['reminders'] }),
);

export const FollowIdParamSchema = lazySchema(() => z.object({ id: lineText().min(1).max(64).describe('Bevakning') }));

/** One follow as shown in "Mina bevakningar". */
export interface FollowView {
  id: string;
  kind: 'place' | 'search';
  /** "Pubologi Söder, Stockholm" or "Stockholm · tisdag · ”musik”". */
  label: string;
  /** Page to open: the place's venue page or the listing with the filters. */
  url: string | null;
  reminders: boolean;
  /** "Veckans resultat" (issue 46; places only). */
  results: boolean;
  confirmed: boolean;
  createdAt: string;
}

/** The answer to a visitor's follow request: the same whatever the address already follows (enumeration-safe). */
export const FOLLOW_PENDING_MESSAGE = 'Kolla din e-post: om adressen kan ta emot fler bevakningar har vi skickat en länk för att bekräfta.';

/** GET /api/admin/follows/stats (superadmin): counts only, never addresses. */
export interface FollowStatsResponse {
  confirmed: number;
  pending: number;
  places: number;
  searches: number;
  confirmedAddresses: number;
  accounts: number;
  mailsLast7Days: number;
  deadLetters: number;
}

/**
 * GET /api/admin/dead-letters (superadmin): the newest 200 parked queue messages (their bodies hold ids; a push
 * message also its notice, public quiz text without personal data).
 */
export interface DeadLettersResponse {
  deadLetters: Array<{ id: string; queue: string; messageId: string; body: unknown; attempts: number; reason: string | null; createdAt: string }>;
}

/** At most this many browsers remind by push per follow; a new one beyond it replaces the longest-unrenewed (push.ts). */
export const MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW = 5;

/**
 * A browser's push subscription (PushSubscription.toJSON()) for "Påminn mig i telefonen" (issue 32): an https
 * endpoint on a browser's push service (issue 42.3: worker/lib/push-endpoint.ts, default port) and the browser's
 * keys (RFC 8291: P-256 public key, 16-byte auth secret, base64url).
 */
export const PushSubscriptionSchema = lazySchema(() =>
  z.object({
    endpoint: z
      .string({ error: 'Prenumerationens adress saknas' })
      .max(1000, { error: 'Prenumerationens adress är för lång' })
      .refine((v) => /^https:\/\/[\x21-\x2e\x30-\x7e]+\/[\x21-\x7e]*$/.test(v), {
        error: 'Prenumerationens adress måste vara en https://-adress utan blanksteg',
        abort: true,
      })
      .refine(isPushServiceEndpoint, {
        error: 'Prenumerationens adress måste höra till en webbläsares push-tjänst (Google, Mozilla, Microsoft eller Apple)',
      })
      .describe('Prenumeration'),
    keys: z.object(
      {
        p256dh: z
          .string({ error: 'Prenumerationens nyckel är ogiltig' })
          .regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/, { error: 'Prenumerationens nyckel är ogiltig' })
          .describe('Nyckel'),
        auth: z
          .string({ error: 'Prenumerationens nyckel är ogiltig' })
          .regex(/^[A-Za-z0-9_-]{21,24}={0,2}$/, { error: 'Prenumerationens nyckel är ogiltig' })
          .describe('Nyckel'),
      },
      { error: 'Prenumerationens nycklar saknas' },
    ),
  }),
);
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionSchema>;

/** "Sluta påminna" from a notification: the service worker names its own subscription. */
export const PushStopSchema = lazySchema(() => z.object({ endpoint: PushSubscriptionSchema.shape.endpoint }));
