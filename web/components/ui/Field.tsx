import { dateInWords, timeInWords } from '../../../worker/lib/swedish';
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

const INPUT = 'w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-slate-900 placeholder:text-slate-500 aria-[invalid=true]:border-red-600';

interface FieldShell {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
}

function Shell({ id, label, error, hint, children }: FieldShell & { id: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-semibold text-slate-800">
        {label}
      </label>
      {children}
      {hint && !error && <p className="text-sm text-slate-600">{hint}</p>}
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** Labelled input; `error` is announced through aria-describedby. */
export function TextField({ label, error, hint, id, ...props }: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <Shell id={fid} label={label} error={error} hint={hint}>
      <input id={fid} aria-invalid={!!error} aria-describedby={error ? `${fid}-error` : undefined} className={INPUT} {...props} />
    </Shell>
  );
}

export function TextArea({ label, error, hint, id, ...props }: FieldShell & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <Shell id={fid} label={label} error={error} hint={hint}>
      <textarea id={fid} aria-invalid={!!error} aria-describedby={error ? `${fid}-error` : undefined} className={INPUT} rows={4} {...props} />
    </Shell>
  );
}

export function SelectField({ label, error, hint, id, children, ...props }: FieldShell & SelectHTMLAttributes<HTMLSelectElement>) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <Shell id={fid} label={label} error={error} hint={hint}>
      <select id={fid} aria-invalid={!!error} aria-describedby={error ? `${fid}-error` : undefined} className={INPUT} {...props}>
        {children}
      </select>
    </Shell>
  );
}

/**
 * A native date or time input — the browser's own picker, in the browser's locale — with the chosen
 * value in Swedish words beside it ("torsdag 26 november", "kl 19:00"), so the form reads the same in
 * every browser (issue 29.12). Inputs registered with react-hook-form do not expose their value: pass
 * the watched value as `current` (controlled inputs may leave it out).
 */
export function DateTimeField({
  label,
  error,
  hint,
  id,
  current,
  type = 'date',
  ...props
}: FieldShell & InputHTMLAttributes<HTMLInputElement> & { current?: string | undefined; type?: 'date' | 'time' }) {
  const auto = useId();
  const fid = id ?? auto;
  const value = current ?? (typeof props.value === 'string' ? props.value : undefined);
  const words = type === 'date' ? dateInWords(value, new Date().getFullYear()) : timeInWords(value);
  const describedBy = [error ? `${fid}-error` : null, words ? `${fid}-words` : null].filter(Boolean).join(' ') || undefined;
  return (
    <Shell id={fid} label={label} error={error} hint={hint}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <input id={fid} type={type} aria-invalid={!!error} aria-describedby={describedBy} className={`${INPUT} w-auto min-w-[10rem] flex-1`} {...props} />
        <span id={`${fid}-words`} data-testid="in-words" aria-live="polite" className="min-w-0 text-sm font-medium text-slate-700">
          {words ?? ''}
        </span>
      </div>
    </Shell>
  );
}
