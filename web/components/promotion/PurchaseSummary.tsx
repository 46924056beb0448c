/**
 * The purchase summary of every promotion dialog: the total, and — when the order buys more than three
 * weeks — the volume discount as its own line (spec 02 §9). Uses the same arithmetic as the server
 * (orderAmounts in the promotion contract), so the dialog shows exactly what Checkout will charge.
 */
import { formatOre, volumeDiscountLabel, type OrderAmounts } from '../../../worker/features/promotion/contract';

export function PurchaseSummary({ amounts, lead = '', className = 'text-lg font-bold' }: { amounts: OrderAmounts | null; lead?: string; className?: string }) {
  if (!amounts || amounts.discount <= 0) {
    return (
      <p className={className} aria-live="polite">
        {lead}Totalt: {amounts ? formatOre(amounts.total) : '–'}
      </p>
    );
  }
  return (
    <div aria-live="polite" className="space-y-0.5">
      <p className="text-sm text-slate-700">
        {lead}Delsumma: {formatOre(amounts.subtotal)}
      </p>
      <p className="text-sm font-semibold text-green-800">
        {volumeDiscountLabel()} ({amounts.weeks} veckor): {formatOre(-amounts.discount)}
      </p>
      <p className={className}>Totalt: {formatOre(amounts.total)}</p>
    </div>
  );
}
