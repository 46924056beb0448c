/** /login (spec 01 §2, §4 "Login form", §8). */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { AuthCard } from '../../components/auth/AuthCard';
import { GoogleAlternative } from '../../components/auth/GoogleAlternative';
import { destinationFor, loginErrorToast, safeTarget } from '../../components/auth/messages';
import { Button } from '../../components/ui/Button';
import { TextField } from '../../components/ui/Field';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';
import { fetchSession, invalidateSession, useSession, type SessionUser } from '../../lib/session';
import { authApi } from '../../api/auth';

export default function LoginPage() {
  const [params] = useSearchParams();
  const redirect = safeTarget(params.get('redirect'));
  const session = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [step, setStep] = useState<'password' | 'code'>(params.get('mfa') ? 'code' : 'password');
  const justSignedIn = useRef(false);

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

  async function onPassword(e: FormEvent) {
    e.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    try {
      const res = await authApi.login({ email, password });
      if (res.mfaRequired) {
        setStep('code');
        setSubmitting(false);
        return;
      }
      if (res.user) await done(res.user);
    } catch (err) {
      loginErrorToast(err, {
        onResend: () =>
          void authApi.resend({ email: email.trim() }).then(
            () => toast({ title: 'Ny länk skickad', description: 'Kolla din e-post och öppna länken för att bekräfta adressen.', variant: 'success' }),
            (e: Error) => toast({ title: 'Kunde inte skicka länken', description: e.message, variant: 'destructive' }),
          ),
      });
      setSubmitting(false);
    }
  }

  async function onCode(e: FormEvent) {
    e.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    try {
      const res = await authApi.loginTotp(code.trim());
      await done(res.user);
    } catch (err) {
      loginErrorToast(err);
      setSubmitting(false);
    }
  }

  if (step === 'code') {
    return (
      <AuthCard title="Tvåstegsverifiering" subtitle="Ange den sexsiffriga koden från din autentiseringsapp.">
        <form onSubmit={onCode} className="space-y-4" noValidate>
          <TextField
            autoFocus
            label="Kod från autentiseringsappen"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            required
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          />
          <Button type="submit" className="w-full" disabled={submitting || code.length !== 6}>
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
        <TextField label="E-post" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <TextField label="Lösenord" type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <Button type="submit" className="w-full" disabled={submitting || !email.trim() || !password}>
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
