/** /login (spec 01 §2, §4 "Login form", §8). Both steps validate with the shared contracts (LoginSchema, TotpLoginSchema). */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { LoginSchema, TotpLoginSchema } from '../../../worker/features/auth/contract';
import { AuthCard } from '../../components/auth/AuthCard';
import { GoogleAlternative } from '../../components/auth/GoogleAlternative';
import { destinationFor, loginErrorToast, safeTarget } from '../../components/auth/messages';
import { Button } from '../../components/ui/Button';
import { TextField } from '../../components/ui/Field';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';
import { setServerErrors } from '../../lib/form';
import { fetchSession, invalidateSession, useSession, type SessionUser } from '../../lib/session';
import { authApi, useLogin, useLoginTotp } from '../../api/auth';

type LoginForm = z.input<typeof LoginSchema>;
type TotpForm = z.input<typeof TotpLoginSchema>;

export default function LoginPage() {
  const [params] = useSearchParams();
  const redirect = safeTarget(params.get('redirect'));
  const session = useSession();
  const navigate = useNavigate();
  const login = useLogin();
  const loginTotp = useLoginTotp();
  const passwordForm = useForm<LoginForm, unknown, z.output<typeof LoginSchema>>({
    resolver: zodResolver(LoginSchema),
    defaultValues: { email: '', password: '' },
  });
  const codeForm = useForm<TotpForm, unknown, z.output<typeof TotpLoginSchema>>({ resolver: zodResolver(TotpLoginSchema), defaultValues: { code: '' } });
  const [step, setStep] = useState<'password' | 'code'>(params.get('mfa') ? 'code' : 'password');
  const justSignedIn = useRef(false);
  const email = passwordForm.watch('email');
  const password = passwordForm.watch('password');
  const code = codeForm.watch('code');
  const submitting = login.isPending || loginTotp.isPending || justSignedIn.current;

  useEffect(() => {
    if (session.status === 'ready' && session.session.mfaPending) setStep('code');
  }, [session]);

  if (session.status === 'loading') return <Spinner label="Laddar autentisering..." />;
  if (session.status === 'ready' && session.session.user && !justSignedIn.current) {
    return <Navigate to={`/auth-redirect${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`} replace />;
  }

  async function done(user: SessionUser) {
    justSignedIn.current = true;
    toast({ title: 'Inloggning lyckades', description: 'Välkommen tillbaka!', variant: 'success' });
    invalidateSession();
    await fetchSession(true).catch(() => undefined);
    navigate(destinationFor(user, redirect), { replace: true });
  }

  const onPassword = passwordForm.handleSubmit(async (body) => {
    if (submitting) return;
    try {
      const res = await login.mutateAsync(body);
      if (res.mfaRequired) {
        setStep('code');
        return;
      }
      if (res.user) await done(res.user);
    } catch (err) {
      setServerErrors(passwordForm.setError, err);
      loginErrorToast(err, {
        onResend: () =>
          void authApi.resend({ email: body.email }).then(
            () => toast({ title: 'Ny länk skickad', description: 'Kolla din e-post och öppna länken för att bekräfta adressen.', variant: 'success' }),
            (e: Error) => toast({ title: 'Kunde inte skicka länken', description: e.message, variant: 'destructive' }),
          ),
      });
    }
  });

  const onCode = codeForm.handleSubmit(async (body) => {
    if (submitting) return;
    try {
      const res = await loginTotp.mutateAsync(body.code);
      await done(res.user);
    } catch (err) {
      setServerErrors(codeForm.setError, err);
      loginErrorToast(err);
    }
  });

  if (step === 'code') {
    return (
      <AuthCard title="Tvåstegsverifiering" subtitle="Ange den sexsiffriga koden från din autentiseringsapp.">
        <form onSubmit={onCode} className="space-y-4" noValidate>
          <TextField
            autoFocus
            label="Kod från autentiseringsappen"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            required
            error={codeForm.formState.errors.code?.message}
            {...codeForm.register('code', {
              // Digits only, as typed (an app may show the code as "123 456").
              onChange: (e: { target: HTMLInputElement }) => {
                const digits = e.target.value.replace(/\D/g, '');
                if (digits !== e.target.value) codeForm.setValue('code', digits);
              },
            })}
          />
          <Button type="submit" className="w-full" disabled={submitting || (code ?? '').length !== 6}>
            {submitting ? 'Verifierar...' : 'Verifiera'}
          </Button>
        </form>
        <p className="text-sm">
          <a href="/login" className="font-semibold text-brand-700 underline">
            Avbryt och logga in igen
          </a>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Logga in" subtitle="Logga in för att hantera din verksamhet och dina quiz.">
      <form onSubmit={onPassword} className="space-y-4" noValidate>
        <TextField
          label="E-post"
          type="email"
          autoComplete="email"
          required
          error={passwordForm.formState.errors.email?.message}
          {...passwordForm.register('email')}
        />
        <TextField
          label="Lösenord"
          type="password"
          autoComplete="current-password"
          required
          error={passwordForm.formState.errors.password?.message}
          {...passwordForm.register('password')}
        />
        <Button type="submit" className="w-full" disabled={submitting || !(email ?? '').trim() || !password}>
          {submitting ? 'Loggar in...' : 'Logga in'}
        </Button>
      </form>
      <GoogleAlternative mode="login" redirect={redirect} />
      <nav aria-label="Fler alternativ" className="flex flex-col gap-2 text-sm">
        <Link to="/forgot-password" className="font-semibold text-brand-700 underline">
          Glömt lösenordet?
        </Link>
        <span>
          Inget konto?{' '}
          <Link to="/register" className="font-semibold text-brand-700 underline">
            Registrera dig
          </Link>
        </span>
        <a href="/" className="font-semibold text-brand-700 underline">
          Tillbaka till startsidan
        </a>
      </nav>
    </AuthCard>
  );
}
