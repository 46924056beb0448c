import { useCallback, useEffect, useState } from 'react';
import { api } from '../../lib/api';

export interface AccountSummary {
  email: string;
  hasPassword: boolean;
  totpEnabled: boolean;
  counts: { venues: number; places: number; upcomingQuizzes: number };
}

/** GET /api/account, with a reload function. */
export function useAccount() {
  const [data, setData] = useState<AccountSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    api<AccountSummary>('/api/account').then(
      (d) => {
        setData(d);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  }, []);
  useEffect(reload, [reload]);
  return { data, error, reload };
}
