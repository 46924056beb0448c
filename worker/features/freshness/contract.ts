/** Freshness (issue 20 §3): shared with the dashboard notice and the public detail dialog. */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema';

/** The first mail after this many days unconfirmed, then one per such step (the nightly job's steps). */
export const FRESHNESS_MAIL_DAYS = 30;
/** Hidden from the public listing after this many days unconfirmed. */
export const FRESHNESS_HIDE_AFTER_DAYS = 90;
/** The warning ("döljs snart") goes out after this many days unconfirmed (the second step). */
export const FRESHNESS_WARN_DAYS = 2 * FRESHNESS_MAIL_DAYS;
/** The steps (days since / FRESHNESS_MAIL_DAYS) at which the warning is sent and the business is hidden. */
export const FRESHNESS_WARN_STAGE = FRESHNESS_WARN_DAYS / FRESHNESS_MAIL_DAYS;
export const FRESHNESS_HIDE_STAGE = FRESHNESS_HIDE_AFTER_DAYS / FRESHNESS_MAIL_DAYS;

export const VenueIdParamSchema = lazySchema(() => z.object({ id: z.string().min(1).max(64) }));
export const QuizIdParamSchema = lazySchema(() => z.object({ id: z.string().min(1).max(64) }));

/** GET/POST /api/owner/freshness/:venueId[/confirm] */
export interface FreshnessResponse {
  /** Stockholm date of the last confirmation ("Senast bekräftad"). */
  confirmedOn: string;
  daysSince: number;
  /** House-account (unclaimed) business: "Uppgifter från offentliga källor", never hidden. */
  publicSources: boolean;
  /** Hidden from the public listing after FRESHNESS_HIDE_AFTER_DAYS unconfirmed, until confirmed. */
  hidden: boolean;
  /** Days until it would be hidden; null when hidden already or never hidden. */
  hideInDays: number | null;
}

/** GET /api/freshness/quiz/:id — the detail dialog's line. */
export interface PublicFreshnessResponse {
  confirmedOn: string | null;
  publicSources: boolean;
}

/** The display line lives in worker/lib/swedish.ts (freshnessLine): public pages import it without zod. */
export { freshnessLine } from '../../lib/swedish';
