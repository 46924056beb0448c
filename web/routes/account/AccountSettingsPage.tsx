/** /account: the signed-in user's own settings (the same Konto and Säkerhet tabs as the profile editor). */
import { useId, useState } from 'react';
import AccountTab from '../../components/account/AccountTab';
import SecurityTab from '../../components/account/SecurityTab';
import { RequireAuth } from '../../components/auth/RequireAuth';

export default function AccountSettingsPage() {
  const [tab, setTab] = useState<'konto' | 'sakerhet'>('konto');
  const base = useId();
  const tabs = [
    { id: 'konto' as const, label: 'Konto' },
    { id: 'sakerhet' as const, label: 'Säkerhet' },
  ];
  return (
    <RequireAuth require="login">
      {(user) => (
        <div className="mx-auto w-full max-w-2xl px-4 py-10">
          <h1 className="text-2xl font-extrabold">Kontoinställningar</h1>
          <p className="mt-1 text-slate-700">Inloggad som {user.email}</p>
          <div role="tablist" aria-label="Kontoinställningar" className="mt-6 flex gap-2 border-b border-slate-200">
            {tabs.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                id={`${base}-${t.id}-tab`}
                aria-selected={tab === t.id}
                aria-controls={`${base}-panel`}
                tabIndex={tab === t.id ? 0 : -1}
                onClick={() => setTab(t.id)}
                onKeyDown={(e) => {
                  if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') setTab(tab === 'konto' ? 'sakerhet' : 'konto');
                }}
                className={`-mb-px border-b-2 px-3 py-2 font-semibold ${tab === t.id ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
              >
                {t.label}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-${tab}-tab`} className="rounded-b-2xl border border-t-0 border-slate-200 bg-white p-6">
            {tab === 'konto' ? <AccountTab /> : <SecurityTab />}
          </div>
        </div>
      )}
    </RequireAuth>
  );
}
