/**
 * The 'Säkerhet' tab of the business profile editor (spec 02 §2.3): TOTP two-factor sign-in.
 * Enrol → QR code (uqr) and the key as text → confirm with a code; remove with the password.
 * Rendered by the venues work's profile editor; no props. The forms validate with the shared
 * contracts (PasswordOnlySchema, TotpCodeSchema).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { renderSVG } from 'uqr';
import type { z } from 'zod';
import { PasswordOnlySchema, TotpCodeSchema } from '../../../worker/features/accounts/contract';
import { useAccount, useConfirmTotp, useEnrolTotp, useRemoveTotp } from '../../api/account';
import { ApiError } from '../../lib/api';
import { setServerErrors } from '../../lib/form';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { Spinner } from '../ui/Spinner';
import { toast } from '../ui/Toast';

type PasswordValues = z.input<typeof PasswordOnlySchema>;
type CodeValues = z.input<typeof TotpCodeSchema>;

/** With a password on the account, enrolling and removing need it (spec 02 §2.3). */
const passwordSchema = (hasPassword: boolean) =>
  hasPassword ? PasswordOnlySchema.refine((v) => !!v.password, { message: 'Ange ditt lösenord.', path: ['password'] }) : PasswordOnlySchema;

const unexpected = (err: unknown) => (err instanceof ApiError ? err.message : 'Ett oväntat fel inträffade');

function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm font-medium text-red-700">
      {message}
    </p>
  );
}

export default function SecurityTab() {
  const { data, error } = useAccount();
  const [enrolment, setEnrolment] = useState<{ secret: string; uri: string } | null>(null);
  if (error)
    return (
      <p role="alert" className="text-red-700">
        {error.message}
      </p>
    );
  if (!data) return <Spinner label="Laddar säkerhetsinställningar..." />;
  if (data.totpEnabled) return <RemoveForm hasPassword={data.hasPassword} />;
  if (enrolment) return <ConfirmForm enrolment={enrolment} onDone={() => setEnrolment(null)} />;
  return <StartForm hasPassword={data.hasPassword} onStarted={setEnrolment} />;
}

function usePasswordForm(hasPassword: boolean) {
  return useForm<PasswordValues, unknown, z.output<typeof PasswordOnlySchema>>({
    resolver: zodResolver(passwordSchema(hasPassword)),
    defaultValues: { password: '' },
  });
}

function StartForm({ hasPassword, onStarted }: { hasPassword: boolean; onStarted: (e: { secret: string; uri: string }) => void }) {
  const enrol = useEnrolTotp();
  const { register, handleSubmit, setError, formState } = usePasswordForm(hasPassword);
  const onSubmit = handleSubmit(async (body) => {
    try {
      onStarted(await enrol.mutateAsync(hasPassword ? { password: body.password } : {}));
    } catch (err) {
      if (!setServerErrors(setError, err)) setError('root.server', { message: unexpected(err) });
    }
  });
  return (
    <form onSubmit={onSubmit} className="space-y-3" noValidate>
      <h3 className="text-lg font-bold">Tvåstegsverifiering</h3>
      <p className="text-sm text-slate-700">Skydda ditt konto med en kod från en autentiseringsapp utöver lösenordet.</p>
      {hasPassword && (
        <TextField label="Lösenord" type="password" autoComplete="current-password" error={formState.errors.password?.message} {...register('password')} />
      )}
      <FormError message={formState.errors.root?.server?.message} />
      <Button type="submit" disabled={enrol.isPending}>
        {enrol.isPending ? 'Startar...' : 'Aktivera tvåstegsverifiering'}
      </Button>
    </form>
  );
}

function ConfirmForm({ enrolment, onDone }: { enrolment: { secret: string; uri: string }; onDone: () => void }) {
  const confirmCode = useConfirmTotp();
  const { register, handleSubmit, setError, setValue, formState } = useForm<CodeValues, unknown, z.output<typeof TotpCodeSchema>>({
    resolver: zodResolver(TotpCodeSchema),
    defaultValues: { code: '' },
  });
  const onSubmit = handleSubmit(async (body) => {
    try {
      await confirmCode.mutateAsync(body.code);
      toast({ title: 'Tvåstegsverifiering aktiverad', description: 'Nästa gång du loggar in frågar vi efter en kod från appen.', variant: 'success' });
      onDone();
    } catch (err) {
      if (!setServerErrors(setError, err)) setError('root.server', { message: unexpected(err) });
    }
  });
  const svg = renderSVG(enrolment.uri, { border: 2 });
  const busy = confirmCode.isPending;
  return (
    <form onSubmit={onSubmit} className="space-y-3" noValidate>
      <h3 className="text-lg font-bold">Skanna QR-koden</h3>
      <p className="text-sm text-slate-700">
        Skanna koden med din autentiseringsapp (till exempel Google Authenticator eller Microsoft Authenticator) och ange sedan den sexsiffriga koden som visas.
      </p>
      <img
        src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`}
        alt="QR-kod för autentiseringsappen"
        width={192}
        height={192}
        className="h-48 w-48 rounded-lg border border-slate-200"
      />
      <p className="text-sm text-slate-700">
        Kan du inte skanna? Ange nyckeln manuellt:{' '}
        <code className="break-all rounded bg-slate-100 px-1 font-mono" data-testid="totp-secret">
          {enrolment.secret}
        </code>
      </p>
      <TextField
        label="Kod från appen"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        error={formState.errors.code?.message}
        {...register('code', {
          onChange: (e: { target: HTMLInputElement }) => {
            const digits = e.target.value.replace(/\D/g, '');
            if (digits !== e.target.value) setValue('code', digits);
          },
        })}
      />
      <FormError message={formState.errors.root?.server?.message} />
      <div className="flex gap-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Verifierar...' : 'Bekräfta kod'}
        </Button>
        <Button variant="secondary" onClick={onDone} disabled={busy}>
          Avbryt
        </Button>
      </div>
    </form>
  );
}

function RemoveForm({ hasPassword }: { hasPassword: boolean }) {
  const removal = useRemoveTotp();
  const { register, handleSubmit, setError, reset, formState } = usePasswordForm(hasPassword);
  const onSubmit = handleSubmit(async (body) => {
    try {
      await removal.mutateAsync(hasPassword ? { password: body.password } : {});
      toast({ title: 'Tvåstegsverifiering borttagen', variant: 'success' });
      reset();
    } catch (err) {
      if (!setServerErrors(setError, err)) setError('root.server', { message: unexpected(err) });
    }
  });
  return (
    <form onSubmit={onSubmit} className="space-y-3" noValidate>
      <h3 className="text-lg font-bold">Tvåstegsverifiering</h3>
      <p className="rounded-xl bg-emerald-50 p-3 text-emerald-950">
        Tvåstegsverifiering är aktiverad. Vid inloggning frågar vi efter en kod från din autentiseringsapp.
      </p>
      {hasPassword && (
        <TextField label="Lösenord" type="password" autoComplete="current-password" error={formState.errors.password?.message} {...register('password')} />
      )}
      <FormError message={formState.errors.root?.server?.message} />
      <Button type="submit" variant="danger" disabled={removal.isPending}>
        {removal.isPending ? 'Tar bort...' : 'Ta bort tvåstegsverifiering'}
      </Button>
    </form>
  );
}
