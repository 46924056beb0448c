/**
 * /admin/analytics (issue 18, spec 01 §2 / 02 §2): the owner's numbers; `?venueId=` picks a business
 * (any business for a superadmin, one's own otherwise).
 */
import { Link, useSearchParams } from 'react-router';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { AnalyticsView } from '../../components/analytics/AnalyticsView';
import { buttonClass } from '../../components/ui/Button';

export default function AnalyticsPage() {
  return <RequireAuth require="admin">{() => <Page />}</RequireAuth>;
}

function Page() {
  const [search] = useSearchParams();
  const venueId = search.get('venueId') ?? undefined;
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-extrabold">Statistik</h1>
        <Link to={venueId ? `/admin/venue/${encodeURIComponent(venueId)}` : '/admin'} className={buttonClass('secondary')}>
          Tillbaka till översikten
        </Link>
      </div>
      <AnalyticsView venueId={venueId} />
    </div>
  );
}
