import type { ReactNode } from 'react';

/** The centred card every account entry screen uses. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-extrabold text-slate-900">{title}</h1>
        {subtitle && <div className="mt-2 text-slate-700">{subtitle}</div>}
        <div className="mt-6 space-y-4">{children}</div>
      </div>
    </div>
  );
}
