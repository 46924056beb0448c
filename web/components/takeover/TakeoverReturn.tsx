/**
 * Mounted once on the owner dashboard. On /admin?from=verify&takeoverVenue={id} (spec 02 §2.9, §4.5)
 * it completes the takeover if the verify page could not (POST /api/takeover is idempotent for the
 * new owner) and opens the success dialog with the inherited business, places, quizzes and the
 * priority-visibility note. A business already claimed by someone else gets a clear message.
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { TakeoverResult } from '../../../worker/features/takeover/contract';
import { api, ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { toast } from '../ui/Toast';
import { countText } from '../../../worker/lib/swedish';

export default function TakeoverReturn({ onDone }: { onDone?: () => void }) {
  const [search, setSearch] = useSearchParams();
  const venueId = search.get('from') === 'verify' ? search.get('takeoverVenue') : null;
  const [result, setResult] = useState<TakeoverResult | null>(null);
  const started = useRef<string | null>(null);

  // An effect event: the takeover starts when venueId changes, with the onDone of that moment.
  const takeOver = useEffectEvent((venueId: string) => {
    api<TakeoverResult>('/api/takeover', { body: { venueId } }).then(
      (res) => {
        setResult(res);
        onDone?.();
      },
      (err: unknown) => {
        const status = err instanceof ApiError ? err.status : 0;
        if (status === 404) toast({ title: 'Kunde inte hitta venue', variant: 'destructive' });
        else if (status === 409)
          toast({ title: 'Verksamheten kunde inte tas över', description: (err as ApiError).message, variant: 'destructive', duration: 10_000 });
        else toast({ title: 'Det gick inte att ta över verksamheten', description: err instanceof ApiError ? err.message : undefined, variant: 'destructive' });
        clearParams();
      },
    );
  });
  useEffect(() => {
    if (!venueId || started.current === venueId) return;
    started.current = venueId;
    takeOver(venueId);
  }, [venueId]);

  function clearParams() {
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('from');
        next.delete('takeoverVenue');
        return next;
      },
      { replace: true },
    );
  }

  function close() {
    setResult(null);
    clearParams();
  }

  return (
    <Dialog open={!!result} onClose={close} title="Grattis – verksamheten är nu din!">
      {result && (
        <div className="space-y-4 text-slate-800">
          <p>
            Du har tagit över <strong>{result.venue.name}</strong>.
          </p>
          <ul className="space-y-1 rounded-xl bg-slate-50 p-4">
            <li>Verksamheten: {result.venue.name}</li>
            <li>{countText(result.placesCount, 'plats', 'platser')}</li>
            <li>{result.quizzesCount} kommande quiz</li>
          </ul>
          <p className="rounded-xl border border-emerald-300 bg-emerald-50 p-3 text-emerald-950">
            Prioriterad synlighet: verksamheter med en riktig ägare visas före ej övertagna verksamheter i quizlistan.
          </p>
          <div className="flex justify-end">
            <Button onClick={close}>Kom igång</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
