/**
 * The browser's view of the session (spec 01 §4 "Authentication"): loaded once per page and shared by
 * every useSession(); re-validated 100 ms after any auth change and every 5 minutes (paused while the
 * tab is hidden); a 'Session går snart ut' toast 4 minutes before expiry, shown 10 s.
 */
import { useEffect, useState } from 'react';
import { toast } from '../components/ui/Toast';
import type { AuthOk, SessionInfo, SessionUser } from '../../worker/features/auth/contract';
import { api } from './api';
import { closeAccountCopies, forgetAccountCopies } from '../pwa/saved';

export type { SessionInfo, SessionUser };

type State = { status: 'loading' } | { status: 'ready'; session: SessionInfo } | { status: 'error' };

const VALIDATE_EVERY_MS = 5 * 60 * 1000;
const DEFERRED_VALIDATION_MS = 100;
const WARN_BEFORE_EXPIRY_MS = 4 * 60 * 1000;
const WARNING_DURATION_MS = 10_000;
const FLASH_KEY = 'qk_flash';

let cache: Promise<SessionInfo> | null = null;
let last: SessionInfo | null = null;
const subscribers = new Set<() => void>();

export function fetchSession(force = false): Promise<SessionInfo> {
  if (!cache || force) {
    const p: Promise<SessionInfo> = api<SessionInfo>('/api/auth/session')
      .then((s) => {
        onSessionLoaded(s);
        return s;
      })
      .catch((err) => {
        if (cache === p) cache = null;
        throw err;
      });
    cache = p;
  }
  return cache;
}

/** Forget the cached session (after login/logout) and tell every useSession() to reload. */
export function invalidateSession(): void {
  cache = null;
  for (const s of subscribers) s();
}

// ---------------------------------------------------------------- monitoring

let warnTimer: ReturnType<typeof setTimeout> | undefined;
let warnedFor: number | null = null;
let monitorStarted = false;

function onSessionLoaded(s: SessionInfo): void {
  const wasSignedIn = !!last?.user;
  last = s;
  if (!s.user) forgetAccountCopies();
  scheduleExpiryWarning(s.expiresAt);
  if (wasSignedIn && !s.user) {
    toast({ title: 'Session utgången', description: 'Din session har gått ut. Logga in igen.', variant: 'destructive' });
  }
}

function scheduleExpiryWarning(expiresAt: number | null): void {
  if (warnTimer) clearTimeout(warnTimer);
  warnTimer = undefined;
  if (!expiresAt || typeof window === 'undefined') return;
  const delay = expiresAt - WARN_BEFORE_EXPIRY_MS - Date.now();
  // Timers cannot span weeks reliably; the 5-minute validation re-schedules as expiry nears.
  if (delay > VALIDATE_EVERY_MS * 2) return;
  warnTimer = setTimeout(
    () => {
      if (warnedFor === expiresAt) return;
      warnedFor = expiresAt;
      toast({
        title: 'Session går snart ut',
        description: 'Din session går ut snart. Du kommer att loggas ut automatiskt.',
        duration: WARNING_DURATION_MS,
      });
    },
    Math.max(0, delay),
  );
}

function startMonitor(): void {
  if (monitorStarted || typeof window === 'undefined') return;
  monitorStarted = true;
  let timer: ReturnType<typeof setInterval> | undefined;
  const validate = () => {
    fetchSession(true).then(
      () => {
        for (const s of subscribers) s();
      },
      () => undefined,
    );
  };
  const start = () => {
    if (!timer) timer = setInterval(validate, VALIDATE_EVERY_MS);
  };
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') stop();
    else {
      validate();
      start();
    }
  });
  start();
  // After the first commit, so the Toaster (mounted after the header) is already listening.
  setTimeout(showFlash, 50);
}

/** A message left for the next page (logout navigates to /, where the toast must still show). */
function showFlash(): void {
  let flash: string | null = null;
  try {
    flash = sessionStorage.getItem(FLASH_KEY);
    sessionStorage.removeItem(FLASH_KEY);
  } catch {
    return;
  }
  if (flash === 'logout') toast({ title: 'Utloggad', description: 'Du har loggats ut framgångsrikt', variant: 'success' });
}

/** Logout (spec 01 §4): ends the session, clears storage, 'Utloggad' toast, back to /. */
export async function logout(opts: { redirectTo?: string | null } = {}): Promise<void> {
  try {
    await api<AuthOk>('/api/auth/logout', { method: 'POST', body: {} });
  } catch {
    toast({ title: 'Utloggningsfel', description: 'Ett fel uppstod vid utloggning', variant: 'destructive' });
    return;
  }
  last = null;
  // Before the storage is cleared: the account page's list may still be loading, and must not be kept afterwards.
  closeAccountCopies();
  try {
    sessionStorage.clear();
    for (const k of Object.keys(localStorage)) if (k.startsWith('qk_') || k.startsWith('quizkvall')) localStorage.removeItem(k);
    sessionStorage.setItem(FLASH_KEY, 'logout');
  } catch {
    /* storage may be unavailable */
  }
  invalidateSession();
  const target = opts.redirectTo === undefined ? '/' : opts.redirectTo;
  if (target) window.location.assign(target);
}

/** The current session, loaded once per page and shared by every component. */
export function useSession(): State {
  const [state, setState] = useState<State>(() => (last && cache ? { status: 'ready', session: last } : { status: 'loading' }));
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const s = () => setTick((t) => t + 1);
    subscribers.add(s);
    startMonitor();
    return () => void subscribers.delete(s);
  }, []);
  useEffect(() => {
    let live = true;
    // Deferred validation: after an auth change (tick > 0) wait 100 ms so bursts collapse into one call.
    const delay = tick > 0 && !cache ? DEFERRED_VALIDATION_MS : 0;
    const t = setTimeout(() => {
      fetchSession().then(
        (session) => live && setState({ status: 'ready', session }),
        () => live && setState({ status: 'error' }),
      );
    }, delay);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [tick]);
  return state;
}
