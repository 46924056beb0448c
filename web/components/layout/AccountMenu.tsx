import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { FOLLOWS_PATH } from '../follows/target';

/** "Konto": a disclosure with the signed-in visitor's own pages; closes on Escape, a tap outside or a choice. */
export default function AccountMenu({ onLogout, buttonClass, chevron }: { onLogout: () => void; buttonClass: string; chevron: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const item = 'block w-full rounded-lg px-3 py-2.5 text-left text-slate-800 hover:bg-slate-100';
  return (
    <div ref={box} className="relative">
      <button ref={button} type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)} className={buttonClass}>
        Konto
        {chevron}
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
