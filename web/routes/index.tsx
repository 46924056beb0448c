/**
 * The SPA's route table (client-rendered screens: account, owner, superadmin). Each screen is lazy so
 * a visitor never downloads owner code. Public pages (/, /quiz/...) are server-rendered by the Worker
 * and are not in this table. The paths live in worker/lib/spa-routes.ts: the Worker answers any other
 * path with this app's 404 view and status 404.
 */
import type { RouteObject } from 'react-router';
import { SPA_ROUTE_PATHS, type SpaRoutePath } from '../../worker/lib/spa-routes';
import { NotFound } from './NotFound';

/**
 * Every screen's own <title> (issue 44.9: a tab, a bookmark and the history list named each screen "Quizkväll –
 * Upptäck lokala quiz"). React 19 hoists a <title> rendered anywhere into the document's head.
 */
export const SCREEN_TITLES: Record<SpaRoutePath, string> = {
  '/login': 'Logga in',
  '/register': 'Skapa konto',
  '/verify': 'Bekräfta e-postadressen',
  '/forgot-password': 'Glömt lösenordet',
  '/update-password': 'Välj nytt lösenord',
  '/auth-redirect': 'Loggar in',
  '/account': 'Kontoinställningar',
  '/admin': 'Mina verksamheter',
  '/admin/venue/:venueId': 'Mina verksamheter',
  '/admin/locations': 'Platser',
  '/admin/create-venue': 'Registrera verksamhet',
  '/tipsa': 'Tipsa om ett quiz',
  '/superadmin': 'Superadmin',
  '/premium-demo': 'Premium Utvald – demo',
  '/premium-mockup': 'Premium Utvald – mockup',
  '/marketing-mockup': 'Marknadsför dina quizkvällar – designförslag',
  '/admin/create-quiz': 'Skapa quiz',
  '/create-quiz': 'Skapa quiz',
  '/edit-quiz/:id': 'Redigera quiz',
  '/edit-series/:id': 'Redigera serie',
  '/admin/quizzes': 'Hantera quiz',
  '/admin/analytics': 'Statistik',
  '/admin/resultat/:locationId': 'Resultat',
  '/admin/ligor': 'Ligor',
};

export const documentTitle = (screenTitle: string) => `${screenTitle} | Quizkväll`;

/** A screen under its own title: the lazy route's element (a component defined once, not per route). */
function Titled({ title, Screen }: { title: string; Screen: React.ComponentType }) {
  return (
    <>
      <title>{documentTitle(title)}</title>
      <Screen />
    </>
  );
}

const titled = (path: SpaRoutePath, load: () => Promise<{ default: React.ComponentType }>) => () =>
  load().then(({ default: Screen }) => ({ element: <Titled title={SCREEN_TITLES[path]} Screen={Screen} /> }));

/** Every screen of SPA_ROUTE_PATHS (the one list, shared with the Worker's 404 decision) and only those. */
const SCREENS: Record<SpaRoutePath, () => Promise<{ default: React.ComponentType }>> = {
  '/login': () => import('./auth/LoginPage'),
  '/register': () => import('./auth/RegisterPage'),
  '/verify': () => import('./auth/VerifyPage'),
  '/forgot-password': () => import('./auth/ForgotPasswordPage'),
  '/update-password': () => import('./auth/UpdatePasswordPage'),
  '/auth-redirect': () => import('./auth/AuthRedirectPage'),
  '/account': () => import('./account/AccountSettingsPage'),
  '/admin': () => import('./admin/DashboardPage'),
  '/admin/venue/:venueId': () => import('./admin/DashboardPage'),
  '/admin/locations': () => import('./admin/LocationsPage'),
  '/admin/create-venue': () => import('./admin/CreateVenuePage'),
  '/tipsa': () => import('./tips/TipPage'),
  '/superadmin': () => import('./superadmin/SuperadminPage'),
  '/premium-demo': () => import('./demo/PremiumDemoPage'),
  '/premium-mockup': () => import('./demo/PremiumMockupPage'),
  '/marketing-mockup': () => import('./demo/MarketingMockupPage'),
  '/admin/create-quiz': () => import('./admin/CreateQuizPage'),
  '/create-quiz': () => import('./admin/CreateQuizPage'),
  '/edit-quiz/:id': () => import('./admin/EditQuizPage'),
  '/edit-series/:id': () => import('./admin/EditSeriesPage'),
  '/admin/quizzes': () => import('./admin/QuizzesPage'),
  '/admin/analytics': () => import('./admin/AnalyticsPage'),
  '/admin/resultat/:locationId': () => import('./admin/ResultsAdminPage'),
  '/admin/ligor': () => import('./admin/LeaguesPage'),
};

export const routes: RouteObject[] = [...SPA_ROUTE_PATHS.map((path) => ({ path, lazy: titled(path, SCREENS[path]) })), { path: '*', Component: NotFound }];
