import { useId, useRef, type ReactNode } from 'react';

interface TabItem<T extends string> {
  id: T;
  label: string;
}

const LIST = {
  pills: 'flex flex-wrap gap-1 rounded-xl bg-slate-100 p-1',
  underline: 'flex gap-2 border-b border-slate-200',
};
const TAB = {
  pills: (on: boolean) => `flex-1 rounded-lg px-3 py-2 text-sm font-semibold ${on ? 'bg-white text-slate-900 shadow' : 'text-slate-700 hover:bg-white/60'}`,
  underline: (on: boolean) =>
    `-mb-px border-b-2 px-3 py-2 font-semibold ${on ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`,
};

/**
 * WAI-ARIA tabs: a tablist with roving tabindex (arrow keys move and focus), and one tabpanel holding
 * the active tab's content (`children`). Controlled: the parent owns `active`.
 */
export function Tabs<T extends string>({
  label,
  tabs,
  active,
  onChange,
  variant = 'underline',
  className = '',
  panelClassName = '',
  children,
}: {
  label: string;
  tabs: ReadonlyArray<TabItem<T>>;
  active: T;
  onChange: (id: T) => void;
  variant?: keyof typeof LIST;
  className?: string;
  panelClassName?: string;
  children: ReactNode;
}) {
  const base = useId();
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  function onKey(e: React.KeyboardEvent, index: number) {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = (index + delta + tabs.length) % tabs.length;
    onChange(tabs[next]!.id);
    refs.current[next]?.focus();
  }
  return (
    <>
      <div role="tablist" aria-label={label} className={`${LIST[variant]} ${className}`}>
        {tabs.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${t.id}`}
            aria-selected={active === t.id}
            aria-controls={`${base}-panel`}
            tabIndex={active === t.id ? 0 : -1}
            onClick={() => onChange(t.id)}
            onKeyDown={(e) => onKey(e, i)}
            className={TAB[variant](active === t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${active}`} className={panelClassName}>
        {children}
      </div>
    </>
  );
}
