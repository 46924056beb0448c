/**
 * Route guard for SPA screens (spec 01 §2 "Route guard behaviour"); the props are the contract.
 *   loading              → spinner 'Verifierar autentisering...'
 *   session check failed → 'Autentiseringsfel' screen with 'Gå till inloggning'
 *   require='login'      → no user: /login?redirect={path+query}
 *   require='admin'      → not admin or superadmin: /
 *   require='superadmin' → not superadmin: /admin
 * The server checks every call again; this only decides what to show.
 */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession, type SessionUser } from '../../lib/session';
import { Spinner } from '../ui/Spinner';
import { AuthErrorScreen } from './AuthErrorScreen';

export function RequireAuth({ require, children }: { require: 'login' | 'admin' | 'superadmin'; children: (user: SessionUser) => ReactNode }) {
  const state = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <Spinner label="Verifierar autentisering..." />;
  if (state.status === 'error') return <AuthErrorScreen redirect={location.pathname + location.search} />;
  const user = state.session.user;
  if (!user) return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  if (require === 'admin' && !user.roles.includes('admin') && !user.isSuperadmin) return <Navigate to="/" replace />;
  if (require === 'superadmin' && !user.isSuperadmin) return <Navigate to="/admin" replace />;
  return <>{children(user)}</>;
}
