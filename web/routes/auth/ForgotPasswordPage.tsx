/** /forgot-password (spec 01 §2): e-mail → reset link; success state; another e-mail; back to login. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { AuthCard } from '../../components/auth/AuthCard';
import { Button, buttonClass } from '../../components/ui/Button';
import { TextField } from '../../components/ui/Field';
import { toast } from '../../components/ui/Toast';
import { EmailOnlySchema, RESET_TOKEN_TTL_HOURS } from '../../../worker/features/auth/contract';
import { countText } from '../../../worker/lib/swedish';
import { setServerErrors } from '../../lib/form';
import { useForgotPassword } from '../../api/auth';

export default function ForgotPasswordPage() {
  const { register, handleSubmit, setError, reset, formState } = useForm<z.input<typeof EmailOnlySchema>, unknown, z.output<typeof EmailOnlySchema>>({
    resolver: zodResolver(EmailOnlySchema),
    defaultValues: { email: '' },
  });
  const forgot = useForgotPassword();
  const sending = forgot.isPending;
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await forgot.mutateAsync(email);
      setSentTo(email);
    } catch (err) {
      if (setServerErrors(setError, err)) return;
      toast({
        title: 'Kunde inte skicka länken',
        description: err instanceof Error ? err.message : 'Ett oväntat fel inträffade. Försök igen.',
        variant: 'destructive',
      });
    }
  });

  if (sentTo) {
    return (
      <AuthCard
        title="Kolla din e-post"
        subtitle={
          <>
            Om det finns ett konto för <strong>{sentTo}</strong> har vi skickat en länk för att återställa lösenordet. Länken gäller i{' '}
            {countText(RESET_TOKEN_TTL_HOURS, 'timme', 'timmar')}.
          </>
        }
      >
        <Button
          variant="secondary"
          className="w-full"
          onClick={() => {
            setSentTo(null);
            reset();
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
        <TextField label="E-post" type="email" autoComplete="email" error={formState.errors.email?.message} {...register('email')} />
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
