import { describe, expect, it } from 'vitest';
import { byteSize, jobStatusText } from './ops-format';

describe('the Drift tab texts', () => {
  it('names a killed run, a failing job whose next run is going, a missed start and the plain cases', () => {
    const j = { status: 'done', interrupted: false, failing: false, stale: false } as const;
    expect(jobStatusText(j)).toEqual({ text: 'Klar', ok: true });
    expect(jobStatusText({ ...j, status: 'failed', interrupted: true, failing: true })).toEqual({ text: 'Misslyckades (avbröts)', ok: false });
    expect(jobStatusText({ ...j, status: 'failed', failing: true })).toEqual({ text: 'Misslyckades', ok: false });
    expect(jobStatusText({ ...j, status: 'running', failing: true })).toEqual({ text: 'Pågår (förra körningen misslyckades)', ok: false });
    expect(jobStatusText({ ...j, status: 'running' })).toEqual({ text: 'Pågår', ok: true });
    expect(jobStatusText({ ...j, stale: true })).toEqual({ text: 'Har inte startat i tid', ok: false });
  });

  it('writes sizes the Swedish way', () => {
    expect(byteSize(25_480_000)).toBe('24,3 MB');
    expect(byteSize(300)).toBe('1 kB');
    expect(byteSize(831_488)).toBe('812 kB');
    expect(byteSize(3 * 1024 ** 3)).toBe('3,0 GB');
    expect(byteSize(null)).toBe('–');
  });
});
