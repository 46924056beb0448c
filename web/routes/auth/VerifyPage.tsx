/**
 * /verify (spec 01 §2, §4 "Verification", §8; spec 02 §2.9, §4.5): loading → success | expired | error.
 * Handles the registration link (?token=…&takeoverVenue=…), the e-mail change link (?type=email_change)
 * and an already established session (?session=1, after Google registration).
 */
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthCard } from '../../components/auth/AuthCard';
import { Button, buttonClass } from '../../components/ui/Button';
import { TextField } from '../../components/ui/Field';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';
import { ApiError } from '../../lib/api';
import { fetchSession, invalidateSession } from '../../lib/session';
import { forgetPendingEmail, pendingEmail } from '../../components/auth/pendingEmail';
import { authApi, useResendVerification } from '../../api/auth';

const VERIFY_REDIRECT_MS = 3000;

type State = { kind: 'loading' } | { kind: 'success'; target: string; message: string } | { kind: 'expired' } | { kind: 'error'; message: string };

export default function VerifyPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const started = useRef(false);
  const token = params.get('token');
  const type = params.get('type');
  const takeoverParam = params.get('takeoverVenue');

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      const errParam = `${params.get('error') ?? ''} ${params.get('error_description') ?? ''}`.trim();
      if (errParam) {
        setState(
          errParam.toLowerCase().includes('expired')
            ? { kind: 'expired' }
            : { kind: 'error', message: 'E-postverifieringen misslyckades. Försök registrera dig igen.' },
        );
        return;
      }
      try {
        if (type === 'email_change') {
          if (!token) throw new ApiError(400, 'invalid_input', 'Länken är ogiltig.', undefined, { reason: 'invalid' });
          const res = await authApi.confirmEmailChange(token);
          invalidateSession();
          setState({ kind: 'success', target: '/admin', message: `Din e-postadress är nu ${res.email}.` });
          return;
        }
        let takeoverVenue = takeoverParam;
        if (token) {
          const res = await authApi.verify(token);
          takeoverVenue = res.takeoverVenue ?? takeoverParam;
        } else {
          const s = await fetchSession(true);
          if (!s.user) throw new ApiError(400, 'invalid_input', 'E-postverifieringen misslyckades. Försök registrera dig igen.');
        }
        invalidateSession();
        forgetPendingEmail();
        if (takeoverVenue) {
          try {
            await authApi.takeover(takeoverVenue);
          } catch {
            toast({
              title: 'Det gick inte att ta över verksamheten',
              description: 'Verksamheten kunde inte tas över. Kontakta support om problemet kvarstår.',
              variant: 'destructive',
            });
          }
        }
        setState({
          kind: 'success',
          target: takeoverVenue ? `/admin?from=verify&takeoverVenue=${encodeURIComponent(takeoverVenue)}` : '/admin',
          message: 'Din e-postadress är bekräftad och du är inloggad.',
        });
      } catch (err) {
        const reason = err instanceof ApiError ? err.details?.reason : undefined;
        setState(
          reason === 'expired'
            ? { kind: 'expired' }
            : {
                kind: 'error',
                message: err instanceof ApiError && err.status !== 400 ? err.message : 'E-postverifieringen misslyckades. Försök registrera dig igen.',
              },
        );
      }
    })();
  }, [params, token, type, takeoverParam]);

  useEffect(() => {
    if (state.kind !== 'success') return;
    const t = setTimeout(() => navigate(state.target, { replace: true }), VERIFY_REDIRECT_MS);
    return () => clearTimeout(t);
  }, [state, navigate]);

  if (state.kind === 'loading') return <Spinner label="Verifierar din e-postadress..." />;
  if (state.kind === 'success') {
    return (
      <AuthCard title="E-postadressen är bekräftad!" subtitle={state.message}>
        <p className="text-slate-700">Du skickas vidare om 3 sekunder.</p>
        <Button className="w-full" onClick={() => navigate(state.target, { replace: true })}>
          Gå vidare nu
        </Button>
      </AuthCard>
    );
  }
  if (state.kind === 'expired') return <ExpiredState takeoverVenue={takeoverParam} />;
  return (
    <AuthCard title="Verifieringen misslyckades" subtitle={state.message}>
      <Link to="/register" className={buttonClass('primary', 'w-full')}>
        Registrera dig igen
      </Link>
      <Link to="/login" className={buttonClass('secondary', 'w-full')}>
        Tillbaka till inloggning
      </Link>
    </AuthCard>
  );
}

function ExpiredState({ takeoverVenue }: { takeoverVenue: string | null }) {
  const [email, setEmail] = useState(pendingEmail);
  const resending = useResendVerification();
  const sending = resending.isPending;
  async function resend() {
    if (!email.trim()) {
      toast({ title: 'Ingen email-adress hittad. Försök registrera dig igen.', variant: 'destructive' });
      return;
    }
    try {
      await resending.mutateAsync({ email: email.trim(), ...(takeoverVenue ? { takeoverVenue } : {}) });
      toast({ title: 'Ny länk skickad', description: 'Om adressen väntar på bekräftelse har vi skickat en ny länk.', variant: 'success' });
    } catch (err) {
      toast({ title: 'Kunde inte skicka länken', description: err instanceof Error ? err.message : 'Ett oväntat fel inträffade', variant: 'destructive' });
    }
  }
  return (
    <AuthCard title="Länken har gått ut" subtitle="Verifieringslänken är inte längre giltig. Be om en ny länk eller registrera dig igen.">
      <TextField label="E-post" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <Button className="w-full" onClick={() => void resend()} disabled={sending}>
        {sending ? 'Skickar...' : 'Skicka ny länk'}
      </Button>
      <Link to="/register" className={buttonClass('secondary', 'w-full')}>
        Registrera dig igen
      </Link>
    </AuthCard>
  );
}
