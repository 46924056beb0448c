/** /forgot-password (spec 01 §2): e-mail → reset link; success state; another e-mail; back to login. */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { AuthCard } from '../../components/auth/AuthCard';
import { Button, buttonClass } from '../../components/ui/Button';
import { TextField } from '../../components/ui/Field';
import { toast } from '../../components/ui/Toast';
import { EMAIL_PATTERN } from '../../../worker/features/auth/contract';
import { useForgotPassword } from '../../api/auth';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const forgot = useForgotPassword();
  const sending = forgot.isPending;
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const v = email.trim();
    if (!v) return setError('E-postadress krävs');
    if (!EMAIL_PATTERN.test(v)) return setError('Ogiltig e-postadress');
    setError(undefined);
    try {
      await forgot.mutateAsync(v);
      setSentTo(v);
    } catch (err) {
      toast({ title: 'Kunde inte skicka länken', description: err instanceof Error ? err.message : 'Ett oväntat fel inträffade. Försök igen.', variant: 'destructive' });
    }
  }

  if (sentTo) {
    return (
      <AuthCard title="Kolla din e-post" subtitle={<>Om det finns ett konto för <strong>{sentTo}</strong> har vi skickat en länk för att återställa lösenordet. Länken gäller i 1 timme.</>}>
        <Button
          variant="secondary"
          className="w-full"
          onClick={() => {
            setSentTo(null);
            setEmail('');
          }}
        >
          Skicka till en annan e-postadress
        </Button>
        <Link to="/login" className={buttonClass('ghost', 'w-full')}>
          Tillbaka till inloggning
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Glömt lösenordet?" subtitle="Ange din e-postadress så skickar vi en länk för att välja ett nytt lösenord.">
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <TextField label="E-post" type="email" name="email" autoComplete="email" value={email} error={error} onChange={(e) => setEmail(e.target.value)} />
        <Button type="submit" className="w-full" disabled={sending}>
          {sending ? 'Skickar...' : 'Skicka återställningslänk'}
        </Button>
      </form>
      <Link to="/login" className="text-sm font-semibold text-brand-700 underline">
        Tillbaka till inloggning
      </Link>
    </AuthCard>
  );
}
