/**
 * /update-password?token=… (spec 01 §2, §5, §8): the reset link's token is the "reset session" (1 h,
 * single use). Without a valid one: 'Ogiltig session' and back to /forgot-password. Success: to
 * /login after 2 s (every session of the account has been ended).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { AuthCard } from '../../components/auth/AuthCard';
import { Button } from '../../components/ui/Button';
import { NewPasswordFields } from '../../components/auth/NewPasswordFields';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';
import { ApiError } from '../../lib/api';
import { setServerErrors } from '../../lib/form';
import { invalidateSession } from '../../lib/session';
import { ResetPasswordSchema } from '../../../worker/features/auth/contract';
import { authApi, useResetPassword } from '../../api/auth';

type ResetForm = z.input<typeof ResetPasswordSchema>;

const UPDATE_REDIRECT_MS = 2000;

export default function UpdatePasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const [state, setState] = useState<'checking' | 'form' | 'done'>('checking');
  const reset = useResetPassword();
  // The token rides along as a value of the form (not a field): the same ResetPasswordSchema as the server.
  const { register, handleSubmit, setError, formState } = useForm<ResetForm, unknown, z.output<typeof ResetPasswordSchema>>({
    resolver: zodResolver(ResetPasswordSchema),
    defaultValues: { token: token ?? '', password: '', confirmPassword: '' },
  });
  const errors = formState.errors;
  const saving = reset.isPending || state === 'done';

  useEffect(() => {
    let live = true;
    const invalid = () => {
      toast({ title: 'Ogiltig session', description: 'Länken är ogiltig eller har gått ut. Begär en ny länk.', variant: 'destructive' });
      navigate('/forgot-password', { replace: true });
    };
    if (!token) {
      invalid();
      return;
    }
    authApi.resetCheck(token).then(
      () => live && setState('form'),
      () => live && invalid(),
    );
    return () => {
      live = false;
    };
  }, [token, navigate]);

  useEffect(() => {
    if (state !== 'done') return;
    const t = setTimeout(() => navigate('/login', { replace: true }), UPDATE_REDIRECT_MS);
    return () => clearTimeout(t);
  }, [state, navigate]);

  const onSubmit = handleSubmit(async (body) => {
    try {
      await reset.mutateAsync(body);
      invalidateSession();
      toast({ title: 'Lösenordet har uppdaterats', description: 'Logga in med ditt nya lösenord.', variant: 'success' });
      setState('done');
    } catch (err) {
      if (err instanceof ApiError && err.details?.reason) {
        toast({ title: 'Ogiltig session', description: err.message, variant: 'destructive' });
        navigate('/forgot-password', { replace: true });
      } else if (err instanceof ApiError && err.status === 400) {
        if (!setServerErrors(setError, err)) setError('confirmPassword', { type: 'server', message: err.message });
      } else {
        toast({ title: 'Fel', description: 'Ett oväntat fel inträffade. Försök igen.', variant: 'destructive' });
      }
    }
  });

  if (state === 'checking') return <Spinner label="Kontrollerar länken..." />;
  if (state === 'done') {
    return (
      <AuthCard title="Lösenordet har uppdaterats" subtitle="Du skickas till inloggningen om 2 sekunder.">
        <Button className="w-full" onClick={() => navigate('/login', { replace: true })}>
          Gå till inloggning
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Välj nytt lösenord" subtitle="Ange ditt nya lösenord två gånger.">
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <NewPasswordFields register={register} errors={{ password: errors.password?.message, confirmPassword: errors.confirmPassword?.message }} />
        <Button type="submit" className="w-full" disabled={saving}>
          {saving ? 'Sparar...' : 'Spara nytt lösenord'}
        </Button>
      </form>
    </AuthCard>
  );
}
