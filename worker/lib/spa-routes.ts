/**
 * The one list of the SPA's screens (client-rendered: sign-in, account, owner, superadmin, demos). The
 * router (web/routes/index.tsx) builds its table from it, and the Worker uses it to tell a real screen
 * (index.html with 200) from an unknown path (the same page with 404; issue 29.10). A `:name` segment
 * matches one non-empty path segment, as in react-router.
 */
export const SPA_ROUTE_PATHS = [
  '/login',
  '/register',
  '/verify',
  '/forgot-password',
  '/update-password',
  '/auth-redirect',
  '/account',
  '/admin',
  '/admin/venue/:venueId',
  '/admin/locations',
  '/admin/create-venue',
  '/tipsa',
  '/superadmin',
  '/premium-demo',
  '/premium-mockup',
  '/marketing-mockup',
  '/admin/create-quiz',
  '/create-quiz',
  '/edit-quiz/:id',
  '/edit-series/:id',
  '/admin/quizzes',
  '/admin/analytics',
  '/admin/resultat/:locationId',
  '/admin/ligor',
] as const;

export type SpaRoutePath = (typeof SPA_ROUTE_PATHS)[number];

const PATTERNS = SPA_ROUTE_PATHS.map((p) => p.split('/').slice(1));

/** True when `pathname` is one of the SPA's screens (a trailing slash is allowed, as react-router does). */
export function isSpaPath(pathname: string): boolean {
  const parts = pathname.replace(/\/+$/, '').split('/').slice(1);
  return PATTERNS.some(
    (pattern) => pattern.length === parts.length && pattern.every((seg, i) => (seg.startsWith(':') ? parts[i]!.length > 0 : seg === parts[i])),
  );
}
