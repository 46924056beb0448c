/**
 * The signed-in user's own account (worker/features/accounts, /api/account): summary, e-mail and
 * password changes, TOTP, deletion. Typed by the shared contract; writes refetch the summary.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountOk, AccountSummary, EmailChangeRequested, TotpEnrolment } from '../../worker/features/accounts/contract';
import { api } from '../lib/api';

export const accountApi = {
  summary: () => api<AccountSummary>('/api/account'),
  changeEmail: (body: { newEmail: string; password?: string }) => api<EmailChangeRequested>('/api/account/email', { body }),
  changePassword: (body: { currentPassword?: string; password: string; confirmPassword: string }) => api<AccountOk>('/api/account/password', { body }),
  enrolTotp: (body: { password?: string }) => api<TotpEnrolment>('/api/account/totp/enroll', { body }),
  confirmTotp: (code: string) => api<AccountOk>('/api/account/totp/confirm', { body: { code } }),
  removeTotp: (body: { password?: string }) => api<AccountOk>('/api/account/totp/remove', { body }),
  remove: () => api<AccountOk>('/api/account', { method: 'DELETE' }),
};

export const accountKeys = { summary: () => ['account'] as const };

export const useAccount = () => useQuery({ queryKey: accountKeys.summary(), queryFn: accountApi.summary });

function useAccountMutation<TVars, TData>(mutationFn: (vars: TVars) => Promise<TData>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => void qc.invalidateQueries({ queryKey: accountKeys.summary() }) });
}

export const useChangeEmail = () => useAccountMutation(accountApi.changeEmail);
export const useChangePassword = () => useAccountMutation(accountApi.changePassword);
/** Starting an enrolment changes nothing the summary shows (TOTP is on only after the code). */
export const useEnrolTotp = () => useMutation({ mutationFn: accountApi.enrolTotp });
export const useConfirmTotp = () => useAccountMutation(accountApi.confirmTotp);
export const useRemoveTotp = () => useAccountMutation(accountApi.removeTotp);
export const useDeleteAccount = () => useMutation({ mutationFn: accountApi.remove });
