/** /admin/locations: the places of the owner's business with the same cards as the dashboard. */
import { Link, useSearchParams } from 'react-router';
import { useDashboard } from '../../api/venues';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { buttonClass } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { DashboardError, VenueNotFound } from '../../components/venues/DashboardStates';
import { PlacesSection } from '../../components/venues/PlacesSection';
import { ApiError } from '../../lib/api';
import type { SessionUser } from '../../lib/session';

export default function LocationsPage() {
  return <RequireAuth require="login">{(user) => <Locations user={user} />}</RequireAuth>;
}

function Locations({ user }: { user: SessionUser }) {
  const [search] = useSearchParams();
  const { query, retry } = useDashboard(search.get('venueId') ?? undefined);
  let body: React.ReactNode;
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  if (query.isPending) body = <Spinner label="Laddar platser..." />;
  else if (notFound) body = <VenueNotFound isSuperadmin={user.isSuperadmin} onRetry={retry} />;
  else if (query.isError) body = <DashboardError error={query.error} onRetry={retry} />;
  else if (!query.data.venue)
    body = (
      <div className="mx-auto max-w-lg space-y-4 text-center">
        <h1 className="text-3xl font-extrabold">Ingen verksamhet hittad</h1>
        <p className="text-slate-700">Skapa en verksamhet innan du lägger till platser.</p>
        <Link to={user.isSuperadmin ? '/superadmin' : '/admin'} className={buttonClass('primary')}>
          {user.isSuperadmin ? 'Tillbaka till superadmin' : 'Till min sida'}
        </Link>
      </div>
    );
  else
    body = (
      <div className="space-y-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-3xl font-extrabold">Platser för {query.data.venue.name}</h1>
          <Link to={query.data.viewingAsSuperadmin ? `/admin/venue/${query.data.venue.id}` : '/admin'} className={buttonClass('secondary')}>
            Till översikten
          </Link>
        </div>
        <PlacesSection venue={query.data.venue} places={query.data.places} />
      </div>
    );
  return <div className="mx-auto max-w-5xl px-4 py-8">{body}</div>;
}
