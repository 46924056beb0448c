import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { REPORT_LIMIT } from '../../worker/features/feedback/report';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, unique, uniqueTown } from '../factories';

/**
 * "Stämmer inte?" (issue 20 §4): a report lands in the superadmin inbox linked to the quiz, stores
 * nothing personal, is rate-limited per client, and the third report about a unit within 30 days mails
 * the owner once.
 */
async function publicSeries(opts: { isPublic?: boolean } = {}) {
  const owner = await createUser();
  const venue = await createVenue(owner.id, { isPublic: opts.isPublic ?? true });
  const location = await createLocation(venue.id, { city: uniqueTown() });
  const rid = unique('rid');
  const a = await createQuiz(location.id, { date: '2045-01-03', isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly' });
  const b = await createQuiz(location.id, { date: '2045-01-10', isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly' });
  return { owner, venue, rid, a, b };
}
const reportsOf = (unit: string) => testDb().all<Record<string, any>>(sql`SELECT * FROM feedback WHERE report_unit = ${unit} ORDER BY created_at`);
const ownerMails = (email: string) => testDb().all<Record<string, any>>(sql`SELECT * FROM mail_outbox WHERE to_email = ${email}`);
const ip = () => `203.0.113.${Math.floor(Math.random() * 250)}`;

describe('POST /api/feedback/report', () => {
  it('stores a report linked to the quiz and its series, with nothing personal (also when signed in); the superadmin inbox shows it', async () => {
    const s = await publicSeries();
    const visitor = await createUser();
    const res = await callJson('/api/feedback/report', { cookie: visitor.cookie, body: { quizId: s.b.id, reason: 'nedlagt', text: 'Stängde i somras' } });
    expect(res.status).toBe(201);
    const [row] = await reportsOf(s.rid);
    expect(row).toMatchObject({ id: res.body.id, category: 'report', quiz_id: s.b.id, report_unit: s.rid, sender_email: null, user_id: null });
    expect(row!.title).toBe(`Stämmer inte: Quizet är nedlagt – ${s.venue.name} (2045-01-10)`);
    expect(row!.description).toContain('Stängde i somras');
    expect(row!.description).toContain(`/quiz/`);
    // No client address anywhere: the rate-limit key is a hash.
    const keys = await testDb().all<{ key: string }>(sql`SELECT key FROM rate_limits WHERE key LIKE 'quiz-report:%'`);
    expect(keys.every((k) => !k.key.includes('.'))).toBe(true);

    const admin = await createUser({ roles: ['superadmin'], email: 'super@test.local' }).catch(async () => {
      const [u] = await testDb().all<{ id: string }>(sql`SELECT id FROM users WHERE email = 'super@test.local'`);
      return createUser({ roles: ['superadmin'], email: `super-${unique('x')}@test.local` }).then((x) => ({ ...x, id: u!.id }));
    });
    const inbox = await callJson('/api/admin/feedback', { cookie: admin.cookie });
    expect(inbox.status).toBe(200);
    expect(inbox.body.items.find((f: any) => f.id === res.body.id)).toMatchObject({ category: 'report', quizId: s.b.id });
  });

  it('bad input → 400 naming the field, nothing stored; a missing or hidden quiz → 404', async () => {
    const s = await publicSeries();
    const hidden = await publicSeries({ isPublic: false });
    const before = await snapshot(['feedback']);
    for (const [body, field] of [
      [{ quizId: s.a.id, reason: 'trasig' }, 'reason'],
      [{ quizId: s.a.id }, 'reason'],
      [{ quizId: s.a.id, reason: 'annat', text: 'x'.repeat(1001) }, 'text'],
      [{ reason: 'annat' }, 'quizId'],
    ] as const) {
      const res = await callJson('/api/feedback/report', { body });
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].path).toBe(field);
    }
    expect((await call('/api/feedback/report', { body: { quizId: 'no-such-quiz', reason: 'annat' } })).status).toBe(404);
    expect((await call('/api/feedback/report', { body: { quizId: hidden.a.id, reason: 'annat' } })).status).toBe(404);
    expect(await snapshot(['feedback'])).toEqual(before);
  });

  it(`rate-limited per client: ${REPORT_LIMIT} an hour, then 429; another client still gets through`, async () => {
    const s = await publicSeries();
    const client = ip();
    const statuses: number[] = [];
    for (let i = 0; i < REPORT_LIMIT + 2; i++) {
      statuses.push((await call('/api/feedback/report', { headers: { 'cf-connecting-ip': client }, body: { quizId: s.a.id, reason: 'annat' } })).status);
    }
    expect(statuses).toEqual([...Array(REPORT_LIMIT).fill(201), 429, 429]);
    expect(await reportsOf(s.rid)).toHaveLength(REPORT_LIMIT);
    expect((await call('/api/feedback/report', { headers: { 'cf-connecting-ip': ip() }, body: { quizId: s.a.id, reason: 'annat' } })).status).toBe(201);
  });

  it('the third report about a series within 30 days mails the owner once; reports older than 30 days do not count', async () => {
    const s = await publicSeries();
    const send = (quizId: string, clock: string) => call('/api/feedback/report', { clock, body: { quizId, reason: 'fel-tid' } });
    await send(s.a.id, '2044-11-01T10:00:00Z');
    await send(s.b.id, '2044-11-02T10:00:00Z');
    expect(await ownerMails(s.owner.email)).toHaveLength(0);
    await send(s.a.id, '2044-12-20T10:00:00Z'); // the first two are more than 30 days old
    expect(await ownerMails(s.owner.email)).toHaveLength(0);
    await send(s.b.id, '2044-12-21T10:00:00Z');
    expect(await ownerMails(s.owner.email)).toHaveLength(0);
    await send(s.a.id, '2044-12-22T10:00:00Z'); // three within 30 days (both quizzes of the same series)
    const mails = await ownerMails(s.owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(s.venue.name);
    await send(s.b.id, '2044-12-23T10:00:00Z');
    expect(await ownerMails(s.owner.email)).toHaveLength(1);
  });
});
