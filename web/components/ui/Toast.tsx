import { useEffect, useState } from 'react';

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive' | 'success';
  /** Milliseconds; default 5000. */
  duration?: number;
  actions?: Array<{ label: string; onClick: () => void }>;
}
interface ToastItem extends ToastOptions {
  id: number;
}

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<(t: ToastItem[]) => void>();
const emit = () => {
  for (const l of listeners) l(items);
};

function dismissToast(id: number): void {
  items = items.filter((t) => t.id !== id);
  emit();
}

/**
 * Shows a toast from anywhere (no provider needed). Returns its id. One message at a time (issue 29.4):
 * a new toast replaces the one on screen, so a stale outcome (a failed try) never stands next to the
 * later one (its success).
 */
export function toast(options: ToastOptions): number {
  const id = nextId++;
  items = [{ ...options, id }];
  emit();
  setTimeout(() => dismissToast(id), options.duration ?? 5000);
  return id;
}

/** The toasts on screen now (for tests). */
export const currentToasts = (): readonly ToastItem[] => items;

const STYLE = {
  default: 'border-slate-200 bg-white text-slate-900',
  success: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  destructive: 'border-red-300 bg-red-50 text-red-950',
};

/** Renders the toasts in a polite live region; mount once per page. */
export function Toaster() {
  const [list, setList] = useState<ToastItem[]>(items);
  useEffect(() => {
    listeners.add(setList);
    // A toast emitted between the first render and this subscription would otherwise be lost.
    setList(items);
    return () => void listeners.delete(setList);
  }, []);
  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4">
      {list.map((t) => (
        <div
          key={t.id}
          role={t.variant === 'destructive' ? 'alert' : 'status'}
          className={`pointer-events-auto w-full max-w-md rounded-xl border p-4 shadow-lg ${STYLE[t.variant ?? 'default']}`}
        >
          <div className="flex items-start justify-between gap-3">
            <div>
              <p className="font-semibold">{t.title}</p>
              {t.description && <p className="mt-1 text-sm">{t.description}</p>}
            </div>
            <button type="button" aria-label="Stäng meddelande" className="text-lg leading-none" onClick={() => dismissToast(t.id)}>
              ×
            </button>
          </div>
          {t.actions && (
            <div className="mt-3 flex gap-2">
              {t.actions.map((a) => (
                <button
                  key={a.label}
                  type="button"
                  onClick={() => {
                    a.onClick();
                    dismissToast(t.id);
                  }}
                  className="rounded-lg border border-current px-3 py-1 text-sm font-semibold"
                >
                  {a.label}
                </button>
              ))}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}
