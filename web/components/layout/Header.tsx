import { lazy, Suspense, useState } from 'react';
import { logout, useSession } from '../../lib/session';
import { BetaDialog } from './BetaDialog';

/**
 * The signed-in "Konto" menu is a chunk of its own (the public first load stays within its budget, and signed-out
 * visitors never need it); until it arrives a look-alike keeps its place.
 */
const AccountMenu = lazy(() => import('./AccountMenu'));
const MENU_BUTTON = 'inline-flex items-center gap-1 rounded-lg px-2.5 py-2 text-slate-800 hover:bg-slate-100';

const CHEVRON = (
  <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4 shrink-0 fill-none stroke-current stroke-2">
    <path d="m6 9 6 6 6-6" />
  </svg>
);

/**
 * Site header (spec 01 §1, §2 "Header"). Plain links, no router, so it works in the server-rendered
 * public pages and in the SPA alike. Signed-in state is loaded in the browser (public HTML is cached and
 * must never be personal), so the server renders the signed-out links. Signed in: "Min Sida" and the
 * "Konto" menu (Mina bevakningar, Kontoinställningar, Logga ut; issue 44.2).
 * `noScript`: the pages behind mail links (worker/lib/link-page.tsx) are never hydrated, so "Beta" is a
 * label there, not a button that would do nothing.
 */
export function Header({ onFeedback, onLogout, noScript = false }: { onFeedback: () => void; onLogout?: () => void; noScript?: boolean }) {
  const [betaOpen, setBetaOpen] = useState(false);
  const session = useSession();
  const user = session.status === 'ready' ? session.session.user : null;
  const betaClass = 'rounded-full bg-amber-100 px-2 py-0.5 text-[11px] font-bold uppercase tracking-wide text-amber-900';
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-3">
        <div className="flex min-w-0 items-center gap-2 sm:gap-3">
          <img src="/favicon.svg" alt="" width="40" height="40" className="h-9 w-9 shrink-0 sm:h-10 sm:w-10" />
          <div className="min-w-0 leading-tight">
            <div className="flex items-center gap-1.5">
              <a href="/" className="rounded text-lg font-extrabold text-slate-900">
                Quizkväll
              </a>
              {noScript ? (
                <span className={betaClass}>Beta</span>
              ) : (
                <button type="button" onClick={() => setBetaOpen(true)} className={`${betaClass} hover:bg-amber-200`}>
                  Beta
                </button>
              )}
            </div>
            <p className="whitespace-nowrap text-xs text-slate-600">Upptäck lokala quiz</p>
          </div>
        </div>
        <nav aria-label="Konto" className="flex shrink-0 items-center gap-1 whitespace-nowrap text-sm font-semibold sm:gap-2">
          {user ? (
            <>
              <a href={user.isSuperadmin ? '/superadmin' : '/admin'} className="rounded-lg px-2.5 py-2 text-brand-700 hover:bg-brand-50">
                Min Sida
              </a>
              <Suspense fallback={<span className={MENU_BUTTON}>Konto{CHEVRON}</span>}>
                <AccountMenu onLogout={onLogout ?? (() => void logoutAndGoHome())} buttonClass={MENU_BUTTON} chevron={CHEVRON} />
              </Suspense>
            </>
          ) : (
            <>
              <a href="/login" className="rounded-lg px-2.5 py-2 text-slate-800 hover:bg-slate-100">
                Logga in
              </a>
              <a href="/register" className="rounded-lg bg-brand-600 px-3 py-2 text-white hover:bg-brand-700">
                Registrera
              </a>
            </>
          )}
        </nav>
      </div>
      {!noScript && (
        <BetaDialog
          open={betaOpen}
          onClose={() => setBetaOpen(false)}
          onFeedback={() => {
            setBetaOpen(false);
            onFeedback();
          }}
        />
      )}
    </header>
  );
}

/** Used where no app-level logout handler exists: web/lib/session.ts logout() ('Utloggad', storage cleared, to /). */
async function logoutAndGoHome(): Promise<void> {
  await logout();
}
