/**
 * Issue 17 story: a visitor follows a place, confirms from /dev/mail, gets the morning reminder when the
 * cron and the queue run, unsubscribes with one click and gets no more. The clock must be the quiz
 * morning (08:00 Stockholm) for both the cron and the consumer, so this file starts its own app with
 * CLOCK_NOW frozen at that morning (the shared e2e app runs on TEST_NOW, support/clock.ts), and its browser
 * clock pinned to the same instant. Needs `npm run build` first (dist/client).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchStoryChromium } from '../chromium';
import { APP_HOOK_TIMEOUT_MS, startApp, type RunningApp } from './support/app';

// Tuesday 2030-01-08, 08:00 in Stockholm (CET, UTC+1).
const QUIZ_DATE = '2030-01-08';
const CLOCK_NOW = '2030-01-08T07:00:00Z';
const OWNER = { email: 'agare@quizkvall.local', password: 'quizkvall-agare' };
const ADMIN = { email: 'admin@quizkvall.local', password: 'quizkvall-admin' };

let app: RunningApp | undefined;
let base = '';
let browser: Browser | undefined;

beforeAll(async () => {
  // Serves the dist/client of `npm run build` (read only). The one app of the run on `wrangler dev` (no
  // workerBundle), as `npm start` runs it: this story also proves that path, its hand-fired cron included.
  app = await startApp({ CLOCK_NOW }, { label: 'quizkvall-e2e-follow' });
  base = app.baseURL;
  browser = await launchStoryChromium();
}, APP_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  app?.stop();
});

interface Mail {
  to: string;
  subject: string;
  text: string;
  links: string[];
  headers: Record<string, string>;
}

async function mails(to: string): Promise<Mail[]> {
  return ((await (await fetch(`${base}/dev/mail.json`)).json()) as Mail[]).filter((m) => m.to === to);
}

async function waitForMail(to: string, subject: string, timeoutMs = 20_000): Promise<Mail> {
  const deadline = performance.now() + timeoutMs; // elapsed time, not a date
  for (;;) {
    const hit = (await mails(to)).find((m) => m.subject.includes(subject));
    if (hit) return hit;
    if (performance.now() > deadline) throw new Error(`no mail "${subject}" to ${to}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Same-origin JSON call with a session cookie (the owner's setup through the API). */
async function api(path: string, body: unknown, cookie = ''): Promise<{ status: number; json: any; cookie: string }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, cookie },
    body: JSON.stringify(body),
  });
  const setCookie = res.headers.get('set-cookie')?.split(';')[0] ?? '';
  return { status: res.status, json: await res.json(), cookie: setCookie };
}

interface JobRun {
  id: string;
  job: string;
  status: string;
  result: { enqueued?: number } | null;
}

/** The reminder cron's own job_runs rows, newest first (GET /api/admin/jobs, as the superadmin). */
async function reminderRuns(adminCookie: string): Promise<JobRun[]> {
  const res = await fetch(`${base}/api/admin/jobs`, { headers: { cookie: adminCookie } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { runs: JobRun[] }).runs.filter((r) => r.job === 'follow-reminders');
}

async function runReminderCron() {
  const res = await fetch(`${base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent('0 6,7 * * *')}`);
  expect(res.status).toBe(200);
}

describe('follow a place by e-mail', () => {
  it('follow → confirm from /dev/mail → 08:00 reminder via cron + queue → one-click unsubscribe → no more mail', async () => {
    // The demo owner adds a place with a quiz tonight.
    const login = await api('/api/auth/login', OWNER);
    expect(login.status).toBe(200);
    const stamp = randomUUID().replace(/-/g, '').slice(0, 10);
    const name = `Följpuben ${stamp}`;
    const reg = await api('/api/owner/venues/register', { name, address: 'Storgatan 1', city: 'Uppsala' }, login.cookie);
    expect(reg.status).toBe(201);
    const quiz = await api(
      '/api/owner/quizzes',
      { locationId: reg.json.locationId, date: QUIZ_DATE, startTime: '19:00', category: 'allmänbildning', recurring: false },
      login.cookie,
    );
    expect(quiz.status).toBe(201);

    const context = await browser!.newContext({ locale: 'sv-SE', timezoneId: 'Europe/Stockholm' });
    await context.clock.install({ time: new Date(CLOCK_NOW) });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const email = `folj-${stamp}@test.local`;

    // Visitor: venue page → "Följ …" → e-mail → confirmation prompt.
    await page.goto(`${base}/quiz/uppsala/${reg.json.venue.slug}`);
    await page.getByRole('button', { name: `Följ ${name}` }).click();
    await page.getByLabel('E-post').fill(email);
    await page.getByRole('button', { name: 'Följ', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Kolla din e-post');

    // Double opt-in from the outbox.
    const confirmMail = await waitForMail(email, 'Bekräfta');
    const confirmLink = confirmMail.links.find((l) => l.includes('/bevakningar/bekrafta'))!;
    await page.goto(confirmLink);
    await page.getByRole('button', { name: 'Bekräfta bevakningen' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Bevakningen är bekräftad');

    // 08:00 in Stockholm: the cron enqueues, the queue consumer sends the reminder.
    await runReminderCron();
    const reminder = await waitForMail(email, 'Ikväll: pubquiz på');
    expect(reminder.subject).toMatch(/kl\. 19:00$/);
    expect(reminder.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(reminder.headers['List-Unsubscribe']).toMatch(/\/bevakningar\/avsluta\?t=/);
    // A second cron run (duplicate trigger) sends nothing twice. The cron records itself after its trigger answers
    // (waitUntil): both runs' rows must be done before the follow goes, or the next count would see this one.
    const admin = await api('/api/auth/login', ADMIN);
    expect(admin.status).toBe(200);
    await runReminderCron();
    await expect.poll(async () => (await reminderRuns(admin.cookie)).filter((r) => r.status === 'done').length, { timeout: 20_000 }).toBe(2);

    // Unsubscribe from the link in the mail.
    const unsubscribe = reminder.links.find((l) => l.includes('/bevakningar/avsluta?'))!;
    await page.goto(unsubscribe);
    await page.getByRole('button', { name: 'Sluta bevaka' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Bevakningen är avslutad');

    // Another quiz tonight at the same place would be a new reminder — but the follow is gone.
    const late = await api(
      '/api/owner/quizzes',
      { locationId: reg.json.locationId, date: QUIZ_DATE, startTime: '21:00', category: 'allmänbildning', recurring: false },
      login.cookie,
    );
    expect(late.status).toBe(201);
    // No sleep to show that nothing comes: the cron's own record says it is done and enqueued nothing (the
    // follow is gone, so no reminder message exists that the consumer could still send).
    // The new run is the row that was not there before (by id: each run's clock starts at the pinned instant and runs
    // on, so two runs' start times do not order them).
    const before = new Set((await reminderRuns(admin.cookie)).map((r) => r.id));
    await runReminderCron();
    const newRun = async () => (await reminderRuns(admin.cookie)).find((r) => !before.has(r.id) && r.status !== 'running');
    await expect.poll(newRun, { timeout: 20_000 }).toBeDefined();
    expect(await newRun()).toMatchObject({ status: 'done', result: { enqueued: 0 } });
    expect((await mails(email)).filter((m) => m.subject.startsWith('Ikväll'))).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
