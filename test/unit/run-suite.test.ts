/**
 * test/run-suite.ts (`npm test`) runs the integration tier at idle priority beside Lighthouse. Its rules: when the
 * tier counts as starved (the watchdog then puts it back to normal priority), when this process may do that at all,
 * and reading a process's CPU from /proc.
 */
import { describe, expect, it } from 'vitest';
import { mayLeaveIdle, parseStat, STARVED_CPU_S, starved, WATCH_WINDOW_S } from '../run-suite';

const every = (seconds: number, cpuPerS: number) => Array.from({ length: seconds + 1 }, (_, t) => ({ t, cpu: 3 + t * cpuPerS }));

describe('starved', () => {
  it('is false until a whole window has been sampled, even with no CPU at all', () => {
    expect(starved([])).toBe(false);
    expect(starved(every(Math.floor(WATCH_WINDOW_S / 2), 0))).toBe(false);
  });

  it('is true when the tier got less than STARVED_CPU_S of CPU in the last window (a busy machine)', () => {
    expect(starved(every(WATCH_WINDOW_S, 0))).toBe(true);
    expect(starved(every(WATCH_WINDOW_S, (STARVED_CPU_S * 0.9) / WATCH_WINDOW_S))).toBe(true);
  });

  it('is false while the tier gets an idle core (about one CPU second a second), or just enough', () => {
    expect(starved(every(30, 1))).toBe(false);
    expect(starved(every(30, (STARVED_CPU_S * 1.1) / WATCH_WINDOW_S))).toBe(false);
  });

  it("is false when the tier waits ~10 s for Lighthouse's app start and then gets the idle core", () => {
    const waitThenRun = Array.from({ length: 31 }, (_, t) => ({ t, cpu: Math.max(0, t - 10) }));
    for (let n = 1; n <= waitThenRun.length; n++) expect(starved(waitThenRun.slice(0, n))).toBe(false);
  });

  it('looks at the last window only: a busy start followed by a starved window counts', () => {
    const busy = every(30, 1);
    const busyThenStarved = [...busy, ...Array.from({ length: WATCH_WINDOW_S + 2 }, (_, i) => ({ t: 31 + i, cpu: busy.at(-1)!.cpu }))];
    expect(starved(busyThenStarved)).toBe(true);
  });
});

describe('mayLeaveIdle', () => {
  const limits = (nice: string) =>
    `Limit                     Soft Limit           Hard Limit           Units\nMax nice priority         ${nice}                    ${nice}                    \n`;

  it('root may; others need a RLIMIT_NICE that reaches nice 0 (20 or unlimited)', () => {
    expect(mayLeaveIdle(0, limits('0'))).toBe(true);
    expect(mayLeaveIdle(1000, limits('0'))).toBe(false);
    expect(mayLeaveIdle(1000, limits('19'))).toBe(false);
    expect(mayLeaveIdle(1000, limits('20'))).toBe(true);
    expect(mayLeaveIdle(1000, limits('unlimited'))).toBe(true);
    expect(mayLeaveIdle(1000, '')).toBe(false);
  });
});

describe('parseStat', () => {
  it('reads the parent and utime + stime + cutime + cstime, a command name with spaces and parentheses included', () => {
    const line = '4242 (node (vitest) 1) S 4100 4242 4242 0 -1 4194560 100 0 0 0 150 50 7 3 20 0 11 0 12345 0 0';
    expect(parseStat(line)).toEqual({ ppid: 4100, ticks: 150 + 50 + 7 + 3 });
    expect(parseStat('garbage')).toBeUndefined();
  });
});
