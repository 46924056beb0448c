import { Link } from 'react-router';
import { ApiError } from '../../lib/api';
import { Button, buttonClass } from '../ui/Button';
import { ErrorScreen } from '../layout/ErrorScreen';

/** 'Venue not found' (spec 02 §2.1): back to superadmin (or the dashboard) and retry. */
export function VenueNotFound({ isSuperadmin, onRetry }: { isSuperadmin: boolean; onRetry: () => void }) {
  return (
    <div role="alert" className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-3xl font-extrabold">Ingen verksamhet hittad</h1>
      <p className="text-slate-700">Verksamheten finns inte, eller så har den tagits bort.</p>
      <div className="flex flex-wrap justify-center gap-3">
        {isSuperadmin ? (
          <Link to="/superadmin" className={buttonClass('secondary')}>
            Tillbaka till superadmin
          </Link>
        ) : (
          <Link to="/admin" className={buttonClass('secondary')}>
            Till min sida
          </Link>
        )}
        <Button onClick={onRetry}>Försök igen</Button>
      </div>
    </div>
  );
}

/** Load failure: no access (403) or anything else. */
export function DashboardError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  if (error instanceof ApiError && error.status === 403) {
    return (
      <div role="alert" className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center gap-4 px-4 text-center">
        <h1 className="text-3xl font-extrabold">Ingen åtkomst</h1>
        <p className="text-slate-700">Du har inte behörighet att visa den här verksamheten.</p>
        <Link to="/admin" className={buttonClass('primary')}>
          Till min sida
        </Link>
      </div>
    );
  }
  return <ErrorScreen onRetry={onRetry} />;
}
