import * as z from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_TOO_SHORT_PROFILE } from '../../lib/password-rules';
import { lazySchema } from '../../lib/lazy-schema';
import { totpCodeField } from '../../lib/zod-text';

// Spec 02 §5: profile password and e-mail change (the password's bounds: lib/password-rules.ts).

/** How long the link that confirms a new e-mail address works (the mail quotes it). */
export const EMAIL_CHANGE_TOKEN_TTL_MS = 24 * 3600 * 1000;

const currentPassword = lazySchema(() => z.string().max(PASSWORD_MAX).optional().describe('Nuvarande lösenord'));

export const ChangePasswordSchema = lazySchema(() =>
  z
    .object({
      currentPassword,
      password: z
        .string({ error: 'Ange både nytt lösenord och bekräftelse.' })
        .min(1, 'Ange både nytt lösenord och bekräftelse.')
        .min(PASSWORD_MIN, PASSWORD_TOO_SHORT_PROFILE)
        .max(PASSWORD_MAX, `Lösenordet får vara högst ${PASSWORD_MAX} tecken.`)
        .describe('Nytt lösenord'),
      confirmPassword: z
        .string({ error: 'Ange både nytt lösenord och bekräftelse.' })
        .min(1, 'Ange både nytt lösenord och bekräftelse.')
        .max(PASSWORD_MAX)
        .describe('Bekräfta lösenord'),
    })
    .refine((v) => v.password === v.confirmPassword, { message: 'Lösenorden matchar inte.', path: ['confirmPassword'] }),
);

export const ChangeEmailSchema = lazySchema(() =>
  z.object({
    newEmail: z
      .string({ error: 'Ange både ny mejladress och lösenord.' })
      .trim()
      .min(1, 'Ange både ny mejladress och lösenord.')
      .max(254, 'Ogiltig e-postadress')
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Ogiltig e-postadress')
      .transform((s) => s.toLowerCase())
      .describe('Ny e-post'),
    password: currentPassword.describe('Lösenord'),
  }),
);

export const PasswordOnlySchema = lazySchema(() => z.object({ password: currentPassword.describe('Lösenord') }));

export const TotpCodeSchema = lazySchema(() =>
  z.object({
    code: totpCodeField(),
  }),
);

export const EmailChangeConfirmSchema = lazySchema(() =>
  z.object({
    token: z.string({ error: 'Länken är ogiltig' }).trim().min(10, 'Länken är ogiltig').max(200, 'Länken är ogiltig').describe('Länk'),
  }),
);

// ---------------------------------------------------------------- responses

/** GET /api/account */
export interface AccountSummary {
  email: string;
  hasPassword: boolean;
  totpEnabled: boolean;
  counts: { venues: number; places: number; upcomingQuizzes: number };
}
/** POST /api/account/email: the confirmation link went to `newEmail`. */
export interface EmailChangeRequested {
  newEmail: string;
}
/** POST /api/account/totp/enroll */
export interface TotpEnrolment {
  secret: string;
  uri: string;
}
/** POST /api/account/password, /totp/confirm, /totp/remove */
export interface AccountOk {
  ok: true;
}
/** POST /api/account/email/confirm: the address now in use. */
export interface EmailChangeConfirmed {
  email: string;
}
