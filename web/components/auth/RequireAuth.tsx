/**
 * Route guard for SPA screens (spec 01 §2 "Route guard behaviour"). Owned by the accounts work of
 * issue 4, which refines it (auth error screen, periodic validation); the props are the contract.
 *   require='login'      → no user: /login?redirect={path+query}
 *   require='admin'      → not admin or superadmin: /
 *   require='superadmin' → not superadmin: /admin
 */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession, type SessionUser } from '../../lib/session';
import { Spinner } from '../ui/Spinner';

export function RequireAuth({ require, children }: { require: 'login' | 'admin' | 'superadmin'; children: (user: SessionUser) => ReactNode }) {
  const state = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <Spinner label="Verifierar autentisering..." />;
  const user = state.status === 'ready' ? state.session.user : null;
  if (!user) return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  if (require === 'admin' && !user.roles.includes('admin') && !user.isSuperadmin) return <Navigate to="/" replace />;
  if (require === 'superadmin' && !user.isSuperadmin) return <Navigate to="/admin" replace />;
  return <>{children(user)}</>;
}
