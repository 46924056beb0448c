/** /account: the signed-in user's own settings (the same Konto and Säkerhet tabs as the profile editor). */
import { useState } from 'react';
import AccountTab from '../../components/account/AccountTab';
import SecurityTab from '../../components/account/SecurityTab';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { DownloadMyData } from '../../components/exports/DownloadMyData';
import { FollowsList } from '../../components/follows/FollowsList';
import { MyQuizmasterProfile } from '../../components/quizmasters/MyQuizmasterProfile';
import { Tabs } from '../../components/ui/Tabs';

export default function AccountSettingsPage() {
  const [tab, setTab] = useState<'konto' | 'sakerhet'>('konto');
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
          <Tabs
            label="Kontoinställningar"
            tabs={tabs}
            active={tab}
            onChange={setTab}
            className="mt-6"
            panelClassName="rounded-b-2xl border border-t-0 border-slate-200 bg-white p-6"
          >
            {tab === 'konto' ? <AccountTab /> : <SecurityTab />}
          </Tabs>
          <MyQuizmasterProfile />
          <DownloadMyData />
          <div className="mt-6">
            <FollowsList />
          </div>
        </div>
      )}
    </RequireAuth>
  );
}
