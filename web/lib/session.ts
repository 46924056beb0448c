import { useEffect, useState } from 'react';
import { api } from './api';

/** What GET /api/auth/session answers (worker/features/auth). */
export interface SessionUser {
  id: string;
  email: string;
  roles: Array<'admin' | 'superadmin'>;
  isSuperadmin: boolean;
}
export interface SessionInfo {
  user: SessionUser | null;
  /** Epoch ms of the session's expiry, or null. */
  expiresAt: number | null;
}

type State = { status: 'loading' } | { status: 'ready'; session: SessionInfo } | { status: 'error' };

let cache: Promise<SessionInfo> | null = null;
const subscribers = new Set<() => void>();

export function fetchSession(force = false): Promise<SessionInfo> {
  if (!cache || force) {
    cache = api<SessionInfo>('/api/auth/session').catch((err) => {
      cache = null;
      throw err;
    });
  }
  return cache;
}

/** Forget the cached session (after login/logout) and tell every useSession() to reload. */
export function invalidateSession(): void {
  cache = null;
  subscribers.forEach((s) => s());
}

/** The current session, loaded once per page and shared by every component. */
export function useSession(): State {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const s = () => setTick((t) => t + 1);
    subscribers.add(s);
    return () => void subscribers.delete(s);
  }, []);
  useEffect(() => {
    let live = true;
    fetchSession().then(
      (session) => live && setState({ status: 'ready', session }),
      () => live && setState({ status: 'error' }),
    );
    return () => {
      live = false;
    };
  }, [tick]);
  return state;
}
