/** Texts of the "Drift" tab (OpsPanel.tsx) that are rules, kept apart so they are tested without a DOM. */
import type { OpsJobStatus } from '../../../worker/features/ops/contract';

/** A job's status as the superadmin reads it, and whether it is a problem (a red badge). */
export function jobStatusText(j: Pick<OpsJobStatus, 'status' | 'interrupted' | 'failing' | 'stale'>): { text: string; ok: boolean } {
  if (j.interrupted) return { text: 'Misslyckades (avbröts)', ok: false };
  if (j.status === 'failed') return { text: 'Misslyckades', ok: false };
  if (j.stale) return { text: 'Har inte startat i tid', ok: false };
  if (j.status === 'running') return j.failing ? { text: 'Pågår (förra körningen misslyckades)', ok: false } : { text: 'Pågår', ok: true };
  return { text: 'Klar', ok: true };
}

/** A size in Swedish: "812 kB", "24,3 MB", "1,2 GB" (binary units, as R2 and the dashboard show them). */
export function byteSize(n: number | null): string {
  if (n === null) return '–';
  const one = (v: number) => v.toLocaleString('sv-SE', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  if (n < 1024 * 1024) return `${Math.max(1, Math.round(n / 1024)).toLocaleString('sv-SE')} kB`;
  if (n < 1024 * 1024 * 1024) return `${one(n / 1024 / 1024)} MB`;
  return `${one(n / 1024 / 1024 / 1024)} GB`;
}
