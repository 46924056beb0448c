/**
 * "Tipsa om ett quiz" (worker/features/tips): the public form's calls and the superadmin queue's hooks.
 * Answers invalidate the tips family and the admin family (the new business shows in "Verksamheter").
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminTip, AdminTipList, TipInput } from '../../worker/features/tips/contract';
import type { AdminTeamReport } from '../../worker/features/results/contract';
import { api } from '../lib/api';
import { ADMIN_ROOT } from './admin';

const enc = encodeURIComponent;
export type TipStatusFilter = 'pending' | 'approved' | 'rejected';
export type TipOrder = 'oldest' | 'newest';

export const tipsApi = {
  config: () => api<{ siteKey: string | null }>('/api/tips/config'),
  submit: (body: TipInput) => api<{ ok: true }>('/api/tips', { body }),
  list: (status: TipStatusFilter, order: TipOrder, cursor: string | null) =>
    api<AdminTipList>(`/api/admin/tips?status=${status}&order=${order}${cursor ? `&cursor=${enc(cursor)}` : ''}`),
  count: () => api<{ pending: number }>('/api/admin/tips/count'),
  approve: (id: string) => api<AdminTip>(`/api/admin/tips/${enc(id)}/approve`, { method: 'POST' }),
  reject: (id: string, reason: string) => api<AdminTip>(`/api/admin/tips/${enc(id)}/reject`, { body: { reason } }),
};

export const tipKeys = {
  root: [...ADMIN_ROOT, 'tips'] as const,
  list: (status: TipStatusFilter, order: TipOrder) => [...ADMIN_ROOT, 'tips', status, order] as const,
  count: () => [...ADMIN_ROOT, 'tips', 'count'] as const,
};

/** The queue in pages ('Visa fler'), oldest first unless asked otherwise. */
export const useTips = (status: TipStatusFilter, order: TipOrder) =>
  useInfiniteQuery({
    queryKey: tipKeys.list(status, order),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => tipsApi.list(status, order, pageParam),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
export const useTipCount = () => useQuery({ queryKey: tipKeys.count(), queryFn: tipsApi.count });

export function useAnswerTip() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; action: 'approve' } | { id: string; action: 'reject'; reason: string }) =>
      v.action === 'approve' ? tipsApi.approve(v.id) : tipsApi.reject(v.id, v.reason),
    onSettled: () => qc.invalidateQueries({ queryKey: ADMIN_ROOT }),
  });
}

/** Team-name reports (issue 46) in the same queue: list, dismiss, rename or hide the team. */
export const teamReportsApi = {
  list: () => api<{ items: AdminTeamReport[] }>('/api/admin/team-reports'),
  dismiss: (id: string) => api<{ ok: true }>(`/api/admin/team-reports/${enc(id)}/dismiss`, { method: 'POST' }),
  update: (teamId: string, body: { name?: string; hidden?: boolean }) => api<unknown>(`/api/admin/teams/${enc(teamId)}`, { method: 'PATCH', body }),
};
export const useTeamReports = () => useQuery({ queryKey: [...ADMIN_ROOT, 'team-reports'], queryFn: teamReportsApi.list });
export function useAnswerTeamReport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (
      v: { action: 'dismiss'; id: string } | { action: 'rename'; teamId: string; name: string } | { action: 'hide'; teamId: string },
    ): Promise<unknown> =>
      v.action === 'dismiss'
        ? teamReportsApi.dismiss(v.id)
        : v.action === 'rename'
          ? teamReportsApi.update(v.teamId, { name: v.name })
          : teamReportsApi.update(v.teamId, { hidden: true }),
    onSettled: () => qc.invalidateQueries({ queryKey: ADMIN_ROOT }),
  });
}
