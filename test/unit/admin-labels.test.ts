/**
 * The superadmin's words for ids (issue 44.8, worker/lib/admin-labels.ts): every job name the Worker records in
 * job_runs has a Swedish label, cities read as their names and ISO weeks as "vecka N".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cityLabel, JOB_LABELS, jobLabel, messageTypeLabel, queueLabel, weekLabel } from '../../worker/lib/admin-labels';

const WORKER = resolve(__dirname, '../../worker');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The job names written to job_runs: recordJob/recordRun literals, `*_JOB = '…'` constants, nightly task names, import rows. */
function recordedJobNames(): Set<string> {
  const patterns = [
    /recordJob\([^;]*?,\s*'([a-z-]+)'/g,
    /recordRun\(\w+,\s*'([a-z-]+)'/g,
    /_JOB\s*=\s*'([a-z-]+)'/g,
    /recorded\('([a-z-]+)'/g,
    /\[\s*'([a-z-]+)',\s*async \(\)/g,
    /insert\(jobRuns\)\s*\.values\(\{[\s\S]{0,200}?\bjob:\s*'([a-z-]+)'/g,
  ];
  const names = new Set<string>();
  for (const file of sources(WORKER)) {
    const text = readFileSync(file, 'utf8');
    for (const p of patterns) for (const m of text.matchAll(p)) names.add(m[1]!);
  }
  return names;
}

describe('admin labels', () => {
  it('every job name the Worker records has a Swedish label', () => {
    const names = recordedJobNames();
    // The scan still finds the jobs (a refactor that hides them from it must update it).
    for (const known of ['backup', 'calendar-sync', 'follow-reminders', 'listing-day', 'series-extension', 'holiday-ask', 'import', 'cron']) {
      expect(names, known).toContain(known);
    }
    expect([...names].filter((n) => !(n in JOB_LABELS))).toEqual([]);
    expect(jobLabel('backup')).toBe('Säkerhetskopia');
    expect(jobLabel('calendar-sync')).toBe('Kalendersynk');
    expect(jobLabel('follow-reminders')).toBe('Påminnelser');
    expect(jobLabel('okänt-jobb')).toBe('okänt-jobb');
  });

  it('cities by name, unknown slugs readable; weeks in words with the year only when it is not this year', () => {
    expect(cityLabel('goteborg')).toBe('Göteborg');
    expect(cityLabel('vasteras')).toBe('Västerås');
    expect(cityLabel('mobilstad-x')).toBe('Mobilstad x');
    expect(cityLabel('')).toBe('–');
    expect(weekLabel('2026-W48', 2026)).toBe('vecka 48');
    expect(weekLabel('2026-W05', 2026)).toBe('vecka 5');
    expect(weekLabel('2025-W52', 2026)).toBe('vecka 52, 2025');
    expect(weekLabel('not-a-week', 2026)).toBe('not-a-week');
    expect(queueLabel('quizkvall-mail-dlq')).toBe('E-postkön (dead letters)');
    expect(messageTypeLabel('digest')).toBe('Veckosammanfattning');
  });
});
