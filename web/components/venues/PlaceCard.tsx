import { Link } from 'react-router';
import type { OwnerPlace } from '../../api/venues';
import { CalendarSyncPanel } from '../calendar-sync/CalendarSyncPanel';
import PlaceQuizList from '../quizzes/PlaceQuizList';
import { buttonClass } from '../ui/Button';

/** One place on the dashboard (spec 02 §2.2): details, counts, actions and its upcoming quizzes. */
export function PlaceCard({
  place,
  onEdit,
  onDelete,
  primaryActions = true,
}: {
  place: OwnerPlace;
  onEdit: () => void;
  onDelete: () => void;
  primaryActions?: boolean;
}) {
  return (
    <article aria-labelledby={`place-${place.id}`} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h3 id={`place-${place.id}`} className="text-lg font-bold">
            {place.name}
          </h3>
          <p className="text-slate-700">
            {place.address}, {place.city}
          </p>
          {place.phone && <p className="text-sm text-slate-700">Telefon: {place.phone}</p>}
          {place.website && (
            <p className="text-sm">
              <a href={place.website} target="_blank" rel="noopener noreferrer" className="break-all text-brand-700 underline">
                {place.website.replace(/^https?:\/\//, '')}
              </a>
            </p>
          )}
        </div>
        <dl className="flex gap-4 text-center">
          <div>
            <dt className="text-xs text-slate-600">Totalt antal quiz</dt>
            <dd className="text-2xl font-extrabold">{place.totalQuizzes}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">Kommande quiz</dt>
            <dd className="text-2xl font-extrabold text-brand-700">{place.upcomingQuizzes}</dd>
          </div>
          {place.followers !== undefined && (
            <div>
              <dt className="text-xs text-slate-600">Följare</dt>
              <dd className="text-2xl font-extrabold">{place.followers}</dd>
            </div>
          )}
        </dl>
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        <Link to={`/admin/create-quiz?location=${encodeURIComponent(place.id)}`} className={buttonClass(primaryActions ? 'primary' : 'secondary')}>
          Skapa quiz<span className="sr-only"> på {place.name}</span>
        </Link>
        <Link to={`/admin/resultat/${encodeURIComponent(place.id)}`} className={buttonClass('secondary')}>
          Resultat<span className="sr-only"> på {place.name}</span>
        </Link>
        <button type="button" onClick={onEdit} className={buttonClass('secondary')}>
          Redigera<span className="sr-only"> {place.name}</span>
        </button>
        <button type="button" onClick={onDelete} className={buttonClass('ghost', 'text-red-700 hover:bg-red-50')}>
          Ta bort<span className="sr-only"> {place.name}</span>
        </button>
      </div>
      <PlaceQuizList locationId={place.id} venueId={place.venueId} city={place.city} />
      <CalendarSyncPanel locationId={place.id} placeName={place.name} />
    </article>
  );
}
