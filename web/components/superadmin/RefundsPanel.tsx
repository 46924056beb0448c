/**
 * 'Att återbetala' (issue 13.2): payments that arrived for orders we could not deliver (the quiz was
 * deleted, or the hold had already run out). Each is refunded automatically through the payments
 * port; one the provider refused is marked 'Återbetala manuellt' until the superadmin has refunded it
 * in the Stripe dashboard and presses 'Markera som återbetald'.
 */
import { useCallback, useEffect, useState } from 'react';
import { REFUND_REASON_LABELS, REFUND_STATUS_LABELS, type RefundListResponse } from '../../../worker/features/payments/contract';
import { formatOre } from '../../../worker/features/promotion/contract';
import { api } from '../../lib/api';
import { Button } from '../ui/Button';
import { toast } from '../ui/Toast';

type Refund = RefundListResponse['refunds'][number];

export const refundsApi = {
  list: () => api<RefundListResponse>('/api/payments/refunds'),
  markRefunded: (id: string) => api<{ id: string; status: 'refunded' }>(`/api/payments/refunds/${encodeURIComponent(id)}/refunded`, { method: 'POST' }),
};

const DATE_TIME = new Intl.DateTimeFormat('sv-SE', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Stockholm' });

export function RefundsPanel() {
  const [refunds, setRefunds] = useState<Refund[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setRefunds((await refundsApi.list()).refunds);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function markDone(r: Refund) {
    setBusy(r.id);
    try {
      await refundsApi.markRefunded(r.id);
      toast({ title: 'Markerad som återbetald', variant: 'success' });
      await load();
    } catch {
      toast({ title: 'Kunde inte uppdatera återbetalningen', variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  if (failed) return <p role="alert">Kunde inte hämta återbetalningar.</p>;
  if (!refunds) return <p>Laddar återbetalningar...</p>;
  const open = refunds.filter((r) => r.status !== 'refunded').length;
  return (
    <section aria-labelledby="refunds-heading" className="space-y-3">
      <h2 id="refunds-heading" className="text-xl font-bold">
        Att återbetala
      </h2>
      <p className="text-sm text-slate-700">
        Betalningar som kom in för beställningar som inte kunde levereras. De återbetalas automatiskt; de som inte gick att återbetala måste återbetalas
        manuellt i Stripe. {open > 0 ? `${open} kräver åtgärd.` : 'Inget kräver åtgärd.'}
      </p>
      {refunds.length === 0 ? (
        <p>Inga återbetalningar.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-2">
                Datum
              </th>
              <th scope="col">Köpare</th>
              <th scope="col">Verksamhet</th>
              <th scope="col">Orsak</th>
              <th scope="col" className="text-right">
                Belopp
              </th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Åtgärd</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {refunds.map((r) => (
              <tr key={r.id} className="border-b border-slate-100 align-top">
                <td className="py-2">{DATE_TIME.format(new Date(r.createdAt))}</td>
                <td>{r.buyerEmail ?? 'Borttaget konto'}</td>
                <td>{r.venueName ?? '–'}</td>
                <td>
                  {REFUND_REASON_LABELS[r.reason]}
                  {r.stripeSessionId && <span className="block text-xs text-slate-500">{r.stripeSessionId}</span>}
                </td>
                <td className="text-right">{formatOre(r.amount)}</td>
                <td>
                  <span className={r.status === 'refunded' ? 'text-green-800' : 'font-semibold text-red-800'}>{REFUND_STATUS_LABELS[r.status]}</span>
                  {r.error && <span className="block text-xs text-slate-600">{r.error}</span>}
                </td>
                <td className="text-right">
                  {r.status !== 'refunded' && (
                    <Button variant="secondary" className="text-sm" disabled={busy === r.id} onClick={() => void markDone(r)}>
                      Markera som återbetald
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
