/**
 * /register while signed in (spec 02 §2, §4.5, §8): tabs 'Mitt konto' and 'Radera konto'.
 * Deletion removes businesses, places, quizzes and sessions; the dialog closes after 1 s and the
 * user is signed out after 1.5 s.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { useAccount, useDeleteAccount } from '../../api/account';
import { logout, type SessionUser } from '../../lib/session';
import { AuthCard } from '../auth/AuthCard';
import { Button, buttonClass } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Tabs } from '../ui/Tabs';
import { toast } from '../ui/Toast';
import { deleteErrorMessage } from './deleteMessages';
import { countText } from '../../../worker/lib/swedish';

export function RegisterAccountTabs({ user }: { user: SessionUser }) {
  const [tab, setTab] = useState<'account' | 'delete'>('account');
  const tabs = [
    { id: 'account' as const, label: 'Mitt konto' },
    { id: 'delete' as const, label: 'Radera konto' },
  ];
  return (
    <AuthCard title="Ditt konto">
      <Tabs label="Konto" tabs={tabs} active={tab} onChange={setTab} panelClassName="pt-2">
        {tab === 'account' ? <MyAccount user={user} /> : <DeleteAccount />}
      </Tabs>
    </AuthCard>
  );
}

function MyAccount({ user }: { user: SessionUser }) {
  return (
    <div className="space-y-4">
      <p>
        Du är inloggad som <strong>{user.email}</strong>.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Link to={user.isSuperadmin ? '/superadmin' : '/admin'} className={buttonClass('primary')}>
          Gå till Min Sida
        </Link>
        <a href="/" className={buttonClass('secondary')}>
          Till startsidan
        </a>
      </div>
    </div>
  );
}

function DeleteAccount() {
  const summary = useAccount().data;
  const removal = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  // Still 'deleting' after success: the dialog closes and the user is signed out a moment later.
  const deleting = removal.isPending || done;

  async function onDelete() {
    try {
      await removal.mutateAsync();
      setDone(true);
      toast({ title: 'Kontot har raderats', description: 'Ditt konto och all tillhörande data har tagits bort.', variant: 'success' });
      setTimeout(() => setOpen(false), 1000);
      setTimeout(() => void logout(), 1500);
    } catch (err) {
      toast({ title: 'Kunde inte radera kontot', description: deleteErrorMessage(err), variant: 'destructive' });
    }
  }

  const c = summary?.counts;
  return (
    <div className="space-y-4">
      <div className="rounded-xl border border-red-300 bg-red-50 p-4 text-sm text-red-950">
        <p className="font-semibold">Varning: detta går inte att ångra.</p>
        <p className="mt-1">
          När du raderar ditt konto tas också{' '}
          {c
            ? `${countText(c.venues, 'verksamhet', 'verksamheter')}, ${countText(c.places, 'plats', 'platser')} och ${c.upcomingQuizzes} kommande quiz`
            : 'alla dina verksamheter, platser och quiz'}{' '}
          bort, och du loggas ut överallt.
        </p>
      </div>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Radera konto
      </Button>
      <Dialog
        open={open}
        onClose={() => !deleting && setOpen(false)}
        title="Radera kontot permanent?"
        description="Allt som hör till kontot tas bort och kan inte återställas."
      >
        {done ? (
          <p role="status">Kontot är raderat. Du loggas ut...</p>
        ) : (
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={deleting}>
              Avbryt
            </Button>
            <Button variant="danger" onClick={() => void onDelete()} disabled={deleting}>
              {deleting ? 'Raderar...' : 'Ja, radera mitt konto'}
            </Button>
          </div>
        )}
      </Dialog>
    </div>
  );
}
