import { describe, expect, it, vi } from 'vitest';
import { logLine, redact, timed } from './log';

describe('redact', () => {
  it('blanks e-mail and IP addresses, keeps times, dates and column names', () => {
    expect(redact('user anna.b+x@example.se failed')).toBe('user [e-post] failed');
    expect(redact('from 192.168.1.20 and 2001:db8::1 and ::1 and 2001:0db8:85a3:0000:0000:8a2e:0370:7334')).toBe('from [ip] and [ip] and [ip] and [ip]');
    expect(redact('at 12:30:00 on 2026-11-27T05:00:00.000Z: UNIQUE constraint failed: users.email')).toBe(
      'at 12:30:00 on 2026-11-27T05:00:00.000Z: UNIQUE constraint failed: users.email',
    );
  });
});

describe('logLine / timed', () => {
  it('writes one JSON line, strings redacted; timed adds status and ms and rethrows', async () => {
    const out: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((s: string) => void out.push(s));
    logLine({ type: 'job', job: 'x', result: { note: 'mail to a@b.se' } });
    await expect(
      timed({ type: 'queue', queue: 'q' }, async () => {
        throw new Error('refused for kim@example.com');
      }),
    ).rejects.toThrow(/kim@/);
    spy.mockRestore();
    expect(out.map((l) => JSON.parse(l))).toEqual([
      { type: 'job', job: 'x', result: { note: 'mail to [e-post]' } },
      { type: 'queue', queue: 'q', status: 'failed', ms: expect.any(Number), error: 'refused for [e-post]' },
    ]);
  });
});
