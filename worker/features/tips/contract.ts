/**
 * "Tipsa om ett quiz" (issue 31.1): the public form's contract, shared by the web form and the Worker.
 * Imports only zod (the text rules, the city rule and the quiz contract's date check); messages are Swedish and
 * name the field.
 */
import * as z from 'zod';
import { cityField } from '../../lib/city-field';
import { lineText, multiLineText } from '../../lib/zod-text';
import { isCalendarDate } from '../quizzes/contract';
import { lazySchema } from '../../lib/lazy-schema';

export const TIP_NAME_MAX = 120;
export const TIP_ADDRESS_MAX = 200;
export const TIP_LINK_MAX = 300;
export const TIP_MESSAGE_MAX = 1000;
export const TIP_REASON_MAX = 500;
/** A tip's date may lie at most this many days ahead. */
export const TIP_MAX_DAYS_AHEAD = 365;

const required = (max: number, label: string, message: string) =>
  lineText()
    .pipe(z.string().trim().min(1, message).max(max, `${label} får vara högst ${max} tecken`))
    .describe(label);

/** POST /api/tips — the public form. `company` is the honeypot (a hidden field people leave empty). */
export const TipSchema = lazySchema(() =>
  z
    .object({
      venueName: required(TIP_NAME_MAX, 'Ställe', 'Ange ställets namn'),
      address: required(TIP_ADDRESS_MAX, 'Adress', 'Ange en adress'),
      city: cityField('Stad', 'Ange en stad'),
      /** ISO weekday 1–7 for a weekly quiz, or null with a date. */
      weekday: z
        .number({ error: 'Välj en veckodag' })
        .int()
        .min(1, 'Välj en veckodag')
        .max(7, 'Välj en veckodag')
        .nullish()
        .transform((v) => v ?? null)
        .describe('Veckodag'),
      date: z
        .union([z.literal(''), z.string().refine(isCalendarDate, 'Ange ett giltigt datum (ÅÅÅÅ-MM-DD)')])
        .nullish()
        .transform((v) => (v ? v : null))
        .describe('Datum'),
      startTime: z
        .string({ error: 'Ange en starttid' })
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Ange en giltig starttid (TT:MM)')
        .describe('Starttid'),
      link: z
        .union([
          z.literal(''),
          lineText().pipe(
            z
              .string()
              .trim()
              .max(TIP_LINK_MAX, `Länken får vara högst ${TIP_LINK_MAX} tecken`)
              .regex(/^https?:\/\/[^\s/]+\.[^\s]+$/i, 'Ange en webbadress som börjar med http:// eller https://'),
          ),
        ])
        .nullish()
        .transform((v) => (v ? v : null))
        .describe('Länk'),
      message: multiLineText()
        .pipe(z.string().trim().max(TIP_MESSAGE_MAX, `Fritexten får vara högst ${TIP_MESSAGE_MAX} tecken`))
        .nullish()
        .transform((v) => (v ? v : null))
        .describe('Fritext'),
      email: z
        .union([z.literal(''), z.email({ error: 'Ogiltig e-postadress' }).max(254, 'Ogiltig e-postadress')])
        .nullish()
        .transform((v) => (v ? v.toLowerCase() : null))
        .describe('E-post'),
      /** Honeypot: hidden from people; anything in it marks a bot (answered as a success, nothing stored). */
      company: z.string().max(200).optional().describe('Företag'),
      /** The human check's token (Turnstile's `cf-turnstile-response`). */
      humanToken: z.string({ error: 'Bekräfta att du är en människa' }).max(4096).default('').describe('Mänsklig kontroll'),
    })
    .superRefine((v, ctx) => {
      if (v.weekday === null && v.date === null) ctx.addIssue({ code: 'custom', path: ['weekday'], message: 'Välj en veckodag eller ange ett datum' });
      if (v.weekday !== null && v.date !== null)
        ctx.addIssue({ code: 'custom', path: ['date'], message: 'Välj antingen en veckodag eller ett datum, inte båda' });
    }),
);
export type TipInput = z.input<typeof TipSchema>;
export type TipData = z.output<typeof TipSchema>;

export const TipIdParamSchema = lazySchema(() => z.object({ id: z.string().trim().min(1, 'Ange ett tips-id').max(64, 'Ogiltigt tips-id').describe('id') }));

export const RejectTipSchema = lazySchema(() =>
  z.object({
    reason: lineText()
      .pipe(z.string().trim().min(1, 'Ange en anledning').max(TIP_REASON_MAX, `Anledningen får vara högst ${TIP_REASON_MAX} tecken`))
      .describe('Anledning'),
  }),
);

/** A page cursor: the last row's created_at and id (`<ISO instant>_<id>`), as the list answered it. */
const TIP_CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z)_([A-Za-z0-9_-]{1,64})$/;
export const tipCursor = (t: { createdAt: string; id: string }) => `${t.createdAt}_${t.id}`;
export function parseTipCursor(cursor: string): { createdAt: string; id: string } {
  const m = TIP_CURSOR.exec(cursor);
  return { createdAt: m?.[1] ?? '', id: m?.[2] ?? '' };
}

export const TipListQuerySchema = lazySchema(() =>
  z.object({
    status: z.enum(['pending', 'approved', 'rejected'], { error: 'Ogiltig status' }).default('pending').describe('Status'),
    /** Oldest first by default: the first, real tip is not buried under later ones (issue 43.7). */
    order: z.enum(['oldest', 'newest'], { error: 'Ordning: välj äldst eller nyast först' }).default('oldest').describe('Ordning'),
    cursor: z.string().max(120, 'Sida: ogiltig sidmarkör').regex(TIP_CURSOR, 'Sida: ogiltig sidmarkör').optional().describe('Sida'),
  }),
);
export type TipListQuery = z.output<typeof TipListQuerySchema>;

/** One tip as the superadmin sees it. `hasEmail` only: the address itself is never shown. */
export interface AdminTip {
  id: string;
  venueName: string;
  address: string;
  city: string;
  weekday: number | null;
  date: string | null;
  startTime: string;
  link: string | null;
  message: string | null;
  hasEmail: boolean;
  status: 'pending' | 'approved' | 'rejected';
  rejectReason: string | null;
  near: { venueId: string | null; note: string } | null;
  venue: { id: string; slug: string; citySlug: string } | null;
  /** How many times this tip was sent (identical and near-identical tips fold into the first, issue 43.7). */
  seenCount: number;
  /** When it was last sent again (null: once). */
  lastSeenAt: string | null;
  createdAt: string;
  answeredAt: string | null;
}

export interface AdminTipList {
  items: AdminTip[];
  pending: number;
  /** The next page's cursor (`?cursor=`), or null on the last page. */
  nextCursor: string | null;
}
