/**
 * /register (spec 01 §2, §4 "Registration", §5, §8; spec 02 §2, §2.9). Signed in: the account tabs.
 * Optional ?takeoverVenue={id}: shows the business being taken over; the id travels into the
 * verification link and on to /admin?from=verify&takeoverVenue={id} — only once the lookup has said the
 * business exists and can be taken over (issue 44.9); an unknown or taken one says so and claims nothing.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { RegisterAccountTabs } from '../../components/account/RegisterAccountTabs';
import { AuthCard } from '../../components/auth/AuthCard';
import { GoogleAlternative } from '../../components/auth/GoogleAlternative';
import { classifyRegistrationError } from '../../components/auth/messages';
import { Button, buttonClass } from '../../components/ui/Button';
import { TextField } from '../../components/ui/Field';
import { NewPasswordFields } from '../../components/auth/NewPasswordFields';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';
import { ApiError } from '../../lib/api';
import { setServerErrors } from '../../lib/form';
import { useSession } from '../../lib/session';
import { rememberPendingEmail } from '../../components/auth/pendingEmail';
import { DUPLICATE_SUBMIT_MS, RegisterSchema, REGISTER_FIELDS, VERIFY_TOKEN_TTL_MS } from '../../../worker/features/auth/contract';
import { authApi, useRegister, useResendVerification } from '../../api/auth';
import type { TakeoverVenueInfo } from '../../../worker/features/takeover/contract';
import { countText } from '../../../worker/lib/swedish';

type RegisterForm = z.input<typeof RegisterSchema>;

/** Spec 01 §5: every message, in field order, shown joined under 'Valideringsfel'. */
function summary(errors: FieldErrors<RegisterForm>): string[] {
  return REGISTER_FIELDS.map((f) => errors[f]?.message).filter((m): m is string => !!m);
}

export default function RegisterPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const asked = params.get('takeoverVenue');
  // 'gone': the lookup found no business that can be taken over (unknown id, already claimed, or a failed lookup).
  const [takeover, setTakeover] = useState<TakeoverVenueInfo | 'gone' | null>(null);
  const claimable = takeover && takeover !== 'gone' && takeover.claimable ? takeover : null;
  const takeoverVenue = claimable ? asked : null;
  const registration = useRegister();
  const { register, handleSubmit, setError, formState } = useForm<RegisterForm, unknown, z.output<typeof RegisterSchema>>({
    resolver: zodResolver(RegisterSchema),
    defaultValues: { email: '', password: '', confirmPassword: '' },
  });
  const errors = summary(formState.errors);
  const submitting = registration.isPending;
  const [sentTo, setSentTo] = useState<string | null>(null);
  const lastAttempt = useRef(0);

  useEffect(() => {
    setTakeover(null);
    if (!asked) return;
    let live = true;
    authApi.takeoverVenue(asked).then(
      (v) => live && setTakeover(v.claimable ? v : 'gone'),
      () => live && setTakeover('gone'),
    );
    return () => {
      live = false;
    };
  }, [asked]);

  if (session.status === 'loading') return <Spinner label="Laddar autentisering..." />;
  if (session.status === 'ready' && session.session.user) return <RegisterAccountTabs user={session.session.user} />;

  const onSubmit = handleSubmit(async (body) => {
    const now = Date.now();
    if (submitting || now - lastAttempt.current < DUPLICATE_SUBMIT_MS) {
      toast({ title: 'Vänta lite', description: 'Vänta några sekunder innan du försöker igen.' });
      return;
    }
    lastAttempt.current = now;
    try {
      const res = await registration.mutateAsync({ ...body, ...(takeoverVenue ? { takeoverVenue } : {}) });
      setSentTo(res.email);
      rememberPendingEmail(res.email);
    } catch (err) {
      // A 400 names its fields: they join the 'Valideringsfel' summary like the client's own checks.
      if (setServerErrors(setError, err)) return;
      if (err instanceof ApiError && err.status === 409) {
        toast({
          title: 'E-postadressen är redan registrerad',
          description: 'Det finns redan ett konto med den här e-postadressen. Logga in eller återställ ditt lösenord.',
          variant: 'destructive',
          duration: 10_000,
          actions: [
            { label: 'Logga in', onClick: () => window.location.assign('/login') },
            { label: 'Glömt lösenord', onClick: () => window.location.assign('/forgot-password') },
          ],
        });
      } else if (err instanceof ApiError && err.status === 429) {
        toast({ title: 'För många försök', description: err.message, variant: 'destructive' });
      } else {
        toast({ title: 'Registrering misslyckades', description: classifyRegistrationError(err), variant: 'destructive' });
      }
    }
  });

  if (sentTo) return <ConfirmEmail email={sentTo} takeoverVenue={takeoverVenue} onReset={() => setSentTo(null)} />;

  return (
    <AuthCard title="Skapa konto" subtitle="Registrera dig för att lägga upp din verksamhet och era quizkvällar.">
      {claimable && (
        <section aria-label="Ta över verksamhet" className="rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-slate-800">
          <p className="font-semibold">{`Du tar över ${claimable.name}`}</p>
          <p className="mt-1">
            När du har bekräftat din e-postadress blir verksamheten din med {countText(claimable.placesCount, 'plats', 'platser')} och {claimable.quizzesCount}{' '}
            quiz. Du kan sedan redigera uppgifterna och din verksamhet får prioriterad synlighet.
          </p>
        </section>
      )}
      {asked && takeover === 'gone' && (
        <p role="status" className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          Länken gäller ingen verksamhet som kan tas över. Du kan skapa ett konto ändå och lägga upp din verksamhet själv.
        </p>
      )}
      {errors.length > 0 && (
        <div role="alert" className="rounded-xl border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-semibold">Valideringsfel</p>
          <p>{errors.join(', ')}</p>
        </div>
      )}
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <TextField label="E-post" type="email" autoComplete="email" aria-invalid={!!formState.errors.email} {...register('email')} />
        <NewPasswordFields
          register={register}
          labels={{ password: 'Lösenord', confirm: 'Bekräfta lösenord' }}
          invalid={{ password: !!formState.errors.password, confirmPassword: !!formState.errors.confirmPassword }}
        />
        <Button type="submit" className="w-full" disabled={submitting}>
          {submitting ? 'Registrerar...' : 'Registrera'}
        </Button>
      </form>
      <GoogleAlternative mode="register" takeoverVenue={takeoverVenue} />
      <p className="text-sm">
        Har du redan ett konto?{' '}
        <Link to="/login" className="font-semibold text-brand-700 underline">
          Logga in
        </Link>
      </p>
    </AuthCard>
  );
}

function ConfirmEmail({ email, takeoverVenue, onReset }: { email: string; takeoverVenue: string | null; onReset: () => void }) {
  const resending = useResendVerification();
  const sending = resending.isPending;
  async function resend() {
    try {
      await resending.mutateAsync({ email, ...(takeoverVenue ? { takeoverVenue } : {}) });
      toast({ title: 'E-post skickad igen', description: `En ny bekräftelselänk har skickats till ${email}.`, variant: 'success' });
    } catch (err) {
      toast({ title: 'Kunde inte skicka igen', description: err instanceof Error ? err.message : 'Ett oväntat fel inträffade', variant: 'destructive' });
    }
  }
  return (
    <AuthCard
      title="Bekräfta din e-postadress"
      subtitle={
        <>
          Vi har skickat en bekräftelselänk till <strong>{email}</strong>. Öppna länken för att aktivera ditt konto. Länken gäller i{' '}
          {VERIFY_TOKEN_TTL_MS / 3_600_000} timmar.
        </>
      }
    >
      <Button className="w-full" onClick={() => void resend()} disabled={sending}>
        {sending ? 'Skickar...' : 'Skicka igen'}
      </Button>
      <Button variant="secondary" className="w-full" onClick={onReset}>
        Använd en annan e-postadress
      </Button>
      <Link to="/login" className={buttonClass('ghost', 'w-full')}>
        Gå till inloggning
      </Link>
    </AuthCard>
  );
}
