/**
 * The operations alert check as a cron task (issue 30 §5): run after every cron invocation by
 * worker/index.ts, recorded in job_runs as 'ops-alerts'. The rules are in worker/features/ops/alerts.ts.
 */
import { createDb } from '../db/client';
import { parseConfig } from '../env';
import { clockFrom, createClock } from '../lib/clock';
import { recordJob } from '../lib/jobs';
import { ALERT_JOB, checkAlerts, type AlertCheckResult } from '../features/ops/service';
import { createDeps, productionPorts, type PortFactories } from '../ports/deps';
import { JOB_SCHEDULE } from './schedule';

export async function runAlertCheck(env: Env, scheduledAt: Date, ports: PortFactories = productionPorts): Promise<AlertCheckResult> {
  const config = parseConfig(env);
  const clock = config.clockNow ? createClock(config.clockNow) : clockFrom(scheduledAt);
  const deps = createDeps({ db: createDb(env.DB), config, clock, env }, ports);
  return recordJob(deps.db, clock, ALERT_JOB, () => checkAlerts(deps, JOB_SCHEDULE));
}
