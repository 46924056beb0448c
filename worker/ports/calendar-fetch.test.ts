/**
 * The address guard of the calendar fetch (issue 43.4), table-driven: every row goes through the production path
 * (URL parsing, then the guard) with a fake fetch that records whether it was reached. The first ten rows are the
 * forms that passed in production before this guard.
 */
import { describe, expect, it } from 'vitest';
import { createCalendarFetcher, FeedFetchError, isPrivateHost, type FetchFn } from './calendar-fetch';

const REFUSED: string[] = [
  // Issue 43.4: passed in production mode before.
  'https://[::127.0.0.1]/cal.ics',
  'https://[::ffff:0:7f00:1]/cal.ics',
  'https://[64:ff9b::7f00:1]/cal.ics',
  'https://[2002:7f00:1::]/cal.ics',
  'https://[fec0::1]/cal.ics',
  'https://[100::1]/cal.ics',
  'https://198.18.0.1/cal.ics',
  'https://192.0.0.1/cal.ics',
  'https://localhost../cal.ics',
  'https://kubernetes.default.svc/cal.ics',
  // IPv4 special-purpose ranges, in dotted and other notations.
  'https://127.0.0.1/',
  'https://127.255.255.254/',
  'https://0.0.0.0/',
  'https://0.1.2.3/',
  'https://10.0.0.1/',
  'https://172.16.0.1/',
  'https://172.31.255.255/',
  'https://192.168.1.1/',
  'https://169.254.169.254/latest/meta-data/',
  'https://100.64.0.1/',
  'https://100.127.255.255/',
  'https://192.0.2.1/',
  'https://198.51.100.7/',
  'https://203.0.113.9/',
  'https://198.19.255.255/',
  'https://192.88.99.1/',
  'https://192.175.48.1/',
  'https://224.0.0.1/',
  'https://239.255.255.250/',
  'https://240.0.0.1/',
  'https://255.255.255.255/',
  'https://2130706433/',
  'https://0x7f.1/',
  'https://0177.0.0.1/',
  'https://0x7f000001/',
  'https://127.1/',
  'https://0/',
  'https://017700000001/',
  'https://0xa9.0xfe.0xa9.0xfe/',
  // IPv6 special-purpose ranges and IPv4 embedded in IPv6.
  'https://[::1]/',
  'https://[::]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[::ffff:8.8.8.8]/',
  'https://[::ffff:0:8.8.8.8]/',
  'https://[::8.8.8.8]/',
  'https://[64:ff9b::8.8.8.8]/',
  'https://[64:ff9b:1::a9fe:a9fe]/',
  'https://[2002:c0a8:101::1]/',
  'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
  'https://[2001:db8::1]/',
  'https://[2001:2::1]/',
  'https://[2001:10::1]/',
  'https://[3fff::1]/',
  'https://[5f00::1]/',
  'https://[fc00::1]/',
  'https://[fd12:3456::1]/',
  'https://[fe80::1]/',
  'https://[febf::1]/',
  'https://[fec0:0:0:1::1]/',
  'https://[ff02::1]/',
  'https://[100::]/',
  'https://[4000::1]/',
  'https://[1000::1]/',
  // Names: single-label, empty labels, special-use and cluster names, numeric last labels.
  'https://localhost/',
  'https://localhost./',
  'https://LOCALHOST/',
  'https://%6c%6fcalhost/',
  'https://ⓛocalhost/',
  'https://app.localhost/',
  'https://intranet/',
  'https://printer.local/',
  'https://db.svc.cluster.local/',
  'https://kubernetes.default.svc./',
  'https://kubernetes.default.svc.cluster.local./',
  'https://metadata.google.internal/',
  'https://nas.lan/',
  'https://router.home.arpa/',
  'https://1.0.0.127.in-addr.arpa/',
  'https://site.test/',
  'https://x.invalid/',
  'https://hidden.onion/',
  'https://files.corp/',
  'https://box.localdomain/',
  'https://a..example.com/',
  'https://example.com../',
  'https://08.1.1.1/',
];

const ALLOWED: string[] = [
  'https://calendar.google.com/calendar/ical/x%40group.calendar.google.com/public/basic.ics',
  'https://outlook.office365.com/owa/calendar/abc/reachcalendar.ics',
  'https://example.com./cal.ics',
  'https://Quiz.Example.SE/cal.ics',
  'https://xn--kalender-q2a.se/cal.ics',
  'https://8.8.8.8/cal.ics',
  'https://1.1.1.1/cal.ics',
  'https://100.63.255.255/',
  'https://100.128.0.1/',
  'https://172.32.0.1/',
  'https://192.169.0.1/',
  'https://198.20.0.1/',
  'https://[2606:4700:4700::1111]/cal.ics',
  'https://[2a00:1450:400f:80d::200e]/cal.ics',
  'https://local.example.com/',
  'https://localhost.example.se/',
  'https://svc.example.com/',
];

async function reaches(url: string): Promise<boolean> {
  let reached = false;
  const fetchFn: FetchFn = async () => {
    reached = true;
    return new Response('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', { status: 200 });
  };
  try {
    await createCalendarFetcher(fetchFn, { allowPrivate: false }).fetchText(url);
  } catch (err) {
    if (!(err instanceof FeedFetchError)) throw err;
    if (err.code !== 'private' && err.code !== 'network') throw err;
    expect(reached).toBe(false);
    return false;
  }
  return reached;
}

describe('calendar fetch address guard (issue 43.4)', () => {
  it('has the table the issue asks for (more than 59 rows)', () => {
    expect(REFUSED.length + ALLOWED.length).toBeGreaterThan(59);
    expect(new Set([...REFUSED, ...ALLOWED]).size).toBe(REFUSED.length + ALLOWED.length);
  });

  it.each(REFUSED)('refuses %s before any fetch', async (url) => {
    expect(await reaches(url)).toBe(false);
  });

  it.each(ALLOWED)('fetches %s', async (url) => {
    expect(await reaches(url)).toBe(true);
  });

  it('judges raw host names the URL parser would normalise, the same way', () => {
    for (const host of ['2130706433', '0x7f.1', '0177.0.0.1', '127.1', 'localhost..', 'kubernetes.default.svc', '::1', '[::ffff:0:7f00:1]', 'fe80::1%eth0', ''])
      expect(isPrivateHost(host), host).toBe(true);
    for (const host of ['example.com', 'example.com.', '[2606:4700::1111]', '8.8.8.8']) expect(isPrivateHost(host), host).toBe(false);
  });

  it('a redirect into a special range is refused like the address itself', async () => {
    const fetchFn: FetchFn = async (input) =>
      input.startsWith('https://example.com/')
        ? new Response(null, { status: 302, headers: { location: 'https://[64:ff9b::7f00:1]/x' } })
        : new Response('reached');
    await expect(createCalendarFetcher(fetchFn, { allowPrivate: false }).fetchText('https://example.com/cal.ics')).rejects.toMatchObject({ code: 'private' });
  });
});
