/** Freshness (issue 20 §3): shared with the dashboard notice and the public detail dialog. */
import { z } from 'zod';

export const FRESHNESS_HIDE_AFTER_DAYS = 90;

export const VenueIdParamSchema = z.object({ id: z.string().min(1).max(64) });
export const QuizIdParamSchema = z.object({ id: z.string().min(1).max(64) });

/** GET/POST /api/owner/freshness/:venueId[/confirm] */
export interface FreshnessResponse {
  /** Stockholm date of the last confirmation ("Senast bekräftad"). */
  confirmedOn: string;
  daysSince: number;
  /** House-account (unclaimed) business: "Uppgifter från offentliga källor", never hidden. */
  publicSources: boolean;
  /** Hidden from the public listing after 90 days unconfirmed, until confirmed. */
  hidden: boolean;
  /** Days until it would be hidden; null when hidden already or never hidden. */
  hideInDays: number | null;
}

/** GET /api/freshness/quiz/:id — the detail dialog's line. */
export interface PublicFreshnessResponse {
  confirmedOn: string | null;
  publicSources: boolean;
}

/** "Senast bekräftad 3 november 2026" / "Uppgifter från offentliga källor". */
export function freshnessLine(f: { confirmedOn: string | null; publicSources: boolean }): string {
  if (f.publicSources || !f.confirmedOn) return 'Uppgifter från offentliga källor';
  const [y, m, d] = f.confirmedOn.split('-').map(Number);
  const months = ['januari', 'februari', 'mars', 'april', 'maj', 'juni', 'juli', 'augusti', 'september', 'oktober', 'november', 'december'];
  return `Senast bekräftad ${d} ${months[(m ?? 1) - 1]} ${y}`;
}
