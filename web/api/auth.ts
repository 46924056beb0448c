/**
 * Signing in and out, registration, verification and password reset (worker/features/auth,
 * /api/auth), the e-mail change link (/api/account/email/confirm) and the takeover calls the
 * register and verify screens make (/api/takeover). Typed by the shared contracts. These screens
 * submit once and move on, so they call these directly; the session itself lives in web/lib/session.ts.
 */
import { useMutation } from '@tanstack/react-query';
import type { EmailChangeConfirmed } from '../../worker/features/accounts/contract';
import type { AuthConfig, AuthOk, LoginResponse, RegisterResponse, TotpLoginResponse, VerifyResponse } from '../../worker/features/auth/contract';
import type { TakeoverResult, TakeoverVenueInfo } from '../../worker/features/takeover/contract';
import { api } from '../lib/api';

export const authApi = {
  config: () => api<AuthConfig>('/api/auth/config'),
  login: (body: { email: string; password: string }) => api<LoginResponse>('/api/auth/login', { body }),
  loginTotp: (code: string) => api<TotpLoginResponse>('/api/auth/login/totp', { body: { code } }),
  register: (body: { email: string; password: string; confirmPassword: string; takeoverVenue?: string }) =>
    api<RegisterResponse>('/api/auth/register', { body }),
  resend: (body: { email: string; takeoverVenue?: string }) => api<AuthOk>('/api/auth/resend', { body }),
  verify: (token: string) => api<VerifyResponse>('/api/auth/verify', { body: { token } }),
  forgot: (email: string) => api<AuthOk>('/api/auth/forgot', { body: { email } }),
  resetCheck: (token: string) => api<AuthOk>('/api/auth/reset/check', { body: { token } }),
  reset: (body: { token: string; password: string; confirmPassword: string }) => api<AuthOk>('/api/auth/reset', { body }),
  confirmEmailChange: (token: string) => api<EmailChangeConfirmed>('/api/account/email/confirm', { body: { token } }),
  takeoverVenue: (id: string) => api<TakeoverVenueInfo>(`/api/takeover/venues/${encodeURIComponent(id)}`),
  takeover: (venueId: string) => api<TakeoverResult>('/api/takeover', { body: { venueId } }),
};

/** One-shot writes of the auth screens; `isPending` is the screens' 'Skickar...' state. */
export const useResendVerification = () => useMutation({ mutationFn: authApi.resend });
export const useForgotPassword = () => useMutation({ mutationFn: authApi.forgot });
export const useLogin = () => useMutation({ mutationFn: authApi.login });
export const useLoginTotp = () => useMutation({ mutationFn: authApi.loginTotp });
export const useRegister = () => useMutation({ mutationFn: authApi.register });
export const useResetPassword = () => useMutation({ mutationFn: authApi.reset });
