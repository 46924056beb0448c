/**
 * The series' purchase panel (spec 02 §2.2, §4.2, §5), in the dialog of its 'Marknadsför' (PromoteSeriesButton,
 * issue 44.1): the owner ticks occurrences, picks Rekommenderat
 * or Premium Utvald per occurrence, sees each date's availability and the total, and presses
 * 'Gå till betalning'. Already promoted occurrences cannot be ticked (tooltip).
 *
 * On a phone (issue 29.1) the list shows the dates of the next 4 weeks (what the slot calendar covers),
 * then 'Visa fler datum' adds 4 weeks at a time; the summary (selected dates, total, volume discount,
 * 'Gå till betalning' and any message) sticks to the bottom of the screen while the panel is in view.
 */
import { useMemo, useState } from 'react';
import {
  availabilityStatus,
  MarketingCheckoutSchema,
  MAX_ITEMS_PER_ORDER,
  priceText,
  PROMOTION_MESSAGES,
  TIER_LABELS,
  type Tier,
  distinctIsoWeeks,
  orderAmounts,
} from '../../../worker/features/promotion/contract';
import { displayTime } from '../../../worker/lib/swedish';
import { ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { goToCheckout, promotionApi, shortDate, useAvailability, usePricing } from './api';
import { AvailabilityBadge } from './AvailabilityBadge';
import { PROMOTED_TOOLTIP } from './PromoteQuizButton';
import { PromotedLabel } from './PromotedLabel';
import { PurchaseSummary } from './PurchaseSummary';
import { SlotCalendar } from '../analytics/SlotCalendar';
import { SLOT_CALENDAR_DAYS } from '../../../worker/features/analytics/contract';

export interface PromoteSeriesPanelProps {
  occurrences: Array<{ id: string; date: string; startTime: string | null; promotion: 'premium' | 'recommended' | null }>;
  city: string;
  venueId: string;
}

/** The dates shown at first and added by each 'Visa fler datum': the slot calendar's 4 weeks. */
export const SERIES_WINDOW_DAYS = SLOT_CALENDAR_DAYS;

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export default function PromoteSeriesPanel({ occurrences, city, venueId }: PromoteSeriesPanelProps) {
  const { pricing, failed: priceFailed } = usePricing();
  const [selected, setSelected] = useState<Record<string, Tier | ''>>({});
  const [windows, setWindows] = useState(1);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const candidates = useMemo(() => occurrences.filter((o) => !o.promotion).slice(0, MAX_ITEMS_PER_ORDER), [occurrences]);
  const { availability, checking, failed: availabilityError } = useAvailability(candidates.map((c) => c.id));

  const firstDate = occurrences[0]?.date;
  const shownUntil = firstDate ? addDays(firstDate, windows * SERIES_WINDOW_DAYS) : '';
  const shown = occurrences.filter((o) => o.date < shownUntil || selected[o.id] !== undefined);
  const hiddenCount = occurrences.length - shown.length;

  const dayOf = (quizId: string) => availability?.byDate.find((d) => d.quizzes.some((q) => q.id === quizId));
  const chosen = Object.entries(selected);
  const subtotalOre = chosen.reduce((sum, [, t]) => sum + (t ? pricing[t].weeklyPriceSek * 100 : 0), 0);
  // The same rule as the server: weeks bought = distinct ISO weeks of the chosen dates.
  const chosenDates = chosen
    .filter(([, t]) => t)
    .map(([id]) => occurrences.find((o) => o.id === id)?.date)
    .filter((d): d is string => !!d);
  const amounts = orderAmounts(subtotalOre, distinctIsoWeeks(chosenDates));
  const missingSlot = chosen.find(([id, t]) => t && dayOf(id) && !dayOf(id)![t].isAvailable);

  function toggle(id: string, on: boolean) {
    setError(null);
    setSelected((s) => {
      const next = { ...s };
      if (on) next[id] = '';
      else delete next[id];
      return next;
    });
  }

  async function pay() {
    setError(null);
    const parsed = MarketingCheckoutSchema.safeParse({ venueId, items: chosen.map(([quizId, tier]) => ({ quizId, tier: tier || undefined })) });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const message = issue?.path.includes('tier') ? PROMOTION_MESSAGES.noTier : (issue?.message ?? PROMOTION_MESSAGES.noQuizzes);
      setError(message);
      return;
    }
    if (missingSlot) {
      setError(missingSlot[1] === 'premium' ? PROMOTION_MESSAGES.premiumFull : PROMOTION_MESSAGES.recommendedFull);
      return;
    }
    setProcessing(true);
    try {
      const res = await promotionApi.marketingCheckout(parsed.data);
      goToCheckout(res.url);
    } catch (err) {
      setProcessing(false);
      // The message is shown in the sticky summary beside the button (no second copy in a toast).
      setError(err instanceof ApiError && (err.status === 409 || err.status === 429) ? err.message : PROMOTION_MESSAGES.checkoutFailed);
    }
  }

  return (
    // In its dialog (PromoteSeriesButton): the dialog's title and description name the series and the city.
    <section aria-label="Marknadsför tillfällen">
      <div className="space-y-3 pb-2">
        {occurrences[0] && <SlotCalendar quizId={occurrences[0].id} city={city} />}
        {priceFailed && <p className="text-sm text-amber-900">{PROMOTION_MESSAGES.priceLoadFailed}</p>}
        {availabilityError && <p className="text-sm text-red-800">Fel vid kontroll av tillgänglighet</p>}
        <p className="text-sm text-slate-700">
          {TIER_LABELS.recommended} {priceText(pricing.recommended.weeklyPriceSek)} och {TIER_LABELS.premium} {priceText(pricing.premium.weeklyPriceSek)} per
          datum.
        </p>
        <ul className="divide-y divide-slate-200">
          {shown.map((o) => {
            const label = `${shortDate(o.date)} kl ${displayTime(o.startTime)}`;
            const tier = selected[o.id];
            const isSelected = tier !== undefined;
            const day = dayOf(o.id);
            if (o.promotion) {
              return (
                <li key={o.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2">
                  <span title={PROMOTED_TOOLTIP[o.promotion]} className="flex min-h-11 items-center gap-2 text-slate-600">
                    <input type="checkbox" disabled aria-label={`${label} – ${PROMOTED_TOOLTIP[o.promotion]}`} className="h-5 w-5" />
                    {label}
                  </span>
                  <PromotedLabel tier={o.promotion} className="text-sm font-semibold text-slate-700" />
                </li>
              );
            }
            return (
              <li key={o.id} className="grid gap-1 py-2 sm:flex sm:flex-wrap sm:items-center sm:gap-3">
                <label className="flex min-h-11 items-center gap-2 font-medium">
                  <input
                    type="checkbox"
                    className="h-5 w-5"
                    checked={isSelected}
                    onChange={(e) => toggle(o.id, e.target.checked)}
                    disabled={!candidates.some((c) => c.id === o.id)}
                  />
                  {label}
                </label>
                {isSelected && (
                  <select
                    aria-label={`Marknadsföringstyp ${label}`}
                    value={tier}
                    onChange={(e) => setSelected((s) => ({ ...s, [o.id]: e.target.value as Tier | '' }))}
                    className="min-h-11 rounded-lg border border-slate-300 bg-white px-2 py-1 sm:order-last"
                  >
                    <option value="">Välj typ</option>
                    <option value="recommended">
                      {TIER_LABELS.recommended} ({priceText(pricing.recommended.weeklyPriceSek)})
                    </option>
                    <option value="premium">
                      {TIER_LABELS.premium} ({priceText(pricing.premium.weeklyPriceSek)})
                    </option>
                  </select>
                )}
                <span className="flex flex-wrap gap-x-3 gap-y-1 pl-7 text-xs sm:pl-0">
                  {checking ? (
                    'Kontrollerar...'
                  ) : (
                    <>
                      <span>
                        {TIER_LABELS.recommended}:{' '}
                        <AvailabilityBadge
                          status={availabilityError ? 'unknown' : availabilityStatus(day?.recommended, 'recommended')}
                          slots={day?.recommended.availableSlots}
                        />
                      </span>
                      <span>
                        {TIER_LABELS.premium}:{' '}
                        <AvailabilityBadge
                          status={availabilityError ? 'unknown' : availabilityStatus(day?.premium, 'premium')}
                          slots={day?.premium.availableSlots}
                        />
                      </span>
                    </>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
        {hiddenCount > 0 && (
          <Button variant="secondary" className="w-full" onClick={() => setWindows((w) => w + 1)}>
            Visa fler datum ({hiddenCount} till)
          </Button>
        )}
      </div>
      {/* Flush with the dialog's bottom edge: -bottom-6 and -mx-6 undo the dialog's p-6, so no date shows below it. */}
      <div className="sticky -bottom-6 z-10 -mx-6 -mb-6 space-y-2 border-t border-slate-300 bg-white px-6 py-4 shadow-[0_-4px_12px_rgba(15,23,42,0.08)]">
        {error && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
            {error}
          </p>
        )}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <PurchaseSummary amounts={amounts} lead={`Valda: ${chosen.length} · `} className="font-bold" />
          <Button onClick={pay} disabled={processing || checking || availabilityError || !!missingSlot}>
            {processing ? 'Skapar betalning...' : 'Gå till betalning'}
          </Button>
        </div>
      </div>
    </section>
  );
}
