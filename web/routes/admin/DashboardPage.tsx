/**
 * Owner dashboard: /admin, and /admin/venue/{venueId} where a superadmin opens any business
 * (spec 02 §2.1). Without a business: onboarding. Otherwise: header, place cards, promotion info.
 */
import { useEffect, useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { useDashboard } from '../../api/venues';
import { RequireAuth } from '../../components/auth/RequireAuth';
import PaymentReturn from '../../components/promotion/PaymentReturn';
import TakeoverReturn from '../../components/takeover/TakeoverReturn';
import { EmbedSnippet } from '../../components/embed/EmbedSnippet';
import { Spinner } from '../../components/ui/Spinner';
import { DashboardError, VenueNotFound } from '../../components/venues/DashboardStates';
import { QUIZZES_CHANGED_EVENT } from '../../components/quizzes/PlaceQuizList';
import { Onboarding } from '../../components/venues/Onboarding';
import { PlacesSection } from '../../components/venues/PlacesSection';
import { ProfileEditor } from '../../components/venues/ProfileEditor';
import { PromotionInfo } from '../../components/venues/PromotionInfo';
import { VenueHeader } from '../../components/venues/VenueHeader';
import type { SessionUser } from '../../lib/session';

export default function DashboardPage() {
  return <RequireAuth require="login">{(user) => <Dashboard user={user} />}</RequireAuth>;
}

function Dashboard({ user }: { user: SessionUser }) {
  const params = useParams();
  const [search] = useSearchParams();
  const venueId = params.venueId ?? search.get('venueId') ?? undefined;
  const redirectSuperadmin = user.isSuperadmin && !venueId;
  const { state, reload, retry } = useDashboard(venueId, !redirectSuperadmin);
  const [profileOpen, setProfileOpen] = useState(false);
  // The place cards' quiz counts follow changes made in their quiz lists.
  useEffect(() => {
    window.addEventListener(QUIZZES_CHANGED_EVENT, reload);
    return () => window.removeEventListener(QUIZZES_CHANGED_EVENT, reload);
  }, [reload]);

  if (redirectSuperadmin) return <Navigate to="/superadmin" replace />;

  let body: React.ReactNode;
  if (state.status === 'loading') body = <Spinner label="Laddar din verksamhet..." />;
  else if (state.status === 'not-found') body = <VenueNotFound isSuperadmin={user.isSuperadmin} onRetry={retry} />;
  else if (state.status === 'error') body = <DashboardError error={state.error} onRetry={retry} />;
  else if (!state.data.venue) body = <Onboarding onCreated={reload} />;
  else {
    const { venue, places, hasQuizzes } = state.data;
    body = (
      <div className="space-y-8">
        <VenueHeader venue={venue} data={state.data} isSuperadmin={user.isSuperadmin} onEditProfile={() => setProfileOpen(true)} />
        <PlacesSection venue={venue} places={places} onChanged={reload} />
        {hasQuizzes && <PromotionInfo />}
        {hasQuizzes && <EmbedSnippet venue={venue} places={places} />}
        <ProfileEditor key={venue.id} open={profileOpen} onClose={() => setProfileOpen(false)} venue={venue} onSaved={reload} isSuperadmin={user.isSuperadmin} />
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      {body}
      <PaymentReturn onPaid={reload} />
      <TakeoverReturn onDone={reload} />
    </div>
  );
}
