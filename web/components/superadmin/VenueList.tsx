import { useCallback, useEffect, useRef, useState } from 'react';
import { VENUE_PAGE_SIZE, type AdminVenue } from '../../../worker/features/admin/contract';
import { Button } from '../ui/Button';
import { Spinner } from '../ui/Spinner';
import { toast } from '../ui/Toast';
import { AddVenueDialog } from './AddVenueDialog';
import { adminApi, deleteUserErrorMessage } from '../../api/admin';
import { ConfirmDialog } from './ConfirmDialog';
import { VenueCard } from './VenueCard';

/** Search debounce (spec 02 §9). */
const DEBOUNCE_MS = 300;

type Load = { status: 'loading' } | { status: 'error' } | { status: 'ready'; venues: AdminVenue[]; matched: number; total: number };

/** Every business, Swedish order, searchable, 'Ladda fler' in pages of 10, refreshed on window focus. */
export function VenueList() {
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [loadingMore, setLoadingMore] = useState(false);
  const [adding, setAdding] = useState(false);
  const [confirm, setConfirm] = useState<{ kind: 'user' | 'venue'; venue: AdminVenue } | null>(null);
  const [busy, setBusy] = useState(false);
  const loaded = useRef(0);
  const seq = useRef(0);

  useEffect(() => {
    const t = setTimeout(() => setQ(input.trim()), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [input]);

  /** (Re)loads the first `count` businesses for the current search. */
  const reload = useCallback(
    async (count: number, quiet: boolean) => {
      const my = ++seq.current;
      if (!quiet) setLoad({ status: 'loading' });
      try {
        const res = await adminApi.venues(q, 0, Math.min(Math.max(count, VENUE_PAGE_SIZE), 50));
        if (my !== seq.current) return;
        loaded.current = res.data.venues.length;
        setLoad({ status: 'ready', venues: res.data.venues, matched: res.data.matched, total: res.data.total });
      } catch {
        if (my !== seq.current) return;
        if (!quiet) setLoad({ status: 'error' });
      }
    },
    [q],
  );

  useEffect(() => {
    void reload(VENUE_PAGE_SIZE, false);
  }, [reload]);

  useEffect(() => {
    const onFocus = () => void reload(loaded.current, true);
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [reload]);

  async function loadMore() {
    if (load.status !== 'ready') return;
    setLoadingMore(true);
    const my = seq.current;
    try {
      const res = await adminApi.venues(q, load.venues.length, VENUE_PAGE_SIZE);
      if (my !== seq.current) return;
      const venues = [...load.venues, ...res.data.venues.filter((v) => !load.venues.some((o) => o.id === v.id))];
      loaded.current = venues.length;
      setLoad({ status: 'ready', venues, matched: res.data.matched, total: res.data.total });
    } catch {
      toast({ title: 'Kunde inte hämta verksamheter', variant: 'destructive' });
    } finally {
      setLoadingMore(false);
    }
  }

  async function confirmDelete() {
    if (!confirm) return;
    setBusy(true);
    try {
      if (confirm.kind === 'user') {
        const res = await adminApi.deleteUser(confirm.venue.userId);
        toast({ title: 'Användaren har tagits bort', description: `${res.email} och dess verksamheter är raderade.`, variant: 'success' });
      } else {
        await adminApi.deleteVenue(confirm.venue.id);
        toast({ title: 'Verksamheten har tagits bort', description: confirm.venue.name, variant: 'success' });
      }
      setConfirm(null);
      await reload(loaded.current, true);
    } catch (err) {
      toast({
        title: confirm.kind === 'user' ? deleteUserErrorMessage(err) : 'Kunde inte ta bort verksamheten. Försök igen.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="venues-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="venues-heading" className="text-2xl font-bold">
          Verksamheter
        </h2>
        <Button onClick={() => setAdding(true)}>Lägg till verksamhet</Button>
      </div>
      <div>
        <label htmlFor="venue-search" className="sr-only">
          Sök verksamheter
        </label>
        <input
          id="venue-search"
          type="search"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          placeholder="Sök verksamheter..."
          className="w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 placeholder:text-slate-500"
        />
      </div>

      {load.status === 'loading' && <Spinner label="Hämtar verksamheter..." />}
      {load.status === 'error' &&
        (q ? (
          <div role="alert" className="rounded-2xl border border-red-300 bg-red-50 p-4 text-red-950">
            <p className="font-semibold">Sökfel</p>
            <p>Ett fel uppstod vid sökning. Försök igen.</p>
            <Button variant="secondary" className="mt-3" onClick={() => void reload(VENUE_PAGE_SIZE, false)}>
              Försök igen
            </Button>
          </div>
        ) : (
          <div role="alert" className="rounded-2xl border border-red-300 bg-red-50 p-4 text-red-950">
            <p className="font-semibold">Kunde inte hämta verksamheter</p>
            <Button variant="secondary" className="mt-3" onClick={() => void reload(VENUE_PAGE_SIZE, false)}>
              Försök igen
            </Button>
          </div>
        ))}
      {load.status === 'ready' && (
        <>
          <p aria-live="polite" className="text-sm text-slate-700">
            {load.venues.length} av {load.matched}
          </p>
          {load.venues.length === 0 ? (
            <p className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-slate-700">Inga verksamheter hittades.</p>
          ) : (
            <ul className="space-y-3">
              {load.venues.map((v) => (
                <VenueCard key={v.id} venue={v} onDeleteUser={(venue) => setConfirm({ kind: 'user', venue })} onDeleteVenue={(venue) => setConfirm({ kind: 'venue', venue })} />
              ))}
            </ul>
          )}
          {load.venues.length < load.matched && (
            <div className="flex justify-center">
              <Button variant="secondary" onClick={() => void loadMore()} disabled={loadingMore}>
                {loadingMore ? 'Hämtar...' : 'Ladda fler'}
              </Button>
            </div>
          )}
        </>
      )}

      <AddVenueDialog open={adding} onClose={() => setAdding(false)} onCreated={() => void reload(loaded.current + 1, true)} />
      <ConfirmDialog
        open={!!confirm}
        busy={busy}
        title={confirm?.kind === 'user' ? 'Ta bort användare' : 'Ta bort verksamhet'}
        confirmLabel={confirm?.kind === 'user' ? 'Ta bort användaren' : 'Ta bort verksamheten'}
        onConfirm={() => void confirmDelete()}
        onClose={() => !busy && setConfirm(null)}
      >
        {confirm?.kind === 'user' ? (
          <p>
            Vill du ta bort användaren <strong>{confirm.venue.ownerEmail}</strong>? Alla användarens verksamheter, platser och quiz raderas. Detta kan inte ångras.
          </p>
        ) : (
          <p>
            Vill du ta bort verksamheten <strong>{confirm?.venue.name}</strong> med alla platser och quiz? Ägarens konto finns kvar. Detta kan inte ångras.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
