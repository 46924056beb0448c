/**
 * Every cron the scheduled handler dispatches on (worker/index.ts) is declared in wrangler.toml, and each
 * declared cron has a handler: the follow-mail crons, the listing-day cron (00:05 Stockholm) and the nightly run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOLLOW_CRONS } from '../../worker/jobs/follow-mail';
import { LISTING_DAY_CRON, NIGHTLY_CRON } from '../../worker/jobs/nightly';
import { CRON_HANDLERS } from '../../worker/jobs/crons';
import { BACKUP_CRON } from '../../worker/features/backup/service';
import { RSVP_CRON } from '../../worker/features/rsvp/service';

function declaredCrons(): string[] {
  const toml = readFileSync(join(import.meta.dirname, '..', '..', 'wrangler.toml'), 'utf8');
  const block = /^crons\s*=\s*\[([^\]]*)\]/m.exec(toml);
  if (!block) throw new Error('no crons in wrangler.toml');
  return [...block[1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
}

describe('crons', () => {
  it('wrangler.toml declares the nightly run, the follow-mail crons and the listing-day cron, and nothing else', () => {
    const declared = declaredCrons();
    expect(declared).toContain(LISTING_DAY_CRON);
    expect(declared).toContain(BACKUP_CRON);
    for (const c of FOLLOW_CRONS) expect(declared).toContain(c);
    expect(declared).toContain(RSVP_CRON);
    const nightly = declared.filter((c) => c !== LISTING_DAY_CRON && c !== BACKUP_CRON && c !== RSVP_CRON && !FOLLOW_CRONS.has(c));
    expect(nightly).toEqual([NIGHTLY_CRON]);
  });
  it('the scheduled handler matches triggers exactly: every declared cron has its own handler, nothing else has one (issue 27.4)', () => {
    expect([...CRON_HANDLERS.keys()].sort()).toEqual(declaredCrons().sort());
    for (const unknown of ['* * * * *', '15 2 * * * ', '15  2 * * *', '', '0 6,7 * * 2']) expect(CRON_HANDLERS.has(unknown), unknown).toBe(false);
  });
  it('the listing-day cron runs at 22:05 and 23:05 UTC: one of them is 00:05 in Stockholm in summer and winter', () => {
    expect(LISTING_DAY_CRON).toBe('5 22,23 * * *');
    const stockholm = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Stockholm', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    expect(stockholm.format(new Date('2031-06-01T22:05:00Z'))).toBe('00:05');
    expect(stockholm.format(new Date('2031-12-01T23:05:00Z'))).toBe('00:05');
  });
});
