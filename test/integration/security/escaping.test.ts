/**
 * Escaping on the server (issue 9 item 3): business, place and quiz texts carrying
 * `</script><script>alert(1)</script>`, `"><img src=x onerror=alert(1)>` and U+2028 render inert in
 * the server-rendered pages (HTML, JSON-LD, the embedded page data), the sitemap, the API and the
 * e-mails. Pages are parsed with workerd's HTMLRewriter: only the scripts the page itself ships may
 * exist, no element may carry an on* handler, and every JSON script must parse back to the exact
 * text. The browser half (no dialog fires in Chromium) is test/e2e/xss.test.ts.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mailOutbox } from '../../../worker/db/schema';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, testDb, unique, uniqueTown } from '../../factories';
import { CLOCK, createWorld, HOUSE_EMAIL, TODAY } from './world';
import { addDays } from '../../../worker/lib/clock';
import { newId } from '../../../worker/lib/ids';
import { BOOT_SCRIPT } from '../../../worker/lib/boot-script';
import { users } from '../../../worker/db/schema';

const SCRIPT_BREAKOUT = '</script><script>alert(1)</script>';
const ATTR_BREAKOUT = '"><img src=x onerror=alert(1)>';
const LINE_SEP = 'rad\u2028två\u2029tre';
const EVIL = `${SCRIPT_BREAKOUT} ${ATTR_BREAKOUT} ${LINE_SEP}`;

interface Scan {
  scripts: Array<{ type: string | null; src: string | null; text: string }>;
  handlers: string[];
  imgs: number;
  iframes: number;
}

/** Walks the real element tree the way a browser would build it. */
async function scan(html: string): Promise<Scan> {
  const out: Scan = { scripts: [], handlers: [], imgs: 0, iframes: 0 };
  let current: { type: string | null; src: string | null; text: string } | null = null;
  const rewriter = new HTMLRewriter()
    .on('*', {
      element(el) {
        for (const [name] of el.attributes as unknown as Iterable<[string, string]>) if (/^on/i.test(name)) out.handlers.push(`<${el.tagName} ${name}>`);
        if (el.tagName === 'img') out.imgs++;
        if (el.tagName === 'iframe') out.iframes++;
      },
    })
    .on('script', {
      element(el) {
        current = { type: el.getAttribute('type'), src: el.getAttribute('src'), text: '' };
        out.scripts.push(current);
      },
      text(t) {
        if (current) current.text += t.text;
      },
    });
  await rewriter.transform(new Response(html, { headers: { 'content-type': 'text/html' } })).text();
  return out;
}

function expectInert(html: string, s: Scan, label: string) {
  expect(s.handlers, `${label}: elements with on* handlers`).toEqual([]);
  expect(s.iframes, label).toBe(0);
  for (const script of s.scripts) {
    // The page's own scripts only: JSON data/JSON-LD, a module bundle from our origin, or the boot
    // script (issue 19 §1: constant text, allowed by its CSP hash) when the pages are built with assets.
    if (script.type === null && script.src === null && script.text === BOOT_SCRIPT) continue;
    expect(['application/ld+json', 'application/json', 'module'], `${label}: unexpected <script type=${script.type}>`).toContain(script.type);
    if (script.type === 'module') {
      expect(script.src, label).toMatch(/^\/assets\//);
      expect(script.text.trim(), label).toBe('');
    } else {
      expect(() => JSON.parse(script.text), `${label}: a JSON script no longer parses`).not.toThrow();
      expect(script.text, `${label}: raw U+2028/U+2029 in a script`).not.toMatch(/[\u2028\u2029]/);
    }
  }
  expect(html, label).not.toContain('<script>alert(1)</script>');
  expect(html, label).not.toContain('<img src=x onerror');
}

/** Every string anywhere inside a JSON value. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

async function evilVenue() {
  const user = await createUser({ now: new Date(CLOCK) });
  const city = uniqueTown();
  const venue = await createVenue(user.id, { name: `Puben ${SCRIPT_BREAKOUT}${unique('n')}`, description: EVIL, website: `javascript:alert(1)` });
  const location = await createLocation(venue.id, { city, name: `Plats ${ATTR_BREAKOUT}`, address: `Gatan ${LINE_SEP}` });
  // The quiz falls on a Tuesday one week ahead (TODAY is a Monday), so it is listed.
  await createQuiz(location.id, {
    date: addDays(TODAY, 1),
    title: `Quiz ${SCRIPT_BREAKOUT}`,
    description: EVIL,
    quizmaster: ATTR_BREAKOUT,
    theme: LINE_SEP,
    category: 'tema',
  });
  return { user, venue, location, city };
}

describe('server-rendered pages keep hostile text inert', () => {
  it('listing, city, city+weekday, venue pages and the sitemap', async () => {
    const { venue, location } = await evilVenue();
    const pages = [
      `/?city=${location.citySlug}`,
      `/?search=${encodeURIComponent('Puben')}`,
      `/stad/${location.citySlug}`,
      `/quiz/${location.citySlug}`,
      `/quiz/${location.citySlug}/tisdag`,
      `/quiz/${location.citySlug}/${venue.slug}`,
      // Reflected search text, short and long (over D1's 50-byte LIKE limit, see fuzz.test.ts).
      `/?search=${encodeURIComponent(EVIL)}`,
      `/?search=${encodeURIComponent(SCRIPT_BREAKOUT)}`,
      `/?search=${encodeURIComponent(ATTR_BREAKOUT)}`,
      `/legacy?search=${encodeURIComponent(LINE_SEP)}`,
    ];
    let sawName = 0;
    for (const path of pages) {
      const res = await call(path, { clock: CLOCK });
      expect(res.status, path).toBe(200);
      const html = await res.text();
      const s = await scan(html);
      expectInert(html, s, path);
      // The text arrives intact through the JSON (JSON-LD and page data), not mangled or dropped.
      const json = s.scripts.filter((x) => x.type === 'application/json' || x.type === 'application/ld+json').flatMap((x) => strings(JSON.parse(x.text)));
      if (json.some((t) => t.includes(SCRIPT_BREAKOUT))) sawName++;
    }
    // Every page that lists the venue carries its name verbatim in JSON (so escaping, not deletion, made it safe).
    expect(sawName).toBeGreaterThanOrEqual(5);

    for (const path of ['/sitemap.xml', '/sitemaps/sidor-1.xml', '/sitemaps/stallen-1.xml']) {
      const sitemap = await (await call(path, { clock: CLOCK })).text();
      expect(sitemap, path).not.toContain('<script');
      expect(sitemap, path).not.toContain('<img');
    }
  });

  it('a league page (issue 46.3): a hostile league name and hostile venue names stay inert', async () => {
    const { user, venue, location } = await evilVenue();
    const series = [newId(), newId()];
    for (const [i, id] of series.entries())
      await createQuiz(location.id, { date: addDays(TODAY, i + 1), isRecurring: true, recurrenceId: id, recurrencePattern: 'weekly' });
    const made = await callJson('/api/owner/leagues', {
      method: 'POST',
      body: { name: `Liga ${SCRIPT_BREAKOUT}`, seriesIds: series },
      cookie: user.cookie,
      clock: CLOCK,
    });
    expect(made.status).toBe(201);
    const path = `/liga/${made.body.slug}`;
    const res = await call(path, { clock: CLOCK });
    expect(res.status).toBe(200);
    const html = await res.text();
    expectInert(html, await scan(html), path);
    expect(html).toContain(`/quiz/${location.citySlug}/${venue.slug}/resultat`);
  });

  it('the API returns the text as JSON data (not HTML), byte for byte', async () => {
    const { location } = await evilVenue();
    const { status, body, res } = await callJson(`/api/listing?city=${location.citySlug}`, { clock: CLOCK });
    expect(status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(strings(body)).toContain(EVIL);
  });

  it('owner-supplied text in the superadmin list and owner dashboard stays JSON', async () => {
    const world = await createWorld();
    const { venue } = await evilVenue();
    const { body, res } = await callJson(`/api/admin/venues?q=${encodeURIComponent('Puben')}`, { cookie: world.superadmin.cookie, clock: CLOCK });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(strings(body).some((t) => t === venue.name)).toBe(true);
  });
});

describe('e-mails keep hostile text inert', () => {
  it('a takeover notice naming a hostile business: plain text only, and inert in the outbox page', async () => {
    const world = await createWorld();
    const [house] = await testDb().select().from(users).where(eq(users.email, HOUSE_EMAIL));
    const name = `Ta över ${SCRIPT_BREAKOUT} ${ATTR_BREAKOUT} ${LINE_SEP}\r\nBcc: spion@example.com`;
    const venue = await createVenue(house!.id, { name });
    const res = await callJson('/api/takeover', { cookie: world.a.user.cookie, clock: CLOCK, body: { venueId: venue.id } });
    expect(res.status).toBe(200);
    // One notice per superadmin; it leaves as text/plain only (never HTML a mail client would run).
    const sent = (await testDb().select().from(mailOutbox)).filter((m) => m.subject.startsWith('Verksamhet övertagen') && m.text.includes(SCRIPT_BREAKOUT));
    expect(sent.length).toBeGreaterThanOrEqual(1);
    for (const m of sent) expect(m.html).toBeNull();
    // Should any mail gain an HTML part, hostile text in it must be escaped.
    for (const m of await testDb().select().from(mailOutbox)) {
      if (m.html === null) continue;
      expect(m.html).not.toContain('<script>alert(1)');
      expect(m.html).not.toContain('<img src=x onerror');
    }

    const page = await (await call('/dev/mail', { clock: CLOCK })).text();
    const s = await scan(page);
    expect(s.handlers).toEqual([]);
    expect(s.scripts).toEqual([]);
    expect(s.imgs).toBe(0);
  });
});
