/**
 * "Tipsa om ett quiz" (worker/features/tips): the public form's calls and the superadmin queue's hooks.
 * Answers invalidate the tips family and the admin family (the new business shows in "Verksamheter").
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminTip, AdminTipList, TipInput } from '../../worker/features/tips/contract';
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
