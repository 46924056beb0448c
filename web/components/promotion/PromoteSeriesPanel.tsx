/**
 * Inside an expanded series (spec 02 §2.2, §4.2, §5): the owner ticks occurrences, picks Rekommenderat
 * or Premium Utvald per occurrence, sees each date's availability and the total, and presses
 * 'Gå till betalning'. Already promoted occurrences cannot be ticked (tooltip).
 */
import { useMemo, useState } from 'react';
import {
  availabilityStatus,
  MarketingCheckoutSchema,
  MAX_ITEMS_PER_ORDER,
  PROMOTION_MESSAGES,
  TIER_LABELS,
  type Tier,
  distinctIsoWeeks,
  orderAmounts,
} from '../../../worker/features/promotion/contract';
import { displayTime } from '../../../worker/lib/swedish';
import { ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { toast } from '../ui/Toast';
import { goToCheckout, promotionApi, shortDate, useAvailability, usePricing } from './api';
import { AvailabilityBadge } from './AvailabilityBadge';
import { PROMOTED_TOOLTIP } from './PromoteQuizButton';
import { PurchaseSummary } from './PurchaseSummary';
import { SlotCalendar } from '../analytics/SlotCalendar';

export interface PromoteSeriesPanelProps {
  occurrences: Array<{ id: string; date: string; startTime: string | null; promotion: 'premium' | 'recommended' | null }>;
  city: string;
  venueId: string;
}

export default function PromoteSeriesPanel({ occurrences, city, venueId }: PromoteSeriesPanelProps) {
  const { pricing, failed: priceFailed } = usePricing();
  const [selected, setSelected] = useState<Record<string, Tier | ''>>({});
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const candidates = useMemo(() => occurrences.filter((o) => !o.promotion).slice(0, MAX_ITEMS_PER_ORDER), [occurrences]);
  const { availability, checking, failed: availabilityError } = useAvailability(candidates.map((c) => c.id));

  const dayOf = (quizId: string) => availability?.byDate.find((d) => d.quizzes.some((q) => q.id === quizId));
  const chosen = Object.entries(selected);
  const subtotalOre = chosen.reduce((sum, [, t]) => sum + (t ? pricing[t].weeklyPriceSek * 100 : 0), 0);
  // The same rule as the server: weeks bought = distinct ISO weeks of the chosen dates.
  const chosenDates = chosen.filter(([, t]) => t).map(([id]) => occurrences.find((o) => o.id === id)?.date).filter((d): d is string => !!d);
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
      const message = issue?.path.includes('tier') ? PROMOTION_MESSAGES.noTier : issue?.message ?? PROMOTION_MESSAGES.noQuizzes;
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
      const message = err instanceof ApiError && (err.status === 409 || err.status === 429) ? err.message : 'Kunde inte starta betalningsprocessen. Försök igen.';
      setError(message);
      toast({ title: 'Fel vid betalning', description: message, variant: 'destructive' });
    }
  }

  return (
    <section aria-label="Marknadsför tillfällen" className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-4">
      <h4 className="font-bold">Marknadsför tillfällen i {city}</h4>
      {occurrences[0] && <SlotCalendar quizId={occurrences[0].id} city={city} />}
      {priceFailed && <p className="text-sm text-amber-900">{PROMOTION_MESSAGES.priceLoadFailed}</p>}
      {availabilityError && <p className="text-sm text-red-800">Fel vid kontroll av tillgänglighet</p>}
      <ul className="divide-y divide-slate-200">
        {occurrences.map((o) => {
          const label = `${shortDate(o.date)} kl ${displayTime(o.startTime)}`;
          const tier = selected[o.id];
          const isSelected = tier !== undefined;
          const day = dayOf(o.id);
          if (o.promotion) {
            return (
              <li key={o.id} className="flex flex-wrap items-center gap-3 py-2">
                <span title={PROMOTED_TOOLTIP[o.promotion]} className="flex items-center gap-2 text-slate-500">
                  <input type="checkbox" disabled aria-label={`${label} – ${PROMOTED_TOOLTIP[o.promotion]}`} />
                  {label}
                </span>
                <span className="text-sm font-semibold text-slate-600">{o.promotion === 'premium' ? '⭐ Premium Utvald' : 'Rekommenderat'}</span>
              </li>
            );
          }
          return (
            <li key={o.id} className="flex flex-wrap items-center gap-3 py-2">
              <label className="flex items-center gap-2">
                <input type="checkbox" checked={isSelected} onChange={(e) => toggle(o.id, e.target.checked)} disabled={!candidates.some((c) => c.id === o.id)} />
                {label}
              </label>
              {isSelected && (
                <select
                  aria-label={`Marknadsföringstyp ${label}`}
                  value={tier}
                  onChange={(e) => setSelected((s) => ({ ...s, [o.id]: e.target.value as Tier | '' }))}
                  className="rounded-lg border border-slate-300 bg-white px-2 py-1"
                >
                  <option value="">Välj typ</option>
                  <option value="recommended">
                    {TIER_LABELS.recommended} ({pricing.recommended.weeklyPriceSek} kr)
                  </option>
                  <option value="premium">
                    {TIER_LABELS.premium} ({pricing.premium.weeklyPriceSek} kr)
                  </option>
                </select>
              )}
              <span className="flex gap-2 text-xs">
                {checking ? (
                  'Kontrollerar...'
                ) : (
                  <>
                    <span>
                      {TIER_LABELS.recommended}: <AvailabilityBadge status={availabilityError ? 'unknown' : availabilityStatus(day?.recommended, 'recommended')} slots={day?.recommended.availableSlots} />
                    </span>
                    <span>
                      {TIER_LABELS.premium}: <AvailabilityBadge status={availabilityError ? 'unknown' : availabilityStatus(day?.premium, 'premium')} slots={day?.premium.availableSlots} />
                    </span>
                  </>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PurchaseSummary amounts={amounts} lead={`Valda: ${chosen.length} · `} className="font-bold" />
        <Button onClick={pay} disabled={processing || checking || availabilityError || !!missingSlot}>
          {processing ? 'Skapar betalning...' : 'Gå till betalning'}
        </Button>
      </div>
      {error && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
          {error}
        </p>
      )}
    </section>
  );
}
