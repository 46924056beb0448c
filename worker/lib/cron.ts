/**
 * When a Cron Trigger last fired: the alert check (features/ops) asks it to tell a task that has not started
 * when it should have. Cron Triggers are UTC; the five fields are minute, hour, day of month, month and
 * day of week (0 = Sunday), each `*` or a comma list of numbers and ranges (`1-5`) — what wrangler.toml uses.
 */

interface CronFields {
  minutes: number[];
  hours: number[];
  days: Set<number> | null;
  months: Set<number> | null;
  weekdays: Set<number> | null;
}

function field(text: string, min: number, max: number): number[] | null {
  if (text === '*') return null;
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new Error(`unsupported cron field ${JSON.stringify(text)}`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < min || to > max || from > to) throw new Error(`cron field out of range ${JSON.stringify(text)}`);
    for (let v = from; v <= to; v++) out.add(v === 7 && max === 7 ? 0 : v);
  }
  return [...out].sort((a, b) => a - b);
}

function parse(cron: string): CronFields {
  const parts = cron.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error(`a cron has five fields: ${JSON.stringify(cron)}`);
  const all = (n: number) => Array.from({ length: n }, (_, i) => i);
  const set = (v: number[] | null) => (v ? new Set(v) : null);
  return {
    minutes: field(parts[0]!, 0, 59) ?? all(60),
    hours: field(parts[1]!, 0, 23) ?? all(24),
    days: set(field(parts[2]!, 1, 31)),
    months: set(field(parts[3]!, 1, 12)),
    weekdays: set(field(parts[4]!, 0, 7)),
  };
}

const DAY = 86_400_000;

/** The latest instant at or before `at` at which `cron` fires (searched up to 400 days back), or null. */
export function previousFire(cron: string, at: Date): Date | null {
  const f = parse(cron);
  const startOfDay = Math.floor(at.getTime() / DAY) * DAY;
  for (let d = 0; d <= 400; d++) {
    const day = new Date(startOfDay - d * DAY);
    if (f.months && !f.months.has(day.getUTCMonth() + 1)) continue;
    // Cron's rule: when both day of month and day of week are restricted, either matches.
    const dom = f.days?.has(day.getUTCDate());
    const dow = f.weekdays?.has(day.getUTCDay());
    if (f.days && f.weekdays ? !dom && !dow : f.days ? !dom : f.weekdays ? !dow : false) continue;
    for (let h = f.hours.length - 1; h >= 0; h--) {
      for (let m = f.minutes.length - 1; m >= 0; m--) {
        const t = day.getTime() + f.hours[h]! * 3_600_000 + f.minutes[m]! * 60_000;
        if (t <= at.getTime()) return new Date(t);
      }
    }
  }
  return null;
}
