import { useEffect, useState } from 'react';
import type { AdminVenue } from '../../../worker/features/admin/contract';
import { Button } from '../ui/Button';
import { Spinner } from '../ui/Spinner';
import { ApiError } from '../../lib/api';
import { toast } from '../ui/Toast';
import { AddVenueDialog } from './AddVenueDialog';
import { deleteUserErrorMessage, useAdminVenues, useDeleteAdminVenue, useDeleteUser } from '../../api/admin';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { VenueCard } from './VenueCard';

/** Search debounce (spec 02 §9). */
const DEBOUNCE_MS = 300;

/** Every business, Swedish order, searchable, 'Ladda fler' in pages of 10, refreshed on window focus. */
export function VenueList() {
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  const [adding, setAdding] = useState(false);
  const [confirm, setConfirm] = useState<{ kind: 'user' | 'venue'; venue: AdminVenue } | null>(null);
  const list = useAdminVenues(q);
  const deleteUser = useDeleteUser();
  const deleteVenue = useDeleteAdminVenue();
  const busy = deleteUser.isPending || deleteVenue.isPending;
  const { refetch } = list;

  useEffect(() => {
    const t = setTimeout(() => setQ(input.trim()), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [input]);

  // Businesses created elsewhere show up when the superadmin comes back to the tab (spec 02 §2.7).
  useEffect(() => {
    const onFocus = () => void refetch();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [refetch]);

  const pages = list.data?.pages ?? [];
  const venues = pages.flatMap((p) => p.venues).filter((v, i, all) => all.findIndex((o) => o.id === v.id) === i);
  const matched = pages.at(-1)?.matched ?? 0;

  async function loadMore() {
    const r = await list.fetchNextPage();
    if (r.isFetchNextPageError) toast({ title: 'Kunde inte hämta verksamheter', variant: 'destructive' });
  }

  async function confirmDelete() {
    if (!confirm) return;
    try {
      if (confirm.kind === 'user') {
        const res = await deleteUser.mutateAsync(confirm.venue.userId);
        toast({ title: 'Användaren har tagits bort', description: `${res.email} och dess verksamheter är raderade.`, variant: 'success' });
      } else {
        await deleteVenue.mutateAsync(confirm.venue.id);
        toast({ title: 'Verksamheten har tagits bort', description: confirm.venue.name, variant: 'success' });
      }
      setConfirm(null);
    } catch (err) {
      toast({
        title:
          confirm.kind === 'user'
            ? deleteUserErrorMessage(err)
            : err instanceof ApiError && err.status === 409
              ? err.message // an open checkout or a paid promotion that has not run (issue 13.2)
              : 'Kunde inte ta bort verksamheten. Försök igen.',
        variant: 'destructive',
      });
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

      {list.isPending && <Spinner label="Hämtar verksamheter..." />}
      {list.isError &&
        !list.data &&
        (q ? (
          <div role="alert" className="rounded-2xl border border-red-300 bg-red-50 p-4 text-red-950">
            <p className="font-semibold">Sökfel</p>
            <p>Ett fel uppstod vid sökning. Försök igen.</p>
            <Button variant="secondary" className="mt-3" onClick={() => void refetch()}>
              Försök igen
            </Button>
          </div>
        ) : (
          <div role="alert" className="rounded-2xl border border-red-300 bg-red-50 p-4 text-red-950">
            <p className="font-semibold">Kunde inte hämta verksamheter</p>
            <Button variant="secondary" className="mt-3" onClick={() => void refetch()}>
              Försök igen
            </Button>
          </div>
        ))}
      {list.data && (
        <>
          <p aria-live="polite" className="text-sm text-slate-700">
            {venues.length} av {matched}
          </p>
          {venues.length === 0 ? (
            <p className="rounded-2xl border border-slate-200 bg-white p-6 text-center text-slate-700">Inga verksamheter hittades.</p>
          ) : (
            <ul className="space-y-3">
              {venues.map((v) => (
                <VenueCard
                  key={v.id}
                  venue={v}
                  onDeleteUser={(venue) => setConfirm({ kind: 'user', venue })}
                  onDeleteVenue={(venue) => setConfirm({ kind: 'venue', venue })}
                />
              ))}
            </ul>
          )}
          {venues.length < matched && (
            <div className="flex justify-center">
              <Button variant="secondary" onClick={() => void loadMore()} disabled={list.isFetchingNextPage}>
                {list.isFetchingNextPage ? 'Hämtar...' : 'Ladda fler'}
              </Button>
            </div>
          )}
        </>
      )}

      <AddVenueDialog open={adding} onClose={() => setAdding(false)} />
      <ConfirmDialog
        open={!!confirm}
        busy={busy}
        busyLabel="Tar bort..."
        title={confirm?.kind === 'user' ? 'Ta bort användare' : 'Ta bort verksamhet'}
        confirmLabel={confirm?.kind === 'user' ? 'Ta bort användaren' : 'Ta bort verksamheten'}
        onConfirm={() => void confirmDelete()}
        onClose={() => !busy && setConfirm(null)}
      >
        {confirm?.kind === 'user' ? (
          <p>
            Vill du ta bort användaren <strong>{confirm.venue.ownerEmail}</strong>? Alla användarens verksamheter, platser och quiz raderas. Detta kan inte
            ångras.
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
