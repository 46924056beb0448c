/**
 * Owner dashboard: /admin, and /admin/venue/{venueId} where a superadmin opens any business
 * (spec 02 §2.1). Without a business: onboarding. Otherwise: header, place cards, promotion info; without a quiz yet,
 * one next step ("Skapa ditt första quiz") instead of the freshness notice (issue 44.6).
 */
import { FreshnessNotice } from '../../components/quizzes/FreshnessNotice';
import { LeagueInvitationsNotice } from '../../components/leagues/LeagueInvitationsNotice';
import { QuizmasterSuggestions } from '../../components/quizmasters/QuizmasterSuggestions';
import { useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { useDashboard } from '../../api/venues';
import { RequireAuth } from '../../components/auth/RequireAuth';
import PaymentReturn from '../../components/promotion/PaymentReturn';
import TakeoverReturn from '../../components/takeover/TakeoverReturn';
import { EmbedSnippet } from '../../components/embed/EmbedSnippet';
import { OwnerKit } from '../../components/kit/OwnerKit';
import { Spinner } from '../../components/ui/Spinner';
import { DashboardError, VenueNotFound } from '../../components/venues/DashboardStates';
import { NextStep } from '../../components/venues/NextStep';
import { Onboarding } from '../../components/venues/Onboarding';
import { PlacesSection } from '../../components/venues/PlacesSection';
import { ProfileEditor } from '../../components/venues/ProfileEditor';
import { PromotionInfo } from '../../components/venues/PromotionInfo';
import { VenueHeader } from '../../components/venues/VenueHeader';
import { ApiError } from '../../lib/api';
import type { SessionUser } from '../../lib/session';

export default function DashboardPage() {
  return <RequireAuth require="login">{(user) => <Dashboard user={user} />}</RequireAuth>;
}

function Dashboard({ user }: { user: SessionUser }) {
  const params = useParams();
  const [search] = useSearchParams();
  const venueId = params.venueId ?? search.get('venueId') ?? undefined;
  const redirectSuperadmin = user.isSuperadmin && !venueId;
  const { query, reload, retry } = useDashboard(venueId, !redirectSuperadmin, search.has('takeoverVenue'));
  const [profileOpen, setProfileOpen] = useState(false);

  if (redirectSuperadmin) return <Navigate to="/superadmin" replace />;

  let body: React.ReactNode;
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  if (query.isPending) body = <Spinner label="Laddar din verksamhet..." />;
  else if (notFound) body = <VenueNotFound isSuperadmin={user.isSuperadmin} onRetry={retry} />;
  else if (query.isError) body = <DashboardError error={query.error} onRetry={retry} />;
  else if (!query.data.venue) body = <Onboarding />;
  else {
    const { venue, places, hasQuizzes } = query.data;
    body = (
      <div className="space-y-8">
        <VenueHeader venue={venue} data={query.data} isSuperadmin={user.isSuperadmin} onEditProfile={() => setProfileOpen(true)} />
        {/* Issue 44.6: an empty business gets one next step; "Stämmer fortfarande" only once there are quizzes to confirm. */}
        {hasQuizzes ? <FreshnessNotice venueId={venue.id} /> : <NextStep places={places} />}
        {hasQuizzes && <QuizmasterSuggestions />}
        {hasQuizzes && <LeagueInvitationsNotice />}
        <PlacesSection venue={venue} places={places} primaryActions={hasQuizzes} />
        {hasQuizzes && <PromotionInfo />}
        {hasQuizzes && <OwnerKit venueId={venue.id} />}
        {hasQuizzes && <EmbedSnippet venue={venue} places={places} />}
        <ProfileEditor key={venue.id} open={profileOpen} onClose={() => setProfileOpen(false)} venue={venue} isSuperadmin={user.isSuperadmin} />
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
