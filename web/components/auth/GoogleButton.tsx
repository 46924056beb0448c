import { useEffect, useState } from 'react';
import type { AuthConfig } from '../../../worker/features/auth/contract';
import { authApi } from '../../api/auth';
import { buttonClass } from '../ui/Button';

let configCache: Promise<AuthConfig> | null = null;

/** 'Fortsätt med Google' (login) or 'Registrera med Google'; disabled with an explanation when not configured. */
export function GoogleButton({ mode, redirect, takeoverVenue }: { mode: 'login' | 'register'; redirect?: string | null; takeoverVenue?: string | null }) {
  const [enabled, setEnabled] = useState<boolean | null>(null);
  useEffect(() => {
    configCache ??= authApi.config().catch(() => ({ googleEnabled: false }));
    configCache.then((c) => setEnabled(c.googleEnabled));
  }, []);
  const label = mode === 'login' ? 'Logga in med Google' : 'Registrera med Google';
  if (enabled === false) {
    return (
      <button type="button" disabled className={buttonClass('secondary', 'w-full')}>
        Google-inloggning är inte tillgänglig här
      </button>
    );
  }
  const q = new URLSearchParams({ mode });
  if (redirect) q.set('redirect', redirect);
  if (takeoverVenue) q.set('takeoverVenue', takeoverVenue);
  return (
    <a href={`/api/auth/google?${q.toString()}`} aria-disabled={enabled === null} className={buttonClass('secondary', 'w-full')}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5">
        <path fill="#4285F4" d="M22.5 12.3c0-.8-.1-1.5-.2-2.2H12v4.2h5.9a5 5 0 0 1-2.2 3.3v2.7h3.6c2-1.9 3.2-4.7 3.2-8Z" />
        <path fill="#34A853" d="M12 23c3 0 5.5-1 7.3-2.7l-3.6-2.7c-1 .7-2.2 1.1-3.7 1.1-2.9 0-5.3-1.9-6.2-4.5H2.1v2.8A11 11 0 0 0 12 23Z" />
        <path fill="#FBBC05" d="M5.8 14.2a6.6 6.6 0 0 1 0-4.4V7H2.1a11 11 0 0 0 0 10l3.7-2.8Z" />
        <path fill="#EA4335" d="M12 5.4c1.6 0 3.1.6 4.2 1.6l3.2-3.2A11 11 0 0 0 2.1 7l3.7 2.8C6.7 7.3 9.1 5.4 12 5.4Z" />
      </svg>
      {label}
    </a>
  );
}
