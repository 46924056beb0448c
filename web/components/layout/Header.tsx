import { useEffect, useId, useRef, useState } from 'react';
import { logout, useSession } from '../../lib/session';
import { ChevronDown } from '../ui/icons';
import { BetaDialog } from './BetaDialog';

/** Where a signed-in visitor finds their follows and reminders (the list on /account, issue 44.2). */
export const FOLLOWS_PATH = '/account#bevakningar';

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
              <AccountMenu onLogout={onLogout ?? (() => void logoutAndGoHome())} />
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

/** "Konto": a disclosure with the signed-in visitor's own pages; closes on Escape, a tap outside or a choice. */
function AccountMenu({ onLogout }: { onLogout: () => void }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  const item = 'block w-full rounded-lg px-3 py-2.5 text-left text-slate-800 hover:bg-slate-100';
  return (
    <div ref={box} className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex items-center gap-1 rounded-lg px-2.5 py-2 text-slate-800 hover:bg-slate-100"
      >
        Konto
        <ChevronDown aria-hidden="true" className={`size-4 shrink-0 transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      {open && (
        <ul id={id} className="absolute right-0 top-full z-40 mt-1 w-60 rounded-xl border border-slate-200 bg-white p-1 shadow-lg">
          <li>
            <a href={FOLLOWS_PATH} className={item}>
              Mina bevakningar och påminnelser
            </a>
          </li>
          <li>
            <a href="/account" className={item}>
              Kontoinställningar
            </a>
          </li>
          <li>
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                onLogout();
              }}
              className={item}
            >
              Logga ut
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}

/** Used where no app-level logout handler exists: web/lib/session.ts logout() ('Utloggad', storage cleared, to /). */
async function logoutAndGoHome(): Promise<void> {
  await logout();
}
