/**
 * The 'Marknadsför' button of one quiz and its purchase dialog (spec 02 §2.2, §2.3): Rekommenderat or
 * Premium Utvald for 1, 2 or 4 weeks, the availability of the quiz's date, the total and
 * 'Gå till betalning'. Already promoted quizzes show the button disabled with a tooltip.
 */
import { useId, useState } from 'react';
import {
  availabilityStatus,
  orderAmounts,
  priceText,
  PROMOTION_MESSAGES,
  PromotionCheckoutSchema,
  TIER_LABELS,
  type Tier,
  tierDescription,
  weeklyPriceText,
  weeksText,
} from '../../../worker/features/promotion/contract';
import { categoryLabel, displayTime } from '../../../worker/lib/swedish';
import { ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { toast } from '../ui/Toast';
import { goToCheckout, promotionApi, shortDate, useAvailability, usePricing } from './api';
import { AvailabilityBadge } from './AvailabilityBadge';
import { PromotedLabel } from './PromotedLabel';
import { PurchaseSummary } from './PurchaseSummary';
import PromotionPreviewDialog from './PromotionPreviewDialog';
import { SlotCalendar } from '../analytics/SlotCalendar';

export interface PromoteQuizButtonProps {
  quiz: { id: string; date: string; startTime: string | null; category: string | null; theme: string | null };
  city: string;
  venueId: string;
  /** Current promotion state of the quiz: already promoted quizzes cannot be promoted again. */
  promotion: 'premium' | 'recommended' | null;
}

export const PROMOTED_TOOLTIP = { premium: 'Detta quiz är Premium Utvald', recommended: 'Detta quiz är redan rekommenderat' } as const;

export default function PromoteQuizButton({ quiz, city, venueId, promotion }: PromoteQuizButtonProps) {
  const [open, setOpen] = useState(false);
  const hintId = useId();
  if (promotion) {
    return (
      <span title={PROMOTED_TOOLTIP[promotion]} className="inline-flex">
        <Button variant="secondary" disabled aria-describedby={hintId} className="px-3 py-1.5 text-sm">
          <PromotedLabel tier={promotion} />
        </Button>
        <span id={hintId} className="sr-only">
          {PROMOTED_TOOLTIP[promotion]}
        </span>
      </span>
    );
  }
  return (
    <>
      <Button variant="secondary" className="px-3 py-1.5 text-sm" onClick={() => setOpen(true)}>
        Marknadsför<span className="sr-only"> quiz {quiz.date}</span>
      </Button>
      {open && <PurchaseDialog quiz={quiz} city={city} venueId={venueId} onClose={() => setOpen(false)} />}
    </>
  );
}

function PurchaseDialog({ quiz, city, onClose }: Omit<PromoteQuizButtonProps, 'promotion'> & { onClose: () => void }) {
  const { pricing, failed: priceFailed } = usePricing();
  const [tier, setTier] = useState<Tier | null>(null);
  const [weeks, setWeeks] = useState(2);
  const { availability, checking, failed: availabilityError } = useAvailability([quiz.id]);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [previewOpen, setPreviewOpen] = useState(false);

  const day = availability?.byDate[0];
  const statusOf = (t: Tier) => (availabilityError ? 'unknown' : availabilityStatus(day?.[t], t));
  const slotMissing = !!tier && !!day && !day[tier].isAvailable;
  const option = tier ? pricing[tier].options.find((o) => o.weeks === weeks) : undefined;

  async function pay() {
    setError(null);
    const parsed = PromotionCheckoutSchema.safeParse({ quizId: quiz.id, tier, weeks });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? PROMOTION_MESSAGES.noTier);
      return;
    }
    if (slotMissing) {
      setError(tier === 'premium' ? PROMOTION_MESSAGES.premiumFull : PROMOTION_MESSAGES.recommendedFull);
      return;
    }
    setProcessing(true);
    try {
      const res = await promotionApi.promotionCheckout(parsed.data);
      goToCheckout(res.url);
    } catch (err) {
      setProcessing(false);
      const message = err instanceof ApiError && (err.status === 409 || err.status === 429) ? err.message : PROMOTION_MESSAGES.checkoutFailed;
      setError(message);
      toast({ title: 'Fel vid betalning', description: message, variant: 'destructive' });
    }
  }

  // The preview is a sibling, not a child: React propagates a nested <dialog>'s close event to its
  // React ancestors, which would close the purchase dialog too.
  return (
    <>
      <Dialog
        open
        onClose={onClose}
        size="lg"
        title="Marknadsför quiz"
        description={`${categoryLabel(quiz.category, quiz.theme)} ${shortDate(quiz.date)} kl ${displayTime(quiz.startTime)} i ${city}`}
      >
        <div className="space-y-5">
          {priceFailed && (
            <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
              {PROMOTION_MESSAGES.priceLoadFailed}
            </p>
          )}
          <fieldset>
            <legend className="mb-2 font-semibold">Marknadsföringstyp</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {(['recommended', 'premium'] as const).map((t) => (
                <label
                  key={t}
                  className={`flex cursor-pointer flex-col gap-1 rounded-xl border-2 p-4 ${tier === t ? 'border-brand-600 bg-brand-50' : 'border-slate-200'}`}
                >
                  <span className="flex items-center gap-2">
                    <input type="radio" name="tier" value={t} checked={tier === t} onChange={() => setTier(t)} />
                    <span className="font-bold">{TIER_LABELS[t]}</span>
                  </span>
                  <span className="text-sm text-slate-700">{weeklyPriceText(pricing[t].weeklyPriceSek)}</span>
                  <span className="text-sm text-slate-700">{tierDescription(t)}</span>
                  <span>
                    {checking ? (
                      <span className="text-xs text-slate-600">Kontrollerar tillgänglighet...</span>
                    ) : (
                      <AvailabilityBadge status={statusOf(t)} slots={day?.[t].availableSlots} />
                    )}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <SlotCalendar quizId={quiz.id} city={city} />
          <fieldset>
            <legend className="mb-2 font-semibold">Period</legend>
            <div className="grid gap-3 sm:grid-cols-3">
              {(tier ? pricing[tier] : pricing.recommended).options.map((o) => (
                <label
                  key={o.weeks}
                  className={`relative flex cursor-pointer flex-col gap-1 rounded-xl border-2 p-4 ${weeks === o.weeks ? 'border-brand-600 bg-brand-50' : 'border-slate-200'}`}
                >
                  {o.popular && <span className="absolute -top-3 right-3 rounded-full bg-brand-600 px-2 py-0.5 text-xs font-bold text-white">Populär</span>}
                  <span className="flex items-center gap-2">
                    <input type="radio" name="weeks" value={o.weeks} checked={weeks === o.weeks} onChange={() => setWeeks(o.weeks)} />
                    <span className="font-bold">{weeksText(o.weeks)}</span>
                  </span>
                  <span className="text-sm text-slate-700">{tier ? priceText(o.priceSek) : 'Välj typ för pris'}</span>
                  <span className="text-xs text-slate-600">Exponering {o.exposureDays} dagar</span>
                </label>
              ))}
            </div>
            <p className="mt-2 text-xs text-slate-600">Gäller quizet och, för en serie, dess tillfällen inom perioden.</p>
          </fieldset>
          {availabilityError && <p className="text-sm text-red-800">Fel vid kontroll av tillgänglighet</p>}
          <PurchaseSummary amounts={option && weeks ? orderAmounts(option.priceSek * 100, weeks) : null} />
          {error && (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
              {error}
            </p>
          )}
          <p className="text-sm text-slate-600">Betala med kort, Swish, Apple Pay eller Google Pay.</p>
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="ghost" onClick={() => setPreviewOpen(true)}>
              Förhandsvisa
            </Button>
            <Button variant="secondary" onClick={onClose}>
              Avbryt
            </Button>
            <Button onClick={pay} disabled={processing || checking || availabilityError || slotMissing}>
              {processing ? 'Skapar betalning...' : 'Gå till betalning'}
            </Button>
          </div>
        </div>
      </Dialog>
      <PromotionPreviewDialog open={previewOpen} onClose={() => setPreviewOpen(false)} quiz={{ ...quiz, city }} />
    </>
  );
}
