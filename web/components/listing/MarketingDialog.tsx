import { optionPriceText, PRICE_LOAD_FAILED, TIER_LABELS, tierDescription, weeklyPriceText } from '../../../worker/features/promotion/tiers';
import { usePricing } from '../../lib/pricing';
import { Dialog } from '../ui/Dialog';

/**
 * 'Rekommenderat' banner → marketing options and prices (spec 01 §2, 02 §9). Loaded on demand; prices
 * come from the one pricing hook (zod-free), which shows the neutral notice only when live prices could
 * not be read — not when they are simply not configured.
 */
export default function MarketingDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Marknadsför ditt quiz"
      description="Syns bättre för fler quizsugna – välj det som passar ditt ställe."
      size="lg"
    >
      {open && <MarketingPrices />}
    </Dialog>
  );
}

function MarketingPrices() {
  const { pricing, failed, loading } = usePricing();
  if (loading) return <p role="status">Laddar priser...</p>;
  return (
    <div className="space-y-4">
      {failed && (
        <p role="status" className="rounded-xl bg-slate-100 px-3 py-2 text-sm text-slate-700">
          {PRICE_LOAD_FAILED}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {(['recommended', 'premium'] as const).map((tier) => (
          <section key={tier} className={`rounded-2xl border p-4 ${tier === 'premium' ? 'border-amber-300' : 'border-slate-200'}`}>
            <h3 className="text-lg font-bold">{TIER_LABELS[tier]}</h3>
            <p className="mt-1 text-sm text-slate-700">{tierDescription(tier)}</p>
            <p className="mt-2 text-2xl font-extrabold">{weeklyPriceText(pricing[tier].weeklyPriceSek)}</p>
            <ul className="mt-2 space-y-1 text-sm">
              {pricing[tier].options.map((o) => (
                <li key={o.weeks}>{optionPriceText(o)}</li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      <p className="text-sm text-slate-700">
        Har du ett quiz hos oss?{' '}
        <a href="/admin" className="font-semibold text-brand-700 underline">
          Logga in och marknadsför det
        </a>
        .{' '}
        <a href="/annonsera" className="font-semibold text-brand-700 underline">
          Så rangordnas listan
        </a>
      </p>
    </div>
  );
}
