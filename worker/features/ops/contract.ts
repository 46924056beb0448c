/**
 * GET /api/admin/status (issue 30 §4): what the superadmin's "Drift" tab shows. Read only, no input.
 * Types shared by the worker and web/components/superadmin/OpsPanel.tsx.
 */

/** Job name → the Cron Triggers that start it (worker/jobs/schedule.ts JOB_SCHEDULE). */
export type JobSchedule = ReadonlyMap<string, readonly string[]>;

/** The latest run of one job (job_runs), with what the alert check thinks of it. */
export interface OpsJobStatus {
  job: string;
  /** `failed` also for a run killed mid-way (`interrupted`). */
  status: 'running' | 'done' | 'failed';
  /** The latest run is still `running` in its row past its job's limit (lib/jobs.ts RUN_LIMIT_MINUTES). */
  interrupted: boolean;
  /** The newest finished or interrupted run failed: an incident stays open until a later run succeeds. */
  failing: boolean;
  startedAt: string;
  finishedAt: string | null;
  /** Duration in ms (null while running). */
  ms: number | null;
  /** While failing: that run's error (already free of personal data: errors name tables and columns). */
  error: string | null;
  /** The job normally runs every night (its last two runs were at most DAILY_GAP_HOURS apart). */
  daily: boolean;
  /** A scheduled job that missed its latest start, or an unscheduled daily job whose latest run is older than STALE_HOURS. */
  stale: boolean;
}

/** The newest successful backup. */
export interface OpsBackupStatus {
  job: string;
  status: 'running' | 'done' | 'failed';
  at: string;
  ageHours: number;
  bytes: number | null;
  tables: number | null;
  rows: number | null;
  key: string | null;
}

export interface OpsCheck {
  key: string;
  ok: boolean;
  /** 'fel' blocks a feature; 'varning' is worth knowing. */
  level: 'fel' | 'varning';
  message: string;
}

export interface OpsIncident {
  key: string;
  summary: string;
  openedAt: string;
  resolvedAt: string | null;
}

export interface OpsStatusResponse {
  generatedAt: string;
  jobs: OpsJobStatus[];
  mail: { pending: number; failed: number; deadLetters: number; oldestPendingAt: string | null };
  imports: {
    running: Array<{ id: string; fileName: string; startedAt: string | null; processedRows: number; totalRows: number }>;
    failed: Array<{ id: string; fileName: string; finishedAt: string | null; error: string | null }>;
  };
  backup: OpsBackupStatus | null;
  webhook: { lastReceivedAt: string | null; lastType: string | null; signatureFailuresToday: number };
  /** 5xx responses per UTC hour over the last 24 hours (hours without any are left out). */
  serverErrors: { last24h: number; hours: Array<{ hour: string; count: number }> };
  checks: OpsCheck[];
  incidents: { open: OpsIncident[]; recent: OpsIncident[] };
}
