/**
 * The superadmin's durable CSV import (worker/features/admin/import-job*, /api/admin/import/jobs):
 * typed calls, query keys and the TanStack Query hooks of the Import tab. The keys sit under the
 * admin family (ADMIN_ROOT), so a finished import's new businesses refresh the superadmin lists too.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImportJobView, ImportReviewItem } from '../../worker/features/admin/import-job-contract';
import { api, ApiError } from '../lib/api';
import { ADMIN_ROOT } from './admin';

const enc = encodeURIComponent;
/** Every job URL; also the report download link (a plain <a download>). */
export const importJobPath = (id: string, rest = '') => `/api/admin/import/jobs/${enc(id)}${rest}`;

/** Sends the file's bytes as they are (so the server can tell UTF-8 from Windows-1252): not JSON. */
async function uploadFile(file: File): Promise<ImportJobView> {
  let res: Response;
  try {
    res = await fetch(`/api/admin/import/jobs?name=${enc(file.name)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', accept: 'application/json' },
      body: file,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network', 'Nätverksfel - kontrollera din internetanslutning');
  }
  const data = (await res.json().catch(() => null)) as (ImportJobView & { error?: { code: string; message: string } }) | null;
  if (!res.ok) throw new ApiError(res.status, data?.error?.code ?? 'http_error', data?.error?.message ?? 'Kunde inte läsa filen. Försök igen.');
  return data!;
}

export const importApi = {
  upload: uploadFile,
  list: () => api<{ jobs: ImportJobView[] }>('/api/admin/import/jobs'),
  job: (id: string) => api<ImportJobView>(importJobPath(id)),
  start: (id: string) => api<ImportJobView>(importJobPath(id, '/start'), { method: 'POST', body: {} }),
  resume: (id: string) => api<ImportJobView>(importJobPath(id, '/resume'), { method: 'POST', body: {} }),
  reviews: (id: string) => api<{ reviews: ImportReviewItem[] }>(importJobPath(id, '/reviews')).then((r) => r.reviews),
  resolve: (v: { id: string; rowNo: number; action: 'merge' | 'create' }) =>
    api<ImportReviewItem>(importJobPath(v.id, `/reviews/${v.rowNo}`), { body: { action: v.action } }),
};

export const importKeys = {
  all: () => [...ADMIN_ROOT, 'import'] as const,
  list: () => [...importKeys.all(), 'jobs'] as const,
  job: (id: string) => [...importKeys.all(), 'job', id] as const,
  reviews: (id: string) => [...importKeys.all(), 'reviews', id] as const,
};

/** How often a running job's row is read for the progress bar. */
export const IMPORT_POLL_MS = 1000;

/** The latest 10 jobs (the Import tab shows the newest started one again after a reload). */
export const useImportJobs = () => useQuery({ queryKey: importKeys.list(), queryFn: importApi.list, staleTime: 0 });

/** One job; read again every second while it runs (the row in D1 is the progress). */
export const useImportJob = (id: string | null) =>
  useQuery({
    queryKey: importKeys.job(id ?? ''),
    queryFn: () => importApi.job(id!),
    enabled: !!id,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.status === 'running' ? IMPORT_POLL_MS : false),
  });

/** The near-duplicates of a finished (or failed) job, when it has any. */
export const useImportReviews = (id: string | null, enabled: boolean) =>
  useQuery({ queryKey: importKeys.reviews(id ?? ''), queryFn: () => importApi.reviews(id!), enabled: !!id && enabled });

/** A write that answers with the job: its answer is the job's cached state at once. */
function useJobMutation<TVars>(mutationFn: (vars: TVars) => Promise<ImportJobView>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (job) => {
      qc.setQueryData(importKeys.job(job.id), job);
      void qc.invalidateQueries({ queryKey: importKeys.list() });
    },
  });
}

export const useUploadImport = () => useJobMutation(importApi.upload);
export const useStartImport = () => useJobMutation(importApi.start);
export const useResumeImport = () => useJobMutation(importApi.resume);

/** "Slå ihop" / "Skapa ny": the answered row replaces its old state; the admin lists refetch (a business may be new). */
export function useResolveReview() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: importApi.resolve,
    onSuccess: (item, v) => {
      qc.setQueryData<ImportReviewItem[]>(importKeys.reviews(v.id), (rows) => rows?.map((r) => (r.rowNo === item.rowNo ? item : r)));
      void qc.invalidateQueries({ queryKey: ADMIN_ROOT, predicate: (q) => q.queryKey[1] !== 'import' });
    },
  });
}
