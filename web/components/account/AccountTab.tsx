/**
 * The 'Konto' tab of the business profile editor (spec 02 §2.3, §5): change e-mail (confirmed by a
 * link to the new address) and change password. Both need the current password when the account has
 * one. Rendered by the venues work's profile editor; no props.
 */
import { useState, type FormEvent } from 'react';
import { emailChangeError, passwordChangeError } from '../../../worker/features/accounts/contract';
import { useAccount, useChangeEmail, useChangePassword } from '../../api/account';
import { ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { Spinner } from '../ui/Spinner';
import { toast } from '../ui/Toast';

export default function AccountTab() {
  const { data, error } = useAccount();
  if (error) return <p role="alert" className="text-red-700">{error.message}</p>;
  if (!data) return <Spinner label="Laddar kontouppgifter..." />;
  return (
    <div className="space-y-8">
      <EmailForm email={data.email} needsPassword={data.hasPassword} />
      <PasswordForm hasPassword={data.hasPassword} />
    </div>
  );
}

function EmailForm({ email, needsPassword }: { email: string; needsPassword: boolean }) {
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const change = useChangeEmail();
  const saving = change.isPending;
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem = emailChangeError(newEmail, password, needsPassword);
    setError(problem ?? undefined);
    if (problem) return;
    try {
      const res = await change.mutateAsync({ newEmail: newEmail.trim(), ...(needsPassword ? { password } : {}) });
      toast({ title: 'Bekräftelselänk skickad', description: `Vi har skickat en länk till ${res.newEmail}. Din e-postadress ändras när du öppnar länken.`, variant: 'success' });
      setNewEmail('');
      setPassword('');
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Ett oväntat fel inträffade');
    }
  }
  return (
    <form onSubmit={onSubmit} className="space-y-3" noValidate aria-labelledby="account-email-heading">
      <h3 id="account-email-heading" className="text-lg font-bold">
        Byt e-postadress
      </h3>
      <p className="text-sm text-slate-700">
        Nuvarande e-postadress: <strong>{email}</strong>
      </p>
      <TextField label="Ny e-postadress" type="email" autoComplete="email" value={newEmail} onChange={(e) => setNewEmail(e.target.value)} />
      {needsPassword && <TextField label="Lösenord" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" disabled={saving}>
        {saving ? 'Sparar...' : 'Byt e-postadress'}
      </Button>
    </form>
  );
}

function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | undefined>();
  const change = useChangePassword();
  const saving = change.isPending;
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem = (hasPassword && !current ? 'Ange ditt nuvarande lösenord.' : null) ?? passwordChangeError(password, confirm);
    setError(problem ?? undefined);
    if (problem) return;
    try {
      await change.mutateAsync({ ...(hasPassword ? { currentPassword: current } : {}), password, confirmPassword: confirm });
      toast({ title: 'Lösenordet har ändrats', description: 'Dina andra inloggningar har avslutats.', variant: 'success' });
      setCurrent('');
      setPassword('');
      setConfirm('');
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Ett oväntat fel inträffade');
    }
  }
  return (
    <form onSubmit={onSubmit} className="space-y-3" noValidate aria-labelledby="account-password-heading">
      <h3 id="account-password-heading" className="text-lg font-bold">
        {hasPassword ? 'Byt lösenord' : 'Välj ett lösenord'}
      </h3>
      {hasPassword && <TextField label="Nuvarande lösenord" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />}
      <TextField label="Nytt lösenord" type="password" autoComplete="new-password" hint="Minst 6 tecken." value={password} onChange={(e) => setPassword(e.target.value)} />
      <TextField label="Bekräfta nytt lösenord" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <Button type="submit" disabled={saving}>
        {saving ? 'Sparar...' : 'Byt lösenord'}
      </Button>
    </form>
  );
}
