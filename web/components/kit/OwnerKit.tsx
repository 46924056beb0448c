/**
 * Owner dashboard: the kit (issue 48.7). For each series or single quiz with something coming, downloads of an A4
 * poster and an A6 table tent (PDF) and an Instagram post and story (PNG) — and, once the quiz has posted results,
 * the latest night's top 3 as a post and a story — rendered by the Worker
 * (worker/features/kit). Plain links with `download`: the browser saves the file, no JavaScript needed for it.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { KIT_ITEMS, kitFilesFor, kitPath, type KitListResponse } from '../../../worker/features/kit/contract';
import { api } from '../../lib/api';
import { OWNER_ROOT } from '../../lib/query';
import { buttonClass } from '../ui/Button';

export function OwnerKit({ venueId }: { venueId: string }) {
  const id = useId();
  const query = useQuery({
    queryKey: [...OWNER_ROOT, 'kit', venueId],
    queryFn: () => api<KitListResponse>(`/api/owner/kit?venueId=${encodeURIComponent(venueId)}`),
  });
  const [chosen, setChosen] = useState('');
  const units = query.data?.units ?? [];
  if (query.isPending || units.length === 0) return null;
  const unit = units.find((u) => `${u.unit}:${u.id}` === chosen) ?? units[0]!;
  return (
    <section aria-labelledby={`${id}-h`} className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <div>
        <h2 id={`${id}-h`} className="text-xl font-bold">
          Affischer och bilder
        </h2>
        <p className="mt-1 text-slate-700">
          Skriv ut en affisch eller bordsskylt, eller lägg upp en bild på Instagram. QR-koden leder till er sida hos oss, och besöken syns under Statistik.
        </p>
      </div>
      {units.length > 1 && (
        <label className="flex flex-col gap-1 text-sm font-semibold">
          Quiz
          <select
            className="rounded-xl border border-slate-300 px-3 py-2 font-normal"
            value={`${unit.unit}:${unit.id}`}
            onChange={(e) => setChosen(e.target.value)}
          >
            {units.map((u) => (
              <option key={`${u.unit}:${u.id}`} value={`${u.unit}:${u.id}`}>
                {u.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {units.length === 1 && <p className="text-sm font-semibold">{unit.label}</p>}
      <ul className="grid gap-2 sm:grid-cols-2">
        {kitFilesFor(unit).map((file) => (
          <li key={file}>
            <a href={kitPath(unit.unit, unit.id, file)} download={`quizkvall-${file}`} className={buttonClass('secondary', 'w-full text-sm')}>
              {KIT_ITEMS[file].label}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
