/** /admin/locations: the places of the owner's business with the same cards as the dashboard. */
import { Link, useSearchParams } from 'react-router';
import { useDashboard } from '../../api/venues';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { buttonClass } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { DashboardError, VenueNotFound } from '../../components/venues/DashboardStates';
import { PlacesSection } from '../../components/venues/PlacesSection';
import type { SessionUser } from '../../lib/session';

export default function LocationsPage() {
  return <RequireAuth require="login">{(user) => <Locations user={user} />}</RequireAuth>;
}

function Locations({ user }: { user: SessionUser }) {
  const [search] = useSearchParams();
  const { state, reload, retry } = useDashboard(search.get('venueId') ?? undefined);
  let body: React.ReactNode;
  if (state.status === 'loading') body = <Spinner label="Laddar platser..." />;
  else if (state.status === 'not-found') body = <VenueNotFound isSuperadmin={user.isSuperadmin} onRetry={retry} />;
  else if (state.status === 'error') body = <DashboardError error={state.error} onRetry={retry} />;
  else if (!state.data.venue)
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
          <h1 className="text-3xl font-extrabold">Platser för {state.data.venue.name}</h1>
          <Link to={state.data.viewingAsSuperadmin ? `/admin/venue/${state.data.venue.id}` : '/admin'} className={buttonClass('secondary')}>
            Till översikten
          </Link>
        </div>
        <PlacesSection venue={state.data.venue} places={state.data.places} onChanged={reload} />
      </div>
    );
  return <div className="mx-auto max-w-5xl px-4 py-8">{body}</div>;
}
