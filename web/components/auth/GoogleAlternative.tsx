/**
 * The block the login and register screens share (spec 01 §4, §8): the 'eller' divider with the Google
 * button, and the toast for a failed Google round trip (?error=google_failed|google_register_failed|
 * google_unavailable on the way back).
 */
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '../ui/Toast';
import { GoogleButton } from './GoogleButton';
import { googleErrorText } from './googleErrors';

export function GoogleAlternative({ mode, redirect, takeoverVenue }: { mode: 'login' | 'register'; redirect?: string | null; takeoverVenue?: string | null }) {
  const [params] = useSearchParams();
  const error = params.get('error');
  useEffect(() => {
    const t = googleErrorText(mode, error);
    if (t) toast({ title: t[0], description: t[1], variant: 'destructive' });
  }, [mode, error]);
  return (
    <>
      <div className="flex items-center gap-3 text-sm text-slate-600" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" />
        eller
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <GoogleButton mode={mode} redirect={redirect} takeoverVenue={takeoverVenue} />
    </>
  );
}
