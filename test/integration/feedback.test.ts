/** POST /api/feedback (spec 01 §2, §4, §5, §8): stored in D1, validated by the shared contract, rate-limited per client. */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FEEDBACK_LIMIT } from '../../worker/features/feedback/service';
import { callJson, createUser, snapshot, testDb, unique } from '../factories';

async function stored(id: string) {
  const rows = await testDb().all<Record<string, unknown>>(sql`SELECT * FROM feedback WHERE id = ${id}`);
  return rows[0];
}

const ip = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}-${unique()}`;

describe('POST /api/feedback', () => {
  it('a visitor sends feedback with an optional e-mail; it is stored', async () => {
    const title = unique('Rubrik ');
    const { status, body } = await callJson('/api/feedback', {
      body: { category: 'feature', title, description: 'Karta, tack!', senderEmail: 'Besok@Example.se' },
      headers: { 'cf-connecting-ip': ip() },
    });
    expect(status).toBe(201);
    expect(await stored(body.id)).toMatchObject({ category: 'feature', title, description: 'Karta, tack!', sender_email: 'besok@example.se', user_id: null });
  });

  it('without e-mail is fine too', async () => {
    const { status, body } = await callJson('/api/feedback', {
      body: { category: 'bug', title: 'Fel', description: 'Något', senderEmail: '' },
      headers: { 'cf-connecting-ip': ip() },
    });
    expect(status).toBe(201);
    expect((await stored(body.id))!.sender_email).toBeNull();
  });

  it("a signed-in user's own e-mail is used, whatever was typed", async () => {
    const user = await createUser();
    const { status, body } = await callJson('/api/feedback', {
      cookie: user.cookie,
      body: { category: 'question', title: 'Fråga', description: 'Hur?', senderEmail: 'annan@example.se' },
      headers: { 'cf-connecting-ip': ip() },
    });
    expect(status).toBe(201);
    expect(await stored(body.id)).toMatchObject({ sender_email: user.email, user_id: user.id });
  });

  it.each([
    [{ category: 'spam', title: 'x', description: 'y' }, 'Kategori'],
    [{ category: 'bug', title: '   ', description: 'y' }, 'Rubrik'],
    [{ category: 'bug', title: 'x', description: '' }, 'Beskrivning'],
    [{ category: 'bug', title: 'x'.repeat(121), description: 'y' }, 'Rubrik'],
    [{ category: 'bug', title: 'x', description: 'y', senderEmail: 'inte-en-adress' }, 'E-post'],
  ])('bad input %j answers 400 naming %s and stores nothing', async (body, field) => {
    const before = await snapshot(['feedback']);
    const res = await callJson('/api/feedback', { body, headers: { 'cf-connecting-ip': ip() } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
    expect(await snapshot(['feedback'])).toEqual(before);
  });

  it(`is rate-limited per client: the ${FEEDBACK_LIMIT + 1}th message within the hour is refused and not stored`, async () => {
    const client = ip();
    for (let i = 0; i < FEEDBACK_LIMIT; i++) {
      const r = await callJson('/api/feedback', { body: { category: 'other', title: `t${i}`, description: 'd' }, headers: { 'cf-connecting-ip': client } });
      expect(r.status).toBe(201);
    }
    const before = await snapshot(['feedback']);
    const refused = await callJson('/api/feedback', {
      body: { category: 'other', title: 'en till', description: 'd' },
      headers: { 'cf-connecting-ip': client },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(await snapshot(['feedback'])).toEqual(before);
    // Another client is not affected.
    expect((await callJson('/api/feedback', { body: { category: 'other', title: 'x', description: 'd' }, headers: { 'cf-connecting-ip': ip() } })).status).toBe(
      201,
    );
  });
});
