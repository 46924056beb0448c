import { Link, useNavigate } from 'react-router';
import type { DashboardResponse, OwnerVenue } from '../../api/venues';
import { Button, buttonClass } from '../ui/Button';
import { SelectField } from '../ui/Field';

/** 'Storgatan 1, Malmö', without repeating a city the address already ends with. */
function venueAddressLine(v: OwnerVenue): string {
  if (v.address && v.city && v.address.toLowerCase().endsWith(v.city.toLowerCase())) return v.address;
  return [v.address, v.city].filter(Boolean).join(', ');
}

/**
 * Business header of the dashboard (spec 02 §2.1): name, visibility, the profile editor, visitor view,
 * sign out and, for a superadmin, back to superadmin. An owner with several businesses can switch.
 */
export function VenueHeader({
  venue,
  data,
  isSuperadmin,
  onEditProfile,
}: {
  venue: OwnerVenue;
  data: DashboardResponse;
  isSuperadmin: boolean;
  onEditProfile: () => void;
}) {
  const navigate = useNavigate();
  return (
    <div className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      {data.viewingAsSuperadmin && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-900">Du visar den här verksamheten som superadmin.</p>
      )}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Min verksamhet</p>
          <h1 className="text-3xl font-extrabold break-words">{venue.name}</h1>
          {(venue.address || venue.city) && <p className="text-slate-700">{venueAddressLine(venue)}</p>}
          {!venue.isPublic && <p className="mt-1 text-sm font-semibold text-red-700">Dold för besökare</p>}
        </div>
        <nav aria-label="Verksamhet" className="flex flex-wrap gap-2">
          {isSuperadmin && (
            <Link to="/superadmin" className={buttonClass('secondary')}>
              Tillbaka till superadmin
            </Link>
          )}
          <a href="/" className={buttonClass('secondary')}>
            Besöksvy
          </a>
          <Button variant="secondary" onClick={onEditProfile}>
            Redigera profil
          </Button>
          <Link to="/admin/quizzes" className={buttonClass('secondary')}>
            Hantera quiz
          </Link>
          <Link to={`/admin/analytics?venueId=${encodeURIComponent(venue.id)}`} className={buttonClass('secondary')}>
            Statistik
          </Link>
          <Link to="/admin/ligor" className={buttonClass('secondary')}>
            Ligor
          </Link>
        </nav>
      </div>
      {data.ownVenues.length > 1 && (
        <div className="max-w-xs">
          <SelectField label="Byt verksamhet" value={venue.id} onChange={(e) => navigate(`/admin/venue/${encodeURIComponent(e.target.value)}`)}>
            {data.ownVenues.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
              </option>
            ))}
          </SelectField>
        </div>
      )}
    </div>
  );
}
