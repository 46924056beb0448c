/** Spec 01 §8: how auth errors become toasts. */
import { ApiError } from '../../lib/api';
import type { SessionUser } from '../../lib/session';
import { toast } from '../ui/Toast';
import { safeRedirect } from '../../../worker/features/auth/contract';

export function loginErrorToast(err: unknown, opts: { onResend?: () => void } = {}): void {
  const reason = err instanceof ApiError ? (err.details?.reason as string | undefined) : undefined;
  if (reason === 'email_not_confirmed' && opts.onResend) {
    toast({
      title: 'E-post inte bekräftad',
      description: 'Du måste bekräfta din e-postadress innan du kan logga in.',
      variant: 'destructive',
      duration: 10_000,
      actions: [{ label: 'Skicka ny bekräftelselänk', onClick: opts.onResend }],
    });
  } else if (reason === 'invalid_credentials') {
    toast({ title: 'Inloggning misslyckades', description: 'Felaktig e-post eller lösenord. Försök igen.', variant: 'destructive' });
  } else if (reason === 'email_not_confirmed') {
    toast({ title: 'E-post inte bekräftad', description: 'Du måste bekräfta din e-postadress innan du kan logga in.', variant: 'destructive' });
  } else if (err instanceof ApiError && err.status === 404) {
    toast({ title: 'Användare inte hittad', description: 'Kontot verkar ha tagits bort. Logga in igen om du har ett aktivt konto.', variant: 'destructive' });
  } else if (err instanceof ApiError && (err.status === 429 || err.status === 400 || err.code === 'network' || reason === 'invalid_code')) {
    toast({ title: 'Inloggning misslyckades', description: err.message, variant: 'destructive' });
  } else if (err instanceof ApiError && err.status === 401) {
    toast({ title: 'Session utgången', description: 'Din session har gått ut. Logga in igen.', variant: 'destructive' });
  } else if (err instanceof ApiError) {
    toast({ title: 'Autentiseringsfel', description: 'Ett fel uppstod vid autentisering. Försök igen.', variant: 'destructive' });
  } else {
    toast({ title: 'Inloggning misslyckades', description: 'Ett oväntat fel inträffade', variant: 'destructive' });
  }
}

/** Registration classification (spec 01 §8) of an error message. */
export function classifyRegistrationError(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === 'network') return 'Nätverksfel - kontrollera din internetanslutning';
    if (err.status === 409) return 'E-postadressen är redan registrerad';
    if (err.status === 400) return 'Valideringsfel - kontrollera din e-postadress och lösenord';
    if (err.status >= 500) return 'Serverfel - försök igen senare';
  }
  const msg = err instanceof Error ? err.message.toLowerCase() : '';
  if (msg.includes('already registered') || msg.includes('redan registrerad')) return 'E-postadressen är redan registrerad';
  if (msg.includes('invalid') || msg.includes('password') || msg.includes('format')) return 'Valideringsfel - kontrollera din e-postadress och lösenord';
  if (msg.includes('network') || msg.includes('timeout') || msg.includes('fetch')) return 'Nätverksfel - kontrollera din internetanslutning';
  if (msg.includes('server') || msg.includes('500')) return 'Serverfel - försök igen senare';
  return 'Ett oväntat fel inträffade';
}

/**
 * Where a signed-in user goes (spec 01 §2 Login, §6): the redirect target, except that the defaults
 * /admin and /superadmin follow the role.
 */
export function destinationFor(user: SessionUser, redirect: string | null): string {
  const target = safeTarget(redirect);
  if (!target || target === '/admin' || target === '/superadmin') return user.isSuperadmin ? '/superadmin' : '/admin';
  return target;
}

/** A same-origin path to go to after signing in (the shared `safeRedirect`), never back into the auth pages. */
export function safeTarget(raw: string | null | undefined): string | null {
  const target = safeRedirect(raw);
  if (!target) return null;
  if (/^\/(login|register|auth-redirect|verify|forgot-password|update-password)(\/|\?|$)/.test(target)) return null;
  return target;
}
