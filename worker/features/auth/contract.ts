import * as z from 'zod';

import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_TOO_SHORT } from '../../lib/password-rules';
import { lazySchema } from '../../lib/lazy-schema';
import { totpCodeField } from '../../lib/zod-text';

export { PASSWORD_MAX, PASSWORD_MIN };

/** Spec 01 §5 / §9. */
export const EMAIL_MAX = 254;
export const REGISTER_LIMIT = 5;
export const REGISTER_WINDOW_MS = 15 * 60 * 1000;
/**
 * Login throttling (issue 13.3/13.5, The Copenhagen Book / OWASP): attempts are counted before the
 * password is checked. One client may try one account LOGIN_PAIR_LIMIT times per window (then that pair
 * is locked), and any accounts LOGIN_CLIENT_LIMIT times. Per account across all clients there is no
 * lock-out (a stranger could lock the owner out): after LOGIN_ACCOUNT_FREE attempts each further one
 * must wait a growing delay (1 s, 2 s, 4 s … at most LOGIN_ACCOUNT_MAX_DELAY_MS) after the previous one.
 * A client with a valid device cookie for the account (issue 26.5, features/auth/device.ts) skips those
 * three: it may try LOGIN_DEVICE_LIMIT times per window, then that device is locked. Refused attempts
 * are never counted, so trying while locked does not prolong the lock.
 */
export const LOGIN_PAIR_LIMIT = 10;
export const LOGIN_DEVICE_LIMIT = 10;
export const LOGIN_ACCOUNT_FREE = 10;
export const LOGIN_ACCOUNT_MAX_DELAY_MS = 60 * 1000;
export const LOGIN_CLIENT_LIMIT = 50;
/** Wrong TOTP codes: per pending sign-in (then it ends) and per user within the login window. */
export const TOTP_SESSION_LIMIT = 5;
export const TOTP_USER_LIMIT = 10;

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const VERIFY_TOKEN_TTL_MS = 24 * 3600 * 1000;
/** How long a password reset link works, in hours (the mail and the form say it). */
export const RESET_TOKEN_TTL_HOURS = 1;
export const RESET_TOKEN_TTL_MS = RESET_TOKEN_TTL_HOURS * 3600 * 1000;
export const DUPLICATE_SUBMIT_MS = 5000;

/** The simple pattern of spec 01 §5: something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An e-mail address as every form takes it (trimmed, lower-cased); also the follows contract's. */
export const EmailSchema = lazySchema(() =>
  z
    .string({ error: 'E-postadress krävs' })
    .trim()
    .min(1, 'E-postadress krävs')
    .max(EMAIL_MAX, 'Ogiltig e-postadress')
    .regex(EMAIL_PATTERN, 'Ogiltig e-postadress')
    .transform((s) => s.toLowerCase())
    .describe('E-post'),
);
const email = EmailSchema;

const newPassword = lazySchema(() =>
  z
    .string({ error: 'Lösenord krävs' })
    .min(1, 'Lösenord krävs')
    .min(PASSWORD_MIN, PASSWORD_TOO_SHORT)
    .max(PASSWORD_MAX, `Lösenordet får vara högst ${PASSWORD_MAX} tecken`)
    .describe('Lösenord'),
);

const anyPassword = lazySchema(() => z.string({ error: 'Lösenord krävs' }).min(1, 'Lösenord krävs').max(PASSWORD_MAX, 'Lösenord krävs').describe('Lösenord'));

const venueId = lazySchema(() => z.string().trim().min(1).max(100).describe('Verksamhet'));
const token = lazySchema(() => z.string({ error: 'Länken är ogiltig' }).trim().min(10, 'Länken är ogiltig').max(200, 'Länken är ogiltig').describe('Länk'));

export const LoginSchema = lazySchema(() => z.object({ email, password: anyPassword }));
export type LoginInput = z.infer<typeof LoginSchema>;

export const TotpLoginSchema = lazySchema(() =>
  z.object({
    code: totpCodeField(),
  }),
);

export const RegisterSchema = lazySchema(() =>
  z
    .object({
      email,
      password: newPassword,
      confirmPassword: z.string({ error: 'Lösenorden matchar inte' }).max(PASSWORD_MAX).describe('Bekräfta lösenord'),
      takeoverVenue: venueId.optional(),
    })
    .refine((v) => v.password === v.confirmPassword, { message: 'Lösenorden matchar inte', path: ['confirmPassword'] }),
);
export type RegisterInput = z.infer<typeof RegisterSchema>;

export const EmailOnlySchema = lazySchema(() => z.object({ email }));

export const ResendSchema = lazySchema(() => z.object({ email, takeoverVenue: venueId.optional() }));

export const VerifySchema = lazySchema(() => z.object({ token }));

export const ResetCheckSchema = lazySchema(() => z.object({ token }));

export const ResetPasswordSchema = lazySchema(() =>
  z
    .object({
      token,
      password: newPassword,
      confirmPassword: z.string({ error: 'Lösenorden matchar inte' }).max(PASSWORD_MAX).describe('Bekräfta lösenord'),
    })
    .refine((v) => v.password === v.confirmPassword, { message: 'Lösenorden matchar inte', path: ['confirmPassword'] }),
);

export const GoogleStartSchema = lazySchema(() =>
  z.object({
    mode: z.enum(['login', 'register']).optional(),
    redirect: z.string().max(500).optional(),
    takeoverVenue: venueId.optional(),
  }),
);

/** The registration form's fields in the order spec 01 §5 lists their messages. */
export const REGISTER_FIELDS = ['email', 'password', 'confirmPassword'] as const;

/**
 * Client-side registration check (spec 01 §5): the first message of each field, in field order, to be
 * shown joined with commas under the title 'Valideringsfel'. RegisterSchema itself, as in the form.
 */
export function registrationErrors(v: { email: string; password: string; confirmPassword: string }): string[] {
  const r = RegisterSchema.safeParse(v);
  if (r.success) return [];
  return REGISTER_FIELDS.map((f) => r.error.issues.find((i) => i.path[0] === f)?.message).filter((m): m is string => !!m);
}

/** The fixed origin redirect targets are resolved against (never a real host). */
const REDIRECT_BASE = 'https://quizkvall.invalid';

/** A target that the URL parser resolves to a path on REDIRECT_BASE: that path, else null. */
function resolvedPath(target: string): string | null {
  let url: URL;
  try {
    url = new URL(target, REDIRECT_BASE);
  } catch {
    return null;
  }
  if (url.origin !== REDIRECT_BASE) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The one redirect check (issues 13.9, 26.8), shared by the Worker (Google sign-in) and the web app
 * (`safeTarget`, /login, /auth-redirect). Only same-origin paths pass, judged after the URL parser has
 * done its work: browsers drop tab/CR/LF inside URLs, read "\\" as "/" and remove dot segments, so
 * "/%09/evil.example", "/\\evil" or "/.//evil.example" (→ "//evil.example") would leave the site. The
 * target is normalised by resolving it against a fixed origin; the result is accepted only if it is a
 * path that is not scheme-relative and resolves to itself again (what is checked is what is navigated to).
 */
export function safeRedirect(target: string | null | undefined): string | null {
  if (!target || target.length > 2048 || !target.startsWith('/')) return null;
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return null;
  }
  // Control characters and backslashes are never part of our own paths; and a router that decodes the
  // path once must not find a scheme-relative one in it either ("/%2F/evil", "/.%2f/evil").
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point (written as \u escapes)
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return null;
  const once = resolvedPath(decoded);
  if (!once || /^\/[/\\]/.test(once)) return null;
  const path = resolvedPath(target);
  if (!path?.startsWith('/') || /^\/[/\\]/.test(path)) return null;
  return resolvedPath(path) === path ? path : null;
}

// ---------------------------------------------------------------- responses

/** The signed-in user as the browser sees it. */
export interface SessionUser {
  id: string;
  email: string;
  roles: Array<'admin' | 'superadmin'>;
  isSuperadmin: boolean;
}
/** GET /api/auth/session */
export interface SessionInfo {
  user: SessionUser | null;
  /** Epoch ms of the session's expiry, or null. */
  expiresAt: number | null;
  /** True while a password was accepted but the TOTP code is still missing. */
  mfaPending?: boolean;
}
/** GET /api/auth/config */
export interface AuthConfig {
  googleEnabled: boolean;
}
/** POST /api/auth/login: signed in, or the TOTP code is still needed. */
export type LoginResponse = { user: SessionUser; mfaRequired?: undefined } | { mfaRequired: true; user?: undefined };
/** POST /api/auth/login/totp */
export interface TotpLoginResponse {
  user: SessionUser;
}
/** POST /api/auth/register: the verification link went to `email`. */
export interface RegisterResponse {
  email: string;
}
/** POST /api/auth/verify */
export interface VerifyResponse {
  user: SessionUser | null;
  mfaRequired: boolean;
  takeoverVenue: string | null;
}
/** POST /api/auth/logout, /resend, /forgot, /reset/check, /reset */
export interface AuthOk {
  ok: true;
}
