/**
 * The 'Konto' tab of the business profile editor (spec 02 §2.3, §5): change e-mail (confirmed by a
 * link to the new address) and change password. Both need the current password when the account has
 * one. Rendered by the venues work's profile editor; no props. The forms validate with the shared
 * contracts (ChangeEmailSchema, ChangePasswordSchema) plus that one account-specific rule.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ChangeEmailSchema, ChangePasswordSchema } from '../../../worker/features/accounts/contract';
import { useAccount, useChangeEmail, useChangePassword } from '../../api/account';
import { ApiError } from '../../lib/api';
import { setServerErrors } from '../../lib/form';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { NewPasswordFields } from '../auth/NewPasswordFields';
import { Spinner } from '../ui/Spinner';
import { toast } from '../ui/Toast';

export default function AccountTab() {
  const { data, error } = useAccount();
  if (error)
    return (
      <p role="alert" className="text-red-700">
        {error.message}
      </p>
    );
  if (!data) return <Spinner label="Laddar kontouppgifter..." />;
  return (
    <div className="space-y-8">
      <EmailForm email={data.email} needsPassword={data.hasPassword} />
      <PasswordForm hasPassword={data.hasPassword} />
    </div>
  );
}

/** A refused request without field issues (wrong password, taken address, rate limit): one line under the form. */
function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm font-medium text-red-700">
      {message}
    </p>
  );
}

const unexpected = (err: unknown) => (err instanceof ApiError ? err.message : 'Ett oväntat fel inträffade');

type EmailValues = z.input<typeof ChangeEmailSchema>;
/** With a password on the account, the current one is required too (spec 02 §5). */
const emailSchema = (needsPassword: boolean) =>
  needsPassword ? ChangeEmailSchema.refine((v) => !!v.password, { message: 'Ange både ny mejladress och lösenord.', path: ['password'] }) : ChangeEmailSchema;

function EmailForm({ email, needsPassword }: { email: string; needsPassword: boolean }) {
  const change = useChangeEmail();
  const { register, handleSubmit, setError, reset, formState } = useForm<EmailValues, unknown, z.output<typeof ChangeEmailSchema>>({
    resolver: zodResolver(emailSchema(needsPassword)),
    defaultValues: { newEmail: '', password: '' },
  });
  const errors = formState.errors;
  const onSubmit = handleSubmit(async (body) => {
    try {
      const res = await change.mutateAsync({ newEmail: body.newEmail, ...(needsPassword ? { password: body.password } : {}) });
      toast({
        title: 'Bekräftelselänk skickad',
        description: `Vi har skickat en länk till ${res.newEmail}. Din e-postadress ändras när du öppnar länken.`,
        variant: 'success',
      });
      reset();
    } catch (err) {
      if (!setServerErrors(setError, err)) setError('root.server', { message: unexpected(err) });
    }
  });
  return (
    <form onSubmit={onSubmit} className="space-y-3" noValidate aria-labelledby="account-email-heading">
      <h3 id="account-email-heading" className="text-lg font-bold">
        Byt e-postadress
      </h3>
      <p className="text-sm text-slate-700">
        Nuvarande e-postadress: <strong>{email}</strong>
      </p>
      <TextField label="Ny e-postadress" type="email" autoComplete="email" error={errors.newEmail?.message} {...register('newEmail')} />
      {needsPassword && (
        <TextField label="Lösenord" type="password" autoComplete="current-password" error={errors.password?.message} {...register('password')} />
      )}
      <FormError message={errors.root?.server?.message} />
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? 'Sparar...' : 'Byt e-postadress'}
      </Button>
    </form>
  );
}

type PasswordValues = z.input<typeof ChangePasswordSchema>;
const passwordSchema = (hasPassword: boolean) =>
  hasPassword
    ? ChangePasswordSchema.refine((v) => !!v.currentPassword, { message: 'Ange ditt nuvarande lösenord.', path: ['currentPassword'] })
    : ChangePasswordSchema;

function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const change = useChangePassword();
  const { register, handleSubmit, setError, reset, formState } = useForm<PasswordValues, unknown, z.output<typeof ChangePasswordSchema>>({
    resolver: zodResolver(passwordSchema(hasPassword)),
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  });
  const errors = formState.errors;
  const onSubmit = handleSubmit(async (body) => {
    try {
      await change.mutateAsync({
        ...(hasPassword ? { currentPassword: body.currentPassword } : {}),
        password: body.password,
        confirmPassword: body.confirmPassword,
      });
      toast({ title: 'Lösenordet har ändrats', description: 'Dina andra inloggningar har avslutats.', variant: 'success' });
      reset();
    } catch (err) {
      // 'Fel lösenord.' names the current password (path 'password' on the server: the one typed to confirm).
      if (err instanceof ApiError && err.details?.reason === 'wrong_password') setError('currentPassword', { type: 'server', message: err.message });
      else if (!setServerErrors(setError, err)) setError('root.server', { message: unexpected(err) });
    }
  });
  return (
    <form onSubmit={onSubmit} className="space-y-3" noValidate aria-labelledby="account-password-heading">
      <h3 id="account-password-heading" className="text-lg font-bold">
        {hasPassword ? 'Byt lösenord' : 'Välj ett lösenord'}
      </h3>
      {hasPassword && (
        <TextField
          label="Nuvarande lösenord"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...register('currentPassword')}
        />
      )}
      <NewPasswordFields register={register} errors={{ password: errors.password?.message, confirmPassword: errors.confirmPassword?.message }} />
      <FormError message={errors.root?.server?.message} />
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? 'Sparar...' : 'Byt lösenord'}
      </Button>
    </form>
  );
}
