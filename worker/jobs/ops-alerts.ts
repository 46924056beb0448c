/**
 * The operations alert check as a cron task (issue 30 §5): run after every cron invocation by
 * worker/index.ts, and as the nightly run's last task (worker/jobs/nightly.ts, sent after the others),
 * recorded in job_runs as 'ops-alerts'. The rules are in worker/features/ops/alerts.ts.
 */
import { createDb } from '../db/client';
import { parseConfig } from '../env';
import { clockFrom, createClock } from '../lib/clock';
import { recordJob } from '../lib/jobs';
import { ALERT_JOB, checkAlerts, type AlertCheckResult } from '../features/ops/service';
import { createDeps, productionPorts, type Deps, type PortFactories } from '../ports/deps';
import { JOB_SCHEDULE } from './schedule';

/** One recorded alert check with the run's deps, judged against the jobs' schedule (./schedule.ts). */
export function alertCheckTask(deps: Deps): Promise<AlertCheckResult> {
  return recordJob(deps.db, deps.clock, ALERT_JOB, () => checkAlerts(deps, JOB_SCHEDULE));
}

export async function runAlertCheck(env: Env, scheduledAt: Date, ports: PortFactories = productionPorts): Promise<AlertCheckResult> {
  const config = parseConfig(env);
  const clock = config.clockNow ? createClock(config.clockNow) : clockFrom(scheduledAt);
  return alertCheckTask(createDeps({ db: createDb(env.DB), config, clock, env }, ports));
}
