import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { AdminVenue } from '../../../worker/features/admin/contract';
import { categoryLabel, countText, displayDate, displayTime } from '../../../worker/lib/swedish';
import { Button, buttonClass } from '../ui/Button';

/** One business in the superadmin list (spec 02 §2.7): badge, counts, expandable details, actions. */
export function VenueCard({
  venue,
  onDeleteUser,
  onDeleteVenue,
}: {
  venue: AdminVenue;
  onDeleteUser: (v: AdminVenue) => void;
  onDeleteVenue: (v: AdminVenue) => void;
}) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const morePlaces = venue.placesCount - venue.places.length;
  const moreQuizzes = venue.upcomingCount - venue.upcomingQuizzes.length;
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <article aria-label={venue.name}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 className="flex flex-wrap items-center gap-2 text-lg font-bold">
              <span className="break-words">{venue.name}</span>
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-semibold ${venue.kind === 'dummy' ? 'bg-amber-100 text-amber-900' : 'bg-emerald-100 text-emerald-900'}`}
                title={venue.ownedByHouse ? 'Ej övertagen (katalogkontot)' : venue.ownedByViewer ? 'Ägs av dig' : 'Ägs av en annan användare'}
              >
                {venue.kind === 'dummy' ? 'Fiktiv' : 'Riktig'}
              </span>
            </h3>
            <p className="text-sm text-slate-600">
              {venue.city ? `${venue.city} · ` : ''}
              {venue.ownedByHouse ? 'Ej övertagen' : venue.ownerEmail}
            </p>
            <p className="mt-1 text-sm text-slate-800">
              {countText(venue.placesCount, 'plats', 'platser')} · {venue.upcomingCount} kommande quiz
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Link to={`/admin/venue/${venue.id}`} className={buttonClass('primary', 'text-sm')}>
              Visa verksamhet
            </Link>
            <Button variant="secondary" className="text-sm" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen((o) => !o)}>
              {open ? 'Dölj detaljer' : 'Visa detaljer'}
            </Button>
          </div>
        </div>
        <div id={detailsId} hidden={!open} className="mt-4 space-y-3 border-t border-slate-100 pt-3 text-sm">
          <p className="text-slate-700">{venue.description || 'Ingen beskrivning.'}</p>
          <div>
            <h4 className="font-semibold">Platser</h4>
            {venue.places.length ? (
              <ul className="list-inside list-disc">
                {venue.places.map((p) => (
                  <li key={p.id}>
                    {p.name} – {p.address}, {p.city}
                  </li>
                ))}
                {morePlaces > 0 && <li className="list-none text-slate-600">+{morePlaces} fler</li>}
              </ul>
            ) : (
              <p className="text-slate-600">Inga platser.</p>
            )}
          </div>
          <div>
            <h4 className="font-semibold">Kommande quiz</h4>
            {venue.upcomingQuizzes.length ? (
              <ul className="list-inside list-disc">
                {venue.upcomingQuizzes.map((q) => (
                  <li key={q.id}>
                    {displayDate(q.date)} {displayTime(q.startTime)} · {categoryLabel(q.category, q.theme)} · {q.placeName}
                  </li>
                ))}
                {moreQuizzes > 0 && <li className="list-none text-slate-600">+{moreQuizzes} fler</li>}
              </ul>
            ) : (
              <p className="text-slate-600">Inga kommande quiz.</p>
            )}
          </div>
          <div className="flex flex-wrap gap-2 pt-2">
            {!venue.ownedByViewer && !venue.ownedByHouse && (
              <Button variant="danger" className="text-sm" onClick={() => onDeleteUser(venue)}>
                Ta bort användare
              </Button>
            )}
            <Button variant="danger" className="text-sm" onClick={() => onDeleteVenue(venue)}>
              Ta bort verksamhet
            </Button>
          </div>
        </div>
      </article>
    </li>
  );
}
