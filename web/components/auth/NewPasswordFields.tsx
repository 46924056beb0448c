import type { UseFormRegisterReturn } from 'react-hook-form';
import { PASSWORD_HINT } from '../../../worker/lib/password-rules';
import { TextField } from '../ui/Field';

/**
 * The new password and its confirmation, as registration, the reset link and the account tab ask for them (issue
 * 45.5: one component instead of three copies). The form's own zod contract validates; this only lays out the two
 * fields with the rule's hint. `errors` shows each field's message under it; `invalid` only marks the field (the
 * registration form lists its messages in one summary above the form, spec 01 §5).
 */
export function NewPasswordFields({
  register,
  labels = { password: 'Nytt lösenord', confirm: 'Bekräfta nytt lösenord' },
  errors,
  invalid,
}: {
  register: (name: 'password' | 'confirmPassword') => UseFormRegisterReturn;
  labels?: { password: string; confirm: string };
  errors?: { password?: string | undefined; confirmPassword?: string | undefined };
  invalid?: { password: boolean; confirmPassword: boolean };
}) {
  return (
    <>
      <TextField
        label={labels.password}
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_HINT}
        error={errors?.password}
        {...(invalid ? { 'aria-invalid': invalid.password } : {})}
        {...register('password')}
      />
      <TextField
        label={labels.confirm}
        type="password"
        autoComplete="new-password"
        error={errors?.confirmPassword}
        {...(invalid ? { 'aria-invalid': invalid.confirmPassword } : {})}
        {...register('confirmPassword')}
      />
    </>
  );
}
