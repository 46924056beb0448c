import { useState } from 'react';
import {
  priceText,
  PROMOTION_MESSAGES,
  RANKING_STEPS,
  TIER_LABELS,
  tierDescription,
  VOLUME_DISCOUNT_MIN_WEEKS,
  VOLUME_DISCOUNT_PERCENT,
  weeklyPriceText,
  weeksText,
} from '../../../worker/features/promotion/contract';
import { countWord } from '../../../worker/lib/swedish';
import { usePricing } from '../promotion/api';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';

const BENEFITS = [
  { title: 'Fler besökare', text: 'Marknadsförda quiz visas före de andra och får fler klick.' },
  { title: 'Syns direkt', text: 'Marknadsföringen gäller så fort betalningen är klar.' },
  { title: 'Enkel betalning', text: 'Betala med kort, Swish, Apple Pay eller Google Pay. Ingen bindningstid.' },
];

/** The promotion information section of the dashboard, shown once any quiz exists (spec 02 §2.1). */
export function PromotionInfo() {
  // The one shared pricing hook: no notice when prices are simply not configured (reason 'unconfigured').
  const { pricing: weekly, failed } = usePricing();
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="promo-heading" className="space-y-5 rounded-2xl border border-brand-100 bg-brand-50 p-6">
      <div>
        <h2 id="promo-heading" className="text-2xl font-bold">
          Få fler deltagare till ditt quiz
        </h2>
        <p className="mt-1 text-slate-700">
          Tryck på <strong>Marknadsför</strong> vid en serie eller ett quiz under Kommande quiz ovan: där väljer du datum och typ och ser vad som är ledigt.
        </p>
      </div>
      <ul className="grid gap-3 sm:grid-cols-3">
        {BENEFITS.map((b) => (
          <li key={b.title} className="rounded-xl bg-white p-4 shadow-sm">
            <h3 className="font-bold">{b.title}</h3>
            <p className="mt-1 text-sm text-slate-700">{b.text}</p>
          </li>
        ))}
      </ul>
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="rounded-xl border border-slate-200 bg-white p-4">
          <h3 className="font-bold">Standard</h3>
          <p className="text-lg font-extrabold">Gratis</p>
          <p className="mt-1 text-sm text-slate-700">Ditt quiz listas i vanlig ordning i staden och på startsidan.</p>
        </div>
        <div className="rounded-xl border border-sky-300 bg-white p-4">
          <h3 className="font-bold">{TIER_LABELS.recommended}</h3>
          <p className="text-lg font-extrabold">{weeklyPriceText(weekly.recommended.weeklyPriceSek)}</p>
          <p className="mt-1 text-sm text-slate-700">{tierDescription('recommended')}</p>
        </div>
        <div className="rounded-xl border border-amber-400 bg-white p-4">
          <h3 className="font-bold">{TIER_LABELS.premium}</h3>
          <p className="text-lg font-extrabold">{weeklyPriceText(weekly.premium.weeklyPriceSek)}</p>
          <p className="mt-1 text-sm text-slate-700">{tierDescription('premium')}</p>
        </div>
      </div>
      <div className="rounded-xl bg-white p-4 text-sm text-slate-800">
        <h3 className="font-bold">Så rangordnas listan</h3>
        <ol className="mt-1 list-decimal space-y-1 pl-5">
          {RANKING_STEPS.map((step) => (
            <li key={step.title}>
              <strong>{step.title}</strong> – {step.text}
            </li>
          ))}
        </ol>
      </div>
      {failed && (
        <p role="status" className="text-sm text-slate-700">
          {PROMOTION_MESSAGES.priceLoadFailed}
        </p>
      )}
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Se priser
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Priser för marknadsföring" size="lg">
        <div className="grid gap-4 sm:grid-cols-2">
          {(['recommended', 'premium'] as const).map((tier) => (
            <div key={tier} className="rounded-xl border border-slate-200 p-4">
              <h3 className="font-bold">{TIER_LABELS[tier]}</h3>
              <ul className="mt-2 space-y-1">
                {weekly[tier].options.map((o) => (
                  <li key={o.weeks} className="flex justify-between gap-2">
                    <span>
                      {weeksText(o.weeks)} ({o.exposureDays} dagar)
                      {o.popular && <span className="ml-2 rounded-full bg-brand-100 px-2 text-xs font-bold text-brand-800">Populärast</span>}
                    </span>
                    <span className="font-semibold">{priceText(o.priceSek)}</span>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <p className="mt-4 text-sm text-slate-700">
          Priserna gäller per quiz. Mängdrabatt ({VOLUME_DISCOUNT_PERCENT} %) dras automatiskt när fler än {countWord(VOLUME_DISCOUNT_MIN_WEEKS - 1)} veckor
          köps i samma beställning.
        </p>
        {failed && <p className="mt-2 text-sm text-slate-700">{PROMOTION_MESSAGES.priceLoadFailed}</p>}
      </Dialog>
    </section>
  );
}
