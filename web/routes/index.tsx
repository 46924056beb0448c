/**
 * The SPA's route table (client-rendered screens: account, owner, superadmin). Each screen is lazy so
 * a visitor never downloads owner code. Public pages (/, /quiz/...) are server-rendered by the Worker
 * and are not in this table.
 */
import type { RouteObject } from 'react-router';
import { NotFound } from './NotFound';

const screen = (load: () => Promise<{ default: React.ComponentType }>) => () => load().then((m) => ({ Component: m.default }));

export const routes: RouteObject[] = [
  // Screens are added here by each feature, e.g.
  // { path: '/login', lazy: screen(() => import('./auth/LoginPage')) },
  { path: '/login', lazy: screen(() => import('./auth/LoginPage')) },
  { path: '/register', lazy: screen(() => import('./auth/RegisterPage')) },
  { path: '/verify', lazy: screen(() => import('./auth/VerifyPage')) },
  { path: '/forgot-password', lazy: screen(() => import('./auth/ForgotPasswordPage')) },
  { path: '/update-password', lazy: screen(() => import('./auth/UpdatePasswordPage')) },
  { path: '/auth-redirect', lazy: screen(() => import('./auth/AuthRedirectPage')) },
  { path: '/account', lazy: screen(() => import('./account/AccountSettingsPage')) },
  { path: '/admin', lazy: screen(() => import('./admin/DashboardPage')) },
  { path: '/admin/venue/:venueId', lazy: screen(() => import('./admin/DashboardPage')) },
  { path: '/admin/locations', lazy: screen(() => import('./admin/LocationsPage')) },
  { path: '/admin/create-venue', lazy: screen(() => import('./admin/CreateVenuePage')) },
  { path: '/tipsa', lazy: screen(() => import('./tips/TipPage')) },
  { path: '/superadmin', lazy: screen(() => import('./superadmin/SuperadminPage')) },
  { path: '/premium-demo', lazy: screen(() => import('./demo/PremiumDemoPage')) },
  { path: '/premium-mockup', lazy: screen(() => import('./demo/PremiumMockupPage')) },
  { path: '/marketing-mockup', lazy: screen(() => import('./demo/MarketingMockupPage')) },
  { path: '/admin/create-quiz', lazy: screen(() => import('./admin/CreateQuizPage')) },
  { path: '/create-quiz', lazy: screen(() => import('./admin/CreateQuizPage')) },
  { path: '/edit-quiz/:id', lazy: screen(() => import('./admin/EditQuizPage')) },
  { path: '/edit-series/:id', lazy: screen(() => import('./admin/EditSeriesPage')) },
  { path: '/admin/quizzes', lazy: screen(() => import('./admin/QuizzesPage')) },
  { path: '/admin/analytics', lazy: screen(() => import('./admin/AnalyticsPage')) },
  { path: '*', Component: NotFound },
];

export { screen };
