import { useEffect } from 'react';
import { buttonClass } from '../ui/Button';

/** Spec 01 §2: shown when the session could not be verified; goes to the login page after a while. */
export function AuthErrorScreen({ redirect }: { redirect?: string }) {
  const target = `/login${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`;
  useEffect(() => {
    const t = setTimeout(() => window.location.assign(target), 5000);
    return () => clearTimeout(t);
  }, [target]);
  return (
    <div role="alert" className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-extrabold text-slate-900">Autentiseringsfel</h1>
      <p className="text-slate-700">Ett fel uppstod vid verifiering av din session. Du kommer att omdirigeras till inloggningssidan.</p>
      <a href={target} className={buttonClass('primary')}>
        Gå till inloggning
      </a>
    </div>
  );
}
