import { useEffect, useState } from 'react';
import { FALLBACK_WEEKLY_PRICE_SEK, MAX_SLOTS_PER_DAY, pricingFor, type PricingResponse } from '../../../worker/features/promotion/contract';
import { api } from '../../lib/api';
import { Dialog } from '../ui/Dialog';

/**
 * 'Rekommenderat' banner → marketing options and prices (spec 01 §2, 02 §9). Loaded on demand, so the
 * promotion contract never weighs on the public first load. Any failure shows the fallback prices with
 * a neutral notice.
 */
export default function MarketingDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [pricing, setPricing] = useState<PricingResponse | null>(null);
  useEffect(() => {
    if (!open || pricing) return;
    let live = true;
    api<PricingResponse>('/api/promotion/pricing').then(
      (p) => live && setPricing(p?.recommended && p?.premium ? p : pricingFor(FALLBACK_WEEKLY_PRICE_SEK, 'fallback')),
      () => live && setPricing(pricingFor(FALLBACK_WEEKLY_PRICE_SEK, 'fallback')),
    );
    return () => {
      live = false;
    };
  }, [open, pricing]);
  return (
    <Dialog open={open} onClose={onClose} title="Marknadsför ditt quiz" description="Syns bättre för fler quizsugna – välj det som passar ditt ställe." size="lg">
      {!pricing ? (
        <p role="status">Laddar priser...</p>
      ) : (
        <div className="space-y-4">
          {pricing.source === 'fallback' && (
            <p role="status" className="rounded-xl bg-slate-100 px-3 py-2 text-sm text-slate-700">
              Aktuella priser kunde inte hämtas just nu. Priserna nedan är ungefärliga.
            </p>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <section className="rounded-2xl border border-slate-200 p-4">
              <h3 className="text-lg font-bold">Rekommenderat</h3>
              <p className="mt-1 text-sm text-slate-700">
                Ditt quiz visas bland de första platserna i listan, med en Rekommenderat-etikett. Högst {MAX_SLOTS_PER_DAY.recommended} per stad och dag.
              </p>
              <p className="mt-2 text-2xl font-extrabold">{pricing.recommended.weeklyPriceSek} kr/vecka</p>
              <ul className="mt-2 space-y-1 text-sm">
                {pricing.recommended.options.map((o) => (
                  <li key={o.weeks}>
                    {o.weeks} {o.weeks === 1 ? 'vecka' : 'veckor'}: {o.priceSek} kr
                  </li>
                ))}
              </ul>
            </section>
            <section className="rounded-2xl border border-amber-300 p-4">
              <h3 className="text-lg font-bold">Premium Utvald</h3>
              <p className="mt-1 text-sm text-slate-700">
                Ditt quiz visas i full bredd överst i listan, med telefonnummer och beskrivning. Bara {MAX_SLOTS_PER_DAY.premium} per stad och dag.
              </p>
              <p className="mt-2 text-2xl font-extrabold">{pricing.premium.weeklyPriceSek} kr/vecka</p>
              <ul className="mt-2 space-y-1 text-sm">
                {pricing.premium.options.map((o) => (
                  <li key={o.weeks}>
                    {o.weeks} {o.weeks === 1 ? 'vecka' : 'veckor'}: {o.priceSek} kr
                  </li>
                ))}
              </ul>
            </section>
          </div>
          <p className="text-sm text-slate-700">
            Har du ett quiz hos oss? <a href="/admin" className="font-semibold text-brand-700 underline">Logga in och marknadsför det</a>.
          </p>
        </div>
      )}
    </Dialog>
  );
}
