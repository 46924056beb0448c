import { TeamReportsPanel } from './TeamReportsPanel';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminTip } from '../../../worker/features/tips/contract';
import { WEEKDAYS } from '../../../worker/lib/swedish';
import { useAnswerTip, useTips, type TipOrder, type TipStatusFilter } from '../../api/tips';
import { ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { Spinner } from '../ui/Spinner';
import { toast } from '../ui/Toast';

const dateFormat = new Intl.DateTimeFormat('sv-SE', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Stockholm' });
const FILTERS: Array<{ id: TipStatusFilter; label: string }> = [
  { id: 'pending', label: 'Väntar' },
  { id: 'approved', label: 'Publicerade' },
  { id: 'rejected', label: 'Avvisade' },
];

const ORDERS: Array<{ id: TipOrder; label: string }> = [
  { id: 'oldest', label: 'Äldst först' },
  { id: 'newest', label: 'Nyast först' },
];

export const pendingTipsLabel = (n: number) => `${n} tips väntar`;
/** A tip sent more than once (identical and near-identical tips fold into the first). */
export const seenLabel = (n: number) => `Skickat ${n} gånger`;

/**
 * The superadmin's "Tips" tab (issue 31.1): visitors' tips, the near-duplicate flag, publish or reject. Paged,
 * oldest first by default so the first tip is not buried under later ones (issue 43.7).
 */
export function TipsPanel() {
  const [status, setStatus] = useState<TipStatusFilter>('pending');
  const [order, setOrder] = useState<TipOrder>('oldest');
  const tips = useTips(status, order);
  const first = tips.data?.pages[0];
  const items = tips.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-labelledby="tips-heading" className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="tips-heading" className="text-2xl font-bold">
          Tips från besökare
        </h2>
        {first && <p className="font-semibold text-slate-700">{pendingTipsLabel(first.pending)}</p>}
      </div>
      <fieldset aria-label="Visa tips" className="flex min-w-0 gap-2">
        {FILTERS.map((f) => (
          <Button key={f.id} variant={status === f.id ? 'primary' : 'secondary'} aria-pressed={status === f.id} onClick={() => setStatus(f.id)}>
            {f.label}
          </Button>
        ))}
      </fieldset>
      <fieldset aria-label="Ordning" className="flex min-w-0 gap-2">
        {ORDERS.map((o) => (
          <Button key={o.id} variant={order === o.id ? 'primary' : 'secondary'} aria-pressed={order === o.id} onClick={() => setOrder(o.id)}>
            {o.label}
          </Button>
        ))}
      </fieldset>
      <TeamReportsPanel />
      {tips.isPending && <Spinner label="Hämtar tips..." />}
      {tips.isError && !tips.data && (
        <div role="alert" className="rounded-2xl border border-red-300 bg-red-50 p-4 text-red-950">
          <p className="font-semibold">Kunde inte hämta tipsen</p>
          <Button variant="secondary" className="mt-3" onClick={() => void tips.refetch()}>
            Försök igen
          </Button>
        </div>
      )}
      {tips.data && !items.length && <p className="text-slate-700">Inga tips här.</p>}
      <ul className="space-y-3">
        {items.map((t) => (
          <TipItem key={t.id} tip={t} />
        ))}
      </ul>
      {tips.hasNextPage && (
        <Button variant="secondary" disabled={tips.isFetchingNextPage} onClick={() => void tips.fetchNextPage()}>
          {tips.isFetchingNextPage ? 'Hämtar...' : 'Visa fler'}
        </Button>
      )}
    </section>
  );
}

function when(t: AdminTip) {
  const day = t.weekday ? `Varje ${WEEKDAYS[t.weekday - 1]!.name}` : t.date;
  return `${day} kl. ${t.startTime}`;
}

function TipItem({ tip }: { tip: AdminTip }) {
  const answer = useAnswerTip();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function run(v: Parameters<typeof answer.mutateAsync>[0]) {
    setError(null);
    try {
      await answer.mutateAsync(v);
      toast({ title: v.action === 'approve' ? `${tip.venueName} är publicerat` : 'Tipset är avvisat', variant: 'success' });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Något gick fel. Försök igen.');
    }
  }

  return (
    <li className="space-y-2 rounded-2xl border border-slate-200 bg-white p-4" aria-label={`Tips: ${tip.venueName}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-lg font-bold">{tip.venueName}</h3>
        <span className="text-sm text-slate-600">{dateFormat.format(new Date(tip.createdAt))}</span>
      </div>
      <p className="text-slate-800">
        {tip.address}, {tip.city} · {when(tip)}
      </p>
      {tip.link && (
        <p>
          <a className="text-brand-700 underline" href={tip.link} rel="noopener noreferrer nofollow" target="_blank">
            {tip.link}
          </a>
        </p>
      )}
      {tip.message && <p className="whitespace-pre-line text-slate-700">{tip.message}</p>}
      {tip.near && (
        <p role="note" className="rounded-xl bg-amber-50 p-2 text-sm font-semibold text-amber-950">
          Möjlig dubblett: {tip.near.note}
          {tip.near.venueId && (
            <>
              {' · '}
              {/* The superadmin's own view of a business, as the Verksamheter tab opens it (issue 44.9). */}
              <Link className="text-brand-700 underline" to={`/admin/venue/${encodeURIComponent(tip.near.venueId)}`}>
                Visa den befintliga verksamheten
              </Link>
            </>
          )}
        </p>
      )}
      {tip.seenCount > 1 && <p className="text-sm font-semibold text-slate-700">{seenLabel(tip.seenCount)}</p>}
      {tip.hasEmail && <p className="text-sm text-slate-600">Tipsaren får ett mejl när tipset publiceras.</p>}
      {tip.rejectReason && <p className="text-sm text-slate-700">Avvisat: {tip.rejectReason}</p>}
      {tip.venue && (
        <p>
          <a className="text-brand-700 underline" href={`/quiz/${tip.venue.citySlug}/${tip.venue.slug}`}>
            Visa sidan
          </a>
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      {tip.status === 'pending' && !rejecting && (
        <div className="flex gap-2">
          <Button disabled={answer.isPending} onClick={() => void run({ id: tip.id, action: 'approve' })}>
            Publicera
          </Button>
          <Button variant="secondary" disabled={answer.isPending} onClick={() => setRejecting(true)}>
            Avvisa
          </Button>
        </div>
      )}
      {tip.status === 'pending' && rejecting && (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (!reason.trim()) return setError('Ange en anledning');
            void run({ id: tip.id, action: 'reject', reason });
          }}
        >
          <label className="flex-1 space-y-1">
            <span className="block text-sm font-semibold">Anledning</span>
            <input className="w-full rounded-xl border border-slate-300 px-3 py-2" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          </label>
          <Button type="submit" variant="danger" disabled={answer.isPending}>
            Avvisa tipset
          </Button>
          <Button variant="ghost" onClick={() => setRejecting(false)}>
            Avbryt
          </Button>
        </form>
      )}
    </li>
  );
}
